import Foundation

/// One statement e-mail as RFC 5322 / MIME text (RFC 2045–2049), built deterministically: the
/// same inputs give the same bytes, so a `--dry-run` `.eml` is exactly what would be sent.
///
/// Structure: `multipart/mixed` holding a `multipart/alternative` (plain text and HTML, UTF-8,
/// base64) and the attachments (base64). Lines end in CRLF; no line exceeds 78 characters except
/// headers of unusual length, and none exceeds 998. Header values from the ledger go through
/// ``HeaderEncoding``, so no username can add a header or a recipient.
struct MIMEMessage {
    /// A file attached to the message.
    struct Attachment {
        var fileName: String
        var contentType: String
        var bytes: Data
    }

    var from: MailAddress
    /// The sender's display name, encoded as needed.
    var fromName: String?
    var to: MailAddress
    /// The recipient's display name (their username), encoded as needed.
    var toName: String?
    var subject: String
    var date: Date
    /// Without angle brackets: `statement.3.2026-10.0123456789abcdef@example.com`.
    var messageID: String
    var plainText: String
    var html: String
    var attachments: [Attachment]

    /// The message's bytes, ready for SMTP `DATA` (libcurl dot-stuffs) or a `.eml` file.
    func rendered() -> Data {
        let mixed = "=_ezreport_mixed_" + boundaryToken
        let alternative = "=_ezreport_alt_" + boundaryToken
        var out = ""
        out += header("From", HeaderEncoding.mailbox(name: fromName, address: from))
        out += header("To", HeaderEncoding.mailbox(name: toName, address: to))
        out += header("Subject", HeaderEncoding.unstructured(subject))
        out += header("Date", Self.rfc5322Date(date))
        out += header("Message-ID", "<" + messageID + ">")
        out += header("MIME-Version", "1.0")
        out += header("Auto-Submitted", "auto-generated")
        out += header("Content-Type", "multipart/mixed;\r\n boundary=\"\(mixed)\"")
        out += "\r\n"
        out += "This is a MIME message: your statement is attached.\r\n"
        out += "\r\n--\(mixed)\r\n"
        out += header("Content-Type", "multipart/alternative;\r\n boundary=\"\(alternative)\"")
        out += "\r\n"
        out += "--\(alternative)\r\n" + textPart(plainText, subtype: "plain")
        out += "--\(alternative)\r\n" + textPart(html, subtype: "html")
        out += "--\(alternative)--\r\n"
        for attachment in attachments {
            out += "\r\n--\(mixed)\r\n"
            out += header("Content-Type", attachment.contentType + ";\r\n " + HeaderEncoding.parameter("name", attachment.fileName))
            out += header("Content-Disposition", "attachment;\r\n " + HeaderEncoding.parameter("filename", attachment.fileName))
            out += header("Content-Transfer-Encoding", "base64")
            out += "\r\n" + Self.base64Lines(attachment.bytes)
        }
        out += "\r\n--\(mixed)--\r\n"
        return Data(out.utf8)
    }

    /// A boundary no base64 body can contain (`=` followed by `_` never occurs in base64 text).
    private var boundaryToken: String {
        String(messageID.prefix { $0 != "@" }.prefix(48).map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    private func header(_ name: String, _ value: String) -> String { name + ": " + value + "\r\n" }

    private func textPart(_ text: String, subtype: String) -> String {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        return header("Content-Type", "text/\(subtype); charset=utf-8")
            + header("Content-Transfer-Encoding", "base64") + "\r\n" + Self.base64Lines(Data(normalised.utf8))
    }

    /// Base64 in lines of 76 characters (RFC 2045 §6.8), each ending in CRLF.
    static func base64Lines(_ data: Data) -> String {
        let encoded = Array(data.base64EncodedString().utf8)
        var out = ""
        out.reserveCapacity(encoded.count + encoded.count / 76 * 2 + 2)
        var start = 0
        while start < encoded.count {
            let end = min(start + 76, encoded.count)
            out += String(decoding: encoded[start..<end], as: UTF8.self) + "\r\n"
            start = end
        }
        return out
    }

    /// `Mon, 23 Nov 2026 21:40:00 +0000`, RFC 5322 §3.3, in UTC.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
