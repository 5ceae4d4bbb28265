import EZLedger
import Foundation
import Logging
import PostgresNIO
import Synchronization

/// One connection to the PostgreSQL server, used synchronously by one thread at a time: the
/// engine's readers are synchronous (a batch worker, a render-pool thread), so each query waits
/// for PostgresNIO's future on the calling thread (never an event-loop thread).
///
/// A reading session is opened with `default_transaction_read_only = on` (a startup parameter,
/// as `SET` would set it), so no statement of it can write even outside the transactions the
/// readers open, and with `row_security = off`, so that no policy hides rows from it unsaid. The connection closes in `deinit`.
final class PostgresSession: @unchecked Sendable {
    let connection: PostgresConnection
    let location: PostgresLocation
    private let logger: Logger

    private static let ids = Mutex<Int>(0)

    /// Connects and authenticates.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:sqliteCode:)`` with the server's or the
    ///   network's one-line reason (wrong password, connection refused, no such database…).
    init(_ location: PostgresLocation, readOnly: Bool = true) throws(LedgerError) {
        var logger = Logger(label: "ezreport.postgres")
        logger.logLevel = .critical
        self.logger = logger
        self.location = location
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: try location.passwordForConnecting(),
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        var parameters = [("application_name", "ezreport")]
        // `row_security = off`: a row-level security policy that would hide rows from the role
        // makes the read fail ("query would be affected by row-level security policy") instead
        // of leaving rows out unsaid (outside PostgreSQL test: `check` said "Clean").
        if readOnly { parameters += [("default_transaction_read_only", "on"), ("row_security", "off")] }
        if let seconds = location.lockTimeoutSeconds { parameters.append(("lock_timeout", "\(seconds)s")) }
        configuration.options.additionalStartupParameters = parameters
        do {
            configuration.tls = try Self.tls(location)
            // No explicit server name: PostgresNIO sends a host name as SNI and checks the
            // certificate against it, and sends none for an IP address (not valid in SNI, which
            // refused every `verify-full` connection to an IP); the certificate must then name
            // that address.
            let id = Self.ids.withLock { $0 += 1; return $0 }
            connection = try PostgresConnection.connect(
                on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger).wait()
        } catch {
            throw .cannotOpen(path: location.url, reason: PostgresFailure.describe(error))
        }
    }

    // PostgresNIO requires a connection to be closed before it goes away; sessions are released on
    // the engine's own threads (never an event loop's), where waiting for the close is allowed.
    deinit { try? connection.close().wait() }

    private static func tls(_ location: PostgresLocation) throws -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let root = location.sslRootCert { tls.trustRoots = .file(root) }
        switch location.sslMode {
        case .disable: return .disable
        case .prefer:
            tls.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: tls))
        case .require:
            // As libpq: with a root certificate file named, `require` verifies the chain as
            // `verify-ca` does (it connected to any certificate, the file ignored: outside
            // PostgreSQL test).
            tls.certificateVerification = location.sslRootCert == nil ? .none : .noHostnameVerification
            return .require(try NIOSSLContext(configuration: tls))
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: tls))
        case .verifyFull:
            tls.certificateVerification = .fullVerification
            return .require(try NIOSSLContext(configuration: tls))
        }
    }

    /// Runs `sql` with `arguments` bound as `$1`, `$2`… and receives every row.
    func rows(_ sql: String, _ arguments: [LedgerArgument] = []) throws -> PostgresRows {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .integer(let v): binds.append(v)
            case .text(let t): binds.append(t)
            }
        }
        let result = try wait(for: PostgresQuery(unsafeSQL: sql, binds: binds))
        return PostgresRows(Array(result.rows))
    }

    /// Runs `sql` through a server-side cursor (inside the open transaction) and reads its rows
    /// ``cursorBatch`` at a time; the cursor is closed after its last row.
    func cursor(_ sql: String, _ arguments: [LedgerArgument] = []) throws -> PostgresRows {
        cursors += 1
        let name = "ezreport_\(cursors)"
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .integer(let v): binds.append(v)
            case .text(let t): binds.append(t)
            }
        }
        _ = try wait(for: PostgresQuery(unsafeSQL: "DECLARE \(name) NO SCROLL CURSOR FOR " + sql, binds: binds))
        var open = true
        return PostgresRows(cursor: { [self] in
            guard open else { return [] }
            let batch = Array(try wait(for: PostgresQuery(unsafeSQL: "FETCH \(Self.cursorBatch) FROM \(name)")).rows)
            if batch.count < Self.cursorBatch {
                open = false
                _ = try wait(for: PostgresQuery(unsafeSQL: "CLOSE \(name)"))
            }
            return batch
        })
    }

    /// Rows per `FETCH` of a cursor.
    static let cursorBatch = 2000
    /// Cursors declared on this session (each gets a new name).
    private var cursors = 0

    /// Runs one statement that returns no rows we need (`BEGIN`, `COMMIT`, `SET …`).
    func execute(_ sql: String) throws {
        _ = try wait(for: PostgresQuery(unsafeSQL: sql))
    }

    /// Runs `sql` with binds given as PostgresNIO values (for the sample writer's multi-row inserts).
    func execute(_ sql: String, binds: PostgresBindings) throws {
        _ = try wait(for: PostgresQuery(unsafeSQL: sql, binds: binds))
    }

    /// Sends `query` and waits for all its rows on the calling thread. A connection that the server
    /// (or the network) closed fails at once, and a query still unanswered once the connection is
    /// seen closed fails within a second: a server stopped mid-run must end the run, never hang it.
    /// A query unanswered for ``PostgresLocation/answerTimeoutSeconds`` closes the connection and
    /// fails with ``PostgresFailure/NoAnswer``.
    private func wait(for query: PostgresQuery) throws -> PostgresQueryResult {
        guard !connection.isClosed else { throw PostgresFailure.Lost() }
        let future = connection.query(query, logger: logger)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<PostgresQueryResult, any Error>?>(nil)
        future.whenComplete { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        let deadline = DispatchTime.now() + .seconds(location.answerTimeoutSeconds)
        while done.wait(timeout: min(.now() + 1, deadline)) == .timedOut {
            if connection.isClosed {
                // Give PostgresNIO a last moment to report the failure itself.
                if done.wait(timeout: .now() + 1) == .timedOut { throw PostgresFailure.Lost() }
                break
            }
            if DispatchTime.now() >= deadline {
                // Closing is local (no answer from the server needed); the query's future then fails.
                connection.close().whenComplete { _ in }
                throw PostgresFailure.NoAnswer(seconds: location.answerTimeoutSeconds)
            }
        }
        return try outcome.withLock { $0! }.get()
    }
}
