import Foundation

/// Header text made safe and standard: RFC 2047 encoded-words for display names and subjects,
/// RFC 2231 parameters for file names. Whatever the input (a username with CR, LF, commas,
/// quotes or any script), the output is printable ASCII that cannot end a header or add one.
enum HeaderEncoding {
    /// Longest encoded-word RFC 2047 §2 allows.
    static let maxEncodedWord = 75

    /// A header value: `text` as is when it is plain printable ASCII without specials that
    /// matter and short enough for one line (900 bytes, under RFC 5322's 998 with the field's
    /// name), else as `=?UTF-8?B?…?=` words separated by folding whitespace.
    static func unstructured(_ raw: String) -> String {
        let text = withoutControls(raw)
        if text.utf8.count <= 900, text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }), !text.contains("=?") { return text }
        return encodedWords(text).joined(separator: "\r\n ")
    }

    /// The longest display name written as itself (an atom phrase or a quoted-string). The
    /// header is not folded, so `To: ` + this + ` <` + a 254-character address + `>` stays far
    /// under RFC 5322's 998 characters; a longer name is written as encoded-words, which fold.
    static let maxPlainDisplayName = 64

    /// A display name for `Name <addr>`: an atom-only phrase as is; other printable ASCII (dots,
    /// commas, quotes…) as a quoted-string with `"` and `\\` escaped (RFC 5322 §3.2.4), so that
    /// `mia.huber10` reads as itself; anything else as encoded-words (RFC 2047 §5 (3)): a name
    /// longer than ``maxPlainDisplayName`` bytes, and one holding `=?`, which a mail reader would
    /// otherwise decode as an encoded-word of its own and show as other text.
    static func displayName(_ raw: String) -> String {
        let name = withoutControls(raw)
        let plain = !name.isEmpty && name.utf8.count <= maxPlainDisplayName && !name.contains("=?")
        let safe = plain && name.utf8.allSatisfy { MailAddress.isAtext($0) || $0 == 0x20 }
            && !name.hasPrefix(" ") && !name.hasSuffix(" ") && !name.contains("  ")
        if safe { return name }
        if plain, name.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) {
            return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return encodedWords(name).joined(separator: "\r\n ")
    }

    /// `Name <addr>`, or the bare address when there is no name.
    static func mailbox(name: String?, address: MailAddress) -> String {
        guard let name, !name.isEmpty else { return address.text }
        return displayName(name) + " <" + address.text + ">"
    }

    /// `text` with control characters (CR, LF, TAB, NUL…) as spaces: even decoded, a header value
    /// holds no line break (mail readers refuse or mishandle them).
    static func withoutControls(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// `text` as base64 encoded-words of at most 75 characters, never splitting a character.
    static func encodedWords(_ text: String) -> [String] {
        let prefix = "=?UTF-8?B?", suffix = "?="
        // 4 base64 characters per 3 bytes: 75 - 12 = 63 characters hold 45 bytes.
        let maxBytes = (maxEncodedWord - prefix.count - suffix.count) / 4 * 3
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty, chunk.count + bytes.count > maxBytes {
                words.append(prefix + Data(chunk).base64EncodedString() + suffix)
                chunk = []
            }
            chunk += bytes.prefix(maxBytes)
        }
        if !chunk.isEmpty || words.isEmpty { words.append(prefix + Data(chunk).base64EncodedString() + suffix) }
        return words
    }

    /// A MIME parameter (`name="value"`), with RFC 2231 `name*=UTF-8''%XX…` when `value` is not
    /// plain ASCII a quoted string can carry.
    static func parameter(_ name: String, _ value: String) -> String {
        let plain = value.utf8.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }
        if plain { return "\(name)=\"\(value)\"" }
        var encoded = "UTF-8''"
        for b in value.utf8 {
            if isAttributeChar(b) {
                encoded.append(Character(Unicode.Scalar(b)))
            } else {
                encoded += String(format: "%%%02X", b)
            }
        }
        return "\(name)*=\(encoded)"
    }

    /// RFC 2231 `attribute-char`: letters, digits and `!#$&+-.^_`|~` (no tspecials, `*`, `'` or `%`).
    static func isAttributeChar(_ b: UInt8) -> Bool {
        MailAddress.isLabelByte(b) || Array("!#$&+.^_`|~".utf8).contains(b)
    }
}
