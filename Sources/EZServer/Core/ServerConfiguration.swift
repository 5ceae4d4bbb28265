import EZLedger
import Foundation

/// Everything `ezreport serve` is told on its command line.
public struct ServerConfiguration: Sendable {
    /// How log lines are written.
    public enum LogFormat: String, Sendable, CaseIterable {
        /// `key=value` text, one line per event.
        case text
        /// One JSON object per line.
        case json
    }

    /// The ledger's path as given (it appears, as given, in every report's provenance).
    public var ledgerPath: String
    /// The address to listen on (loopback by default).
    public var host: String
    /// The port to listen on; 0 picks a free one (tests).
    public var port: Int
    /// The HS256 key tokens are signed with (the secret file's bytes, a trailing newline removed; at least 32 bytes).
    public var jwtSecret: [UInt8]
    /// Keys tokens may also be signed with while the secret is rotated (``jwtSecret`` is tried
    /// first): the server accepts the new secret before the app signs with it, and the old one
    /// until the app's tokens signed with it have expired. Empty unless rotating.
    public var previousJWTSecrets: [[UInt8]] = []
    /// The files ``jwtSecret`` and ``previousJWTSecrets`` were read from. When set, the server
    /// reads them again on SIGHUP and checks tokens with the new secrets from then on (a file
    /// that cannot be used is logged and the secrets in use are kept); when nil, SIGHUP is not
    /// handled.
    public var jwtSecretFiles: JWTSecretFiles?

    /// Where the JWT secrets come from, for reading them again on SIGHUP.
    public struct JWTSecretFiles: Sendable {
        /// The current secret's file (`--jwt-secret-file`).
        public var current: String
        /// The previous secrets' files (`--jwt-previous-secret-file`), in order.
        public var previous: [String]

        public init(current: String, previous: [String] = []) {
            self.current = current
            self.previous = previous
        }
    }
    /// Renders that may run at once.
    public var maxConcurrent: Int
    /// Requests that may wait for a render slot; beyond it the server answers 503.
    public var queueLimit: Int
    /// How log lines are written.
    public var logFormat: LogFormat
    /// A request still unanswered after this long is cut with 503.
    public var requestTimeout: Duration
    /// How long a graceful shutdown waits for requests in flight; then they are answered 503 and
    /// the server stops without waiting for their renders.
    public var shutdownGrace: Duration
    /// A connection that sends nothing for this long — idle between requests, or stalled in the
    /// middle of a request's head — is closed, so that slow or abandoned clients cannot hold
    /// sockets and memory for ever. So is one whose client takes none of its response for this
    /// long (``SendTimeout``).
    public var idleTimeout: Duration = .seconds(60)
    /// The bytes that finished responses not yet read by their clients may hold; beyond it new
    /// renders are answered 503 with `Retry-After` (see ``UnsentResponses``). 32 MiB: with the
    /// server's ~100 MB under load, memory stays within the deployment's bounds whoever reads
    /// slowly; one larger response (a shop's 18 MB transaction export) is still served alone.
    public var unsentResponseLimit: Int = 32 * 1024 * 1024
    /// The name a token's `aud` claim must hold to be accepted; nil: tokens with an `aud` are refused.
    public var jwtAudience: String?
    /// Connections open at once; one more is closed as it opens (see ``ConnectionLimit``).
    public var maxConnections: Int = 512
    /// The most rows a transaction PDF lists (~700 landscape pages); beyond it the answer is 422.
    /// On the project's 2-core machine a PDF takes ~0.4 ms per row: 100,000 rows (a shop's month)
    /// ran past ``requestTimeout``, were answered 503 with `Retry-After`, and the render went on as
    /// long again; a client that retried had it all done again. The CSV and the workbook (2.4 s for
    /// 100,000 rows) list every row.
    public var transactionPDFRowLimit: Int = 20_000
    /// The most transactions a statement PDF lists over HTTP; beyond it the answer is 422. The
    /// statement's pages take ~0.1–0.2 ms a row here: a year of a shop's 200,000 rows ran 36 s,
    /// past ``requestTimeout``, so it was cut with 503 and `Retry-After: 1` on every try while its
    /// render held a slot. The workbook and the CSV files list every row; `monthly` makes any PDF.
    public var statementPDFRowLimit: Int = 100_000
    /// Slows every render down by this much (tests of back-pressure and shutdown only).
    package var renderDelay: Duration = .zero
    /// Opens the ledger when it is not a SQLite file (a PostgreSQL server): nil for a file at ``ledgerPath``.
    package var openLedger: (@Sendable () throws -> any LedgerStore)?

    /// ``renderDelay`` for the command line's hidden test option.
    public var debugRenderDelay: Duration {
        get { renderDelay }
        set { renderDelay = newValue }
    }

    /// A configuration with the documented defaults.
    public init(ledgerPath: String, host: String = "127.0.0.1", port: Int = 8080, jwtSecret: [UInt8],
                maxConcurrent: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int? = nil,
                logFormat: LogFormat = .text, requestTimeout: Duration = .seconds(30), shutdownGrace: Duration = .seconds(10)) {
        self.ledgerPath = ledgerPath
        self.host = host
        self.port = port
        self.jwtSecret = jwtSecret
        self.maxConcurrent = max(1, maxConcurrent)
        self.queueLimit = queueLimit ?? 8 * max(1, maxConcurrent)
        self.logFormat = logFormat
        self.requestTimeout = requestTimeout
        self.shutdownGrace = shutdownGrace
    }
}

/// The JWT secret file, read for `serve` and `token`.
public enum JWTSecretFile {
    /// Why the secret cannot be used.
    public struct SecretError: Error, CustomStringConvertible {
        /// The file's path.
        public var path: String
        /// What is wrong.
        public var reason: String
        public var description: String { "cannot use JWT secret file '\(path)': \(reason)" }
    }

    /// The placeholder docs/deployment.md's Kubernetes Secret shows: a deployment that kept it
    /// would let anyone who read the docs mint an admin's token.
    static let documentationPlaceholder = Array("replace-with-at-least-32-random-bytes-shared-with-the-app".utf8)

    /// Fewest different byte values a secret may have: 32 random bytes in base64 have ~28, in hex
    /// up to 16; 40 spaces or 33 newlines (both accepted once, the first on a reload: outside
    /// server test) have one.
    static let fewestDistinctBytes = 8

    /// The file's bytes with one trailing newline (`\n` or `\r\n`) removed; at least 32 bytes, of
    /// at least ``fewestDistinctBytes`` different values, and not the documentation's placeholder.
    public static func read(_ path: String) throws(SecretError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SecretError(path: path, reason: "no such file or not readable")
        }
        var bytes = Array(data)
        if bytes.last == 0x0A { bytes.removeLast(); if bytes.last == 0x0D { bytes.removeLast() } }
        guard bytes.count >= 32 else { throw SecretError(path: path, reason: "the secret is shorter than 32 bytes (HS256 needs at least the hash size)") }
        guard bytes != documentationPlaceholder else {
            throw SecretError(path: path, reason: "the secret is the documentation's placeholder: write random bytes (head -c 32 /dev/urandom | base64)")
        }
        guard Set(bytes).count >= fewestDistinctBytes else {
            throw SecretError(path: path, reason: "the secret has fewer than \(fewestDistinctBytes) different bytes, so it is not random: "
                              + "write random bytes (head -c 32 /dev/urandom | base64)")
        }
        return bytes
    }
}
