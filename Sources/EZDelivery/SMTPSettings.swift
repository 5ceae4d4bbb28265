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
    /// Seconds to wait for a connection.
    package var connectTimeout: Int = 10
    /// Seconds to wait for any one reply of the server (`--smtp-timeout`).
    package var replyTimeout: Int = 120
    /// Seconds for a whole message, connection and upload included: a minute more than a reply.
    package var messageTimeout: Int = 180

    /// Whether the session may go on in plain text when the server offers no TLS: only with
    /// `--smtp-insecure` and no login. A user name or password is never sent in plain text,
    /// where anyone on the path could read it, or strip the server's STARTTLS to make it so.
    package var allowsPlainText: Bool { insecure && user == nil && password == nil && !Self.hasUserInfo(url) }

    package init(url: String, insecure: Bool, user: String?, password: String?, caFile: String?) {
        self.url = url; self.insecure = insecure; self.user = user; self.password = password; self.caFile = caFile
    }

    /// Why `url` is not an SMTP URL this command accepts (nil when it is). The message never
    /// holds the URL's credentials, however malformed it is (see ``redacted(_:)``).
    package static func problem(url: String) -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("smtp://") || lower.hasPrefix("smtps://") else {
            return "--smtp must be smtp://host:port or smtps://host:port (got '\(redacted(url))')"
        }
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return "--smtp contains spaces or control characters" }
        let rest = url[url.index(url.firstIndex(of: ":")!, offsetBy: 3)...]
        // The host and port follow the credentials' last "@" (as in ``redacted(_:)``), so that
        // nothing of a password, even a malformed one, is quoted in a message.
        let afterCredentials = rest.lastIndex(of: "@").map { rest[rest.index(after: $0)...] } ?? rest
        let hostAndPort = afterCredentials.prefix { $0 != "/" }
        guard !hostAndPort.isEmpty else { return "--smtp names no host" }
        // The credentials, checked without quoting them: libcurl refused them only on connecting
        // ("URL using bad/illegal format", exit 1), and logs in with no user at all.
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            if credentials.contains(where: { "/?#@".contains($0) }) {
                return "--smtp's user or password holds '/', '?', '#' or '@': write them percent-encoded (%2F, %3F, %23, %40)"
            }
            // Each % must start an escape: libcurl refused `%zz` on connecting, or took it as written.
            let bytes = Array(credentials.utf8)
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, bytes[i + 1].isHexDigit, bytes[i + 2].isHexDigit else {
                    return "--smtp's user or password holds a '%' that is not an escape such as %40: write a '%' itself as %25"
                }
                guard bytes[i + 1] > UInt8(ascii: "1") else {   // %00 to %1F: a control character
                    return "--smtp's user or password holds an escaped control character (%00 to %1F)"
                }
            }
            if credentials.hasPrefix(":") {
                return "--smtp names a password but no user (smtp://USER:PASSWORD@host): libcurl would not log in with it"
            }
        }
        // The port, checked here so that a typo is a bad argument (exit 64), not a failed connection.
        var port: Substring?
        if hostAndPort.hasPrefix("[") {   // an IPv6 literal, [::1]:25
            guard let close = hostAndPort.firstIndex(of: "]") else { return "--smtp has an unclosed '[' in its host" }
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { return "--smtp has text after its host's ']'" }
                port = after.dropFirst()
            }
        } else if let colon = hostAndPort.lastIndex(of: ":") {
            port = hostAndPort[hostAndPort.index(after: colon)...]
        }
        guard hostAndPort.first != ":" else { return "--smtp names no host" }
        if let port {
            guard !port.isEmpty, port.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let number = Int(port), (1...65535).contains(number) else {
                return "--smtp port '\(port)' is not a number from 1 to 65535"
            }
        }
        return nil
    }

    /// Whether `url` names its own credentials (`smtp://user:password@host`).
    package static func hasUserInfo(_ url: String) -> Bool {
        guard let scheme = url.range(of: "://") else { return false }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" }
        return authority.contains("@")
    }

    /// `url` without the credentials a `user:password@` part may hold, for messages: everything
    /// between the scheme and the last `@` becomes `***`, also in a URL too malformed to parse
    /// (`smtp:/user:secret@host`). Control characters are shown as `?`.
    package static func redacted(_ url: String) -> String {
        let shown = String(url.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        guard let at = shown.lastIndex(of: "@") else { return shown }
        var start = shown.startIndex
        if let colon = shown.firstIndex(of: ":"), colon < at {
            start = shown.index(after: colon)
            while start < at, shown[start] == "/" { start = shown.index(after: start) }
        }
        return String(shown[..<start]) + "***" + String(shown[at...])
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self | 0x20)
    }
}
