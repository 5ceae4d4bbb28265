import Foundation

/// What a route made: bytes, their media type and, for files, the download name.
struct Produced: Sendable {
    /// The response body.
    var bytes: [UInt8]
    /// The `Content-Type`.
    var contentType: String
    /// The file name offered in `Content-Disposition` (already safe: letters, digits, `.`, `-`, `_`).
    var fileName: String?

    static let pdf = "application/pdf"
    static let xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    static let csv = "text/csv; charset=utf-8"
    static let png = "image/png"
    static let json = "application/json"

    /// `name` with every character outside `[A-Za-z0-9._-]` replaced by `_` (for headers).
    static func safeFileName(_ name: String) -> String {
        String(name.unicodeScalars.map { s -> Character in
            (s.properties.isASCIIHexDigit || ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "." || s == "-" || s == "_")
                ? Character(s) : "_"
        })
    }
}
