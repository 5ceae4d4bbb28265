import Foundation

/// Whether a JSON object names each of its members once, for a token's header and claims.
///
/// RFC 7519 §4 and RFC 7515 §4: a JWT parser must reject duplicate member names or use the last
/// one. The parser under jwt-kit (Foundation's) silently keeps one of them, so a token
/// `{"sub":"2","sub":"3"}` could be read as user 2 here and as user 3 by a backend that keeps the
/// last: such tokens are refused before they are verified. Only the top level is looked at,
/// where the claims and header parameters are; a name is compared after its escapes are read
/// (`"s\u0075b"` is `"sub"`).
enum JSONMemberNames {
    /// True when `json` is an object whose top-level member names are all different; false for a
    /// repeated name or text that is not such an object.
    static func areUnique(_ json: [UInt8]) -> Bool {
        var names = Set<String>()
        var depth = 0, expectingName = false, i = 0
        while i < json.count {
            let c = json[i]
            if c == UInt8(ascii: "\"") {
                let start = i
                i += 1
                while i < json.count, json[i] != UInt8(ascii: "\"") { i += json[i] == UInt8(ascii: "\\") ? 2 : 1 }
                guard i < json.count else { return false }
                if depth == 1, expectingName {
                    guard let name = try? JSONSerialization.jsonObject(with: Data(json[start...i]), options: .fragmentsAllowed) as? String,
                          names.insert(name).inserted else { return false }
                    expectingName = false
                }
            } else if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                depth += 1
                if depth == 1 { guard c == UInt8(ascii: "{") else { return false }; expectingName = true }
            } else if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
            } else if c == UInt8(ascii: ","), depth == 1 {
                expectingName = true
            }
            i += 1
        }
        return depth == 0
    }

    /// The bytes of a base64url segment (no padding), as a JWT's header and claims are written.
    static func base64URLDecoded(_ segment: Substring) -> [UInt8]? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).map(Array.init)
    }
}
