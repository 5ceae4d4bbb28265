/// An e-mail address that is a valid RFC 5322 `addr-spec` of the common, safe form
/// `dot-atom@dot-atom` (no quoted local parts, no domain literals, no comments), so that it can
/// go into a header and an SMTP `RCPT TO` without any way to add a header or a recipient.
///
/// ```swift
/// MailAddress("zoë@example.com")        // nil: the local part is not ASCII (no SMTPUTF8 here)
/// MailAddress("a@b.example")?.domain    // "b.example"
/// MailAddress("a@b.example\r\nBcc: x")  // nil
/// ```
package struct MailAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as given (validated).
    package let text: String
    /// The part after `@`.
    package let domain: String

    /// RFC 5321 limits: 64 octets of local part, 255 of domain, 254 for the whole path.
    static let maxLocalPart = 64, maxDomain = 255, maxAddress = 254

    /// The address, or nil when `text` is not a plain `dot-atom@domain` addr-spec.
    package init?(_ text: String) {
        guard Self.problem(text) == nil, let at = text.lastIndex(of: "@") else { return nil }
        self.text = text
        domain = String(text[text.index(after: at)...])
    }

    /// How a skipped user's reason begins when their address cannot be used ("unusable address: …").
    package static let unusablePrefix = "unusable address: "

    /// Why `text` is not a usable address (nil when it is), as a short reason for the journal.
    package static func problem(_ text: String) -> String? {
        if text.isEmpty { return "no address" }
        let bytes = Array(text.utf8)
        if bytes.contains(where: { $0 == 0x0D || $0 == 0x0A }) { return "the address contains a line break" }
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "the address contains a control character" }
        if bytes.contains(where: { $0 >= 0x80 }) { return "the address is not ASCII" }
        if bytes.count > maxAddress { return "the address is longer than \(maxAddress) characters" }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return "the address must contain exactly one '@'" }
        let local = parts[0], domain = parts[1]
        guard !local.isEmpty, local.utf8.count <= maxLocalPart else { return "the local part must be 1–\(maxLocalPart) characters" }
        guard isDotAtom(local, allowed: isAtext) else { return "the local part is not a dot-atom (spaces, commas, quotes or stray dots)" }
        guard !domain.isEmpty, domain.utf8.count <= maxDomain else { return "the domain must be 1–\(maxDomain) characters" }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return "the domain has no dot" }
        for label in labels {
            guard (1...63).contains(label.utf8.count), label.utf8.allSatisfy(isLabelByte),
                  label.first != "-", label.last != "-" else { return "the domain '\(domain)' is not a host name" }
        }
        return nil
    }

    package var description: String { text }

    /// `atext` of RFC 5322 §3.2.3: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    static func isAtext(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-/=?^_`{|}~".utf8).contains(b)
        }
    }

    static func isLabelByte(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "-")
    }

    /// `dot-atom-text`: atoms of `allowed` bytes joined by single dots, no leading or trailing dot.
    static func isDotAtom(_ s: Substring, allowed: (UInt8) -> Bool) -> Bool {
        s.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(allowed) }
    }
}
