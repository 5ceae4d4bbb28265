/// Decodes percent-encoded unreserved characters in a request's path, as RFC 3986 §6.2.2.2
/// normalises a URI: `/v1/users/%32/statistics` is `/v1/users/2/statistics` (it answered 404,
/// the same request from a client that encodes more than it must). Applied to the request head
/// before it is routed (``HTTPHygieneHandler``): a router middleware runs after the route is found.
///
/// Only letters, digits and `-._~` are decoded: an encoded `/` (`%2F`) or `%` stays as it is,
/// so a path segment can never be split or joined by decoding. The query is left alone (its
/// parameters are decoded where they are read).
enum UnreservedPath {
    /// `target` with the path's encoded unreserved characters decoded; nil when there were none.
    static func normalized(_ target: String) -> String? {
        let bytes = Array(target.utf8)
        let pathEnd = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var changed = false
        var i = 0
        while i < pathEnd {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < pathEnd,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    out.append(decoded)
                    changed = true
                    i += 3
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        guard changed else { return nil }
        out.append(contentsOf: bytes[pathEnd...])
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func isUnreserved(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
            || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "~")
    }
}
