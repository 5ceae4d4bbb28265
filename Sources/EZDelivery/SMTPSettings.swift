/// Where and how to reach the SMTP server.
package struct SMTPSettings: Sendable {
    /// `smtp://host:port` (STARTTLS) or `smtps://host:port` (TLS from the first byte).
    package var url: String
    /// Allow a plain-text session when an `smtp://` server offers no STARTTLS (libcurl's
    /// `CURLUSESSL_TRY` instead of `CURLUSESSL_ALL`). Certificates are verified whenever TLS is used.
    package var insecure: Bool
    /// Credentials for `AUTH`, when the server needs them. Never logged.
    package var user: String?
    package var password: String?
    /// A PEM file of trusted CA certificates (a private CA), instead of the system's.
    package var caFile: String?
    /// Seconds to wait for a connection, and for a whole message.
    package var connectTimeout: Int = 10
    package var messageTimeout: Int = 120

    package init(url: String, insecure: Bool, user: String?, password: String?, caFile: String?) {
        self.url = url; self.insecure = insecure; self.user = user; self.password = password; self.caFile = caFile
    }

    /// Why `url` is not an SMTP URL this command accepts (nil when it is).
    package static func problem(url: String) -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("smtp://") || lower.hasPrefix("smtps://") else {
            return "--smtp must be smtp://host:port or smtps://host:port (got '\(url)')"
        }
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return "--smtp contains spaces or control characters" }
        let rest = url[url.index(url.firstIndex(of: ":")!, offsetBy: 3)...]
        guard let host = rest.split(separator: "/").first, !host.isEmpty else { return "--smtp names no host" }
        return nil
    }
}
