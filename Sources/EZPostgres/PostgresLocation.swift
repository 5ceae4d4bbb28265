import EZLedger
import Foundation

/// Where a PostgreSQL ledger is: `postgres://USER@HOST:PORT/DBNAME` (or `postgresql://`), with
/// libpq's `sslmode` and `sslrootcert` as query parameters. The password never comes from the
/// URL (it would show in process lists, shell history and the manifest): it comes from
/// `PGPASSWORD` or a password file (``password(file:environment:)``).
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://report@db.internal:5432/wallet?sslmode=verify-full",
///                                     password: PostgresLocation.password(file: nil))
/// ```
package struct PostgresLocation: Sendable, Equatable {
    /// TLS as libpq's `sslmode` names it.
    package enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS when the server offers it, no certificate check (libpq's default).
        case prefer
        /// TLS required; the certificate is not checked.
        case require
        /// TLS required; the certificate must chain to a trusted root.
        case verifyCA = "verify-ca"
        /// TLS required; the certificate must chain to a trusted root and name the host.
        case verifyFull = "verify-full"
    }

    package var user: String
    package var host: String
    package var port: Int
    package var database: String
    package var sslMode: SSLMode
    /// PEM file of trusted roots for `verify-ca`/`verify-full` (the system's roots otherwise).
    package var sslRootCert: String?
    /// The password (from `PGPASSWORD` or a password file), never printed.
    package var password: String?
    /// The password file it came from, read again for every new connection
    /// (``passwordForConnecting()``): a rotated secret reaches a long-running `serve` without a restart.
    package var passwordFile: String?
    /// The URL as given: it holds no password, so it names the ledger in errors and manifests.
    package var url: String
    /// How long a read waits for a table lock another session holds (`lock_timeout`), in
    /// seconds; nil waits as long as it takes (the batch: a run outlasts a migration). `serve`
    /// waits 10 s, as for a locked SQLite file, then answers 503.
    package var lockTimeoutSeconds: Int?
    /// How long any one query may go unanswered before the session is given up as lost, in
    /// seconds: a frozen server (a stopped process, a hung host) keeps its connection open, so
    /// without a limit a scheduled run waited for it for ever, holding its folder's lock. Ten
    /// minutes by default, far beyond any query the engine makes of a healthy server; `serve`
    /// gives up after 30 s, a request's own limit, so its render threads are not held.
    package var answerTimeoutSeconds = 600

    /// Whether `text` is a PostgreSQL URL rather than a file path.
    package static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses `url`.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:sqliteCode:)`` naming what is wrong (a
    ///   password in the URL, a missing user, host or database, an unknown parameter or `sslmode`).
    package init(url: String, password: String?) throws(LedgerError) {
        func bad(_ reason: String) -> LedgerError { .cannotOpen(path: Self.withoutPassword(url), reason: reason) }
        guard Self.isURL(url), let parts = URLComponents(string: url) else {
            throw bad("not a URL of the form postgres://USER@HOST:PORT/DBNAME")
        }
        guard parts.password == nil, !(parts.queryItems ?? []).contains(where: { $0.name == "password" }) else {
            throw bad("the URL holds a password; give it in PGPASSWORD or --db-password-file instead (sample: --out-password-file)")
        }
        guard let user = parts.user, !user.isEmpty else { throw bad("the URL names no user (postgres://USER@HOST:PORT/DBNAME)") }
        guard let host = parts.host, !host.isEmpty else { throw bad("the URL names no host (postgres://USER@HOST:PORT/DBNAME)") }
        // URLComponents reads any digits as the port, and the connection then took 99999 as
        // 99999 mod 65536 = 34463: a typo could read another server's ledger.
        if let port = parts.port, !(1...65_535).contains(port) {
            throw bad("port \(port) is not a number from 1 to 65535")
        }
        let database = String(parts.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else { throw bad("the URL names no database (postgres://USER@HOST:PORT/DBNAME)") }
        var mode = SSLMode.prefer
        var rootCert: String?
        for item in parts.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let m = item.value.flatMap(SSLMode.init(rawValue:)) else {
                    throw bad("sslmode '\(item.value ?? "")' is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                mode = m
            case "sslrootcert": rootCert = item.value
            default: throw bad("unknown URL parameter '\(item.name)' (sslmode and sslrootcert are understood)")
            }
        }
        self.user = user
        self.host = host
        self.port = parts.port ?? 5432
        self.database = database.removingPercentEncoding ?? database
        self.sslMode = mode
        self.sslRootCert = rootCert
        self.password = password
        self.url = url
    }

    /// The password for the connection: the first line of `file` when given, else `PGPASSWORD`,
    /// else none (trust or certificate authentication).
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:sqliteCode:)`` when the file cannot be read.
    package static func password(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
                                 url: String = "") throws(LedgerError) -> String? {
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw .cannotOpen(path: withoutPassword(url), reason: "cannot read the password file '\(file)'")
            }
            let text = String(decoding: data, as: UTF8.self)
            // The first line, whatever ends it: Swift reads "\r\n" as one character, which a split on
            // "\n" does not see (a file saved on Windows sent "secret\r\n" as the password).
            return String(text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? "")
        }
        return environment["PGPASSWORD"]
    }

    /// The password to connect with now: the password file's first line as it is at this moment
    /// when there is one (a secret rotated in place, or by Kubernetes' mounted-secret update, is
    /// used by the next connection), else ``password``.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:sqliteCode:)`` when the file cannot be read.
    package func passwordForConnecting() throws(LedgerError) -> String? {
        guard let passwordFile else { return password }
        return try Self.password(file: passwordFile, url: url)
    }

    /// `url` with any secret removed (`user:password@`, libpq's `?password=`, or a parameter
    /// such as `sslpassword`, the client key's passphrase), for messages about a URL that was refused.
    static func withoutPassword(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return withoutUserInfoSecret(url) }
        let items = parts.queryItems ?? []
        func secret(_ item: URLQueryItem) -> Bool { item.name.lowercased().contains("password") }
        guard parts.password != nil || items.contains(where: secret) else { return url }
        parts.password = nil
        let kept = items.filter { !secret($0) }
        parts.queryItems = kept.isEmpty ? nil : kept
        return parts.string ?? "postgres://…"
    }

    /// A URL that does not parse (a port that is not a number, a stray `[`) with what could be a
    /// password cut out: whatever follows a `:` between `://` and the last `@` (such a URL printed
    /// `postgres://ezreport:TOPSECRET@127.0.0.1:notaport/wallet` whole: outside PostgreSQL test),
    /// and the whole URL when a parameter names a password.
    static func withoutUserInfoSecret(_ url: String) -> String {
        if url.lowercased().contains("password") { return "postgres://…" }
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@"),
              let colon = url[scheme.upperBound..<at].firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":…" + String(url[at...])
    }
}
