import EZCore
import EZLedger
import Foundation
import PostgresNIO
import Synchronization

/// A ledger in PostgreSQL, read-only and consistent, through the same rules as a SQLite ledger.
///
/// Every session is read-only (`default_transaction_read_only = on`); every read runs in one
/// `REPEATABLE READ READ ONLY` transaction, so a report never sees half of a transfer the app is
/// writing. A ledger is either *free* — each ``withReader(_:)`` opens its own transaction on an
/// idle session of a small pool (`serve`'s requests, `export`, `check`) — or *pinned* to one
/// snapshot that a run's readers share (``snapshot(connections:scratch:)``: the first exports its
/// snapshot with `pg_export_snapshot()`, the others import it with `SET TRANSACTION SNAPSHOT`).
/// A role with `SELECT` on the contract's tables is all it needs (docs/ledger-schema.md).
///
/// ```swift
/// let ledger = try PostgresLedger(location: PostgresLocation(url: "postgres://report@127.0.0.1:5432/wallet", password: nil))
/// let alice = try ledger.loadUser(id: 1, through: CivilDate(year: 2026, month: 10, day: 31))
/// ```
package final class PostgresLedger: LedgerBackend {
    /// The URL as given (it holds no password).
    package var path: String { location.url }
    package let location: PostgresLocation
    /// Exchange rates as last read (at open, or when the app changed them since: ``LiveRates``).
    package var rates: RateTable { liveRates.table }
    package var quarantinedRates: [QuarantinedRow] { liveRates.quarantined }
    private let liveRates: LiveRates
    package let features: LedgerFeatures
    /// The WAL position of the pinned snapshot (nil for a free ledger).
    package let snapshotLSN: String?

    /// Idle sessions of a free ledger (at most ``poolSize`` kept).
    private let idle: Mutex<[PostgresSession]>
    /// The session that holds the pinned snapshot's transaction, used by one worker at a time.
    private let pinned: PostgresSession?
    private let pinnedLock = Mutex(())
    private static let poolSize = 8

    /// Connects, checks the tables against the ledger contract and loads the exchange rates.
    ///
    /// - Throws: ``LedgerError`` naming the URL (without password) and the reason in one line.
    package convenience init(location: PostgresLocation) throws(LedgerError) {
        let session = try PostgresSession(location)
        let (rates, features) = try Self.inTransaction(session, location: location) { reading in
            try Self.checkSchema(reading, location: location)
            let version = try LiveRates.dataVersion(reading)
            let (rates, bad) = try loadExchangeRates(reading)
            return (LiveRates(table: rates, quarantined: bad, version: version), try LedgerFeatures.detect(reading))
        }
        self.init(location: location, rates: rates, features: features, idle: [session], pinned: nil, lsn: nil)
    }

    private init(location: PostgresLocation, rates: LiveRates, features: LedgerFeatures,
                 idle: [PostgresSession], pinned: PostgresSession?, lsn: String?) {
        self.location = location
        self.liveRates = rates
        self.features = features
        self.idle = Mutex(idle)
        self.pinned = pinned
        self.snapshotLSN = lsn
    }

    // MARK: - Reading

    /// The rates of `reader`'s snapshot: a pinned snapshot's never change; a free ledger's follow
    /// what the app writes (``LiveRates``).
    package func rates(in reader: PostgresReading) throws -> RateTable {
        pinned == nil ? try liveRates.rates(in: reader) : liveRates.table
    }

    package func withReader<T>(_ body: (PostgresReading) throws -> T) throws(LedgerError) -> T {
        if let pinned {
            do {
                return try pinnedLock.withLock { _ in try body(PostgresReading(session: pinned)) }
            } catch {
                throw Self.classify(error, location: location)
            }
        }
        // A session whose transaction failed may be broken: it is dropped, and a new one opened next time.
        let session: PostgresSession
        // An idle session the server has closed (`idle_session_timeout`, a terminated backend) is
        // dropped, not used: every request after an idle spell answered 503 (outside PostgreSQL test).
        if let reused = idle.withLock({ sessions in
            while let last = sessions.popLast() { if !last.connection.isClosed { return last } }
            return nil
        }) { session = reused } else { session = try PostgresSession(location) }
        let value = try Self.inTransaction(session, location: location, body)
        idle.withLock { if $0.count < Self.poolSize { $0.append(session) } }
        return value
    }

    /// Runs `body` in one `REPEATABLE READ READ ONLY` transaction on `session`.
    private static func inTransaction<T>(_ session: PostgresSession, location: PostgresLocation,
                                         _ body: (PostgresReading) throws -> T) throws(LedgerError) -> T {
        do {
            try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            let value: T
            do {
                value = try body(PostgresReading(session: session))
            } catch {
                try? session.execute("ROLLBACK")
                throw error
            }
            try session.execute("COMMIT")
            return value
        } catch {
            throw classify(error, location: location)
        }
    }

    package func checkReadable() throws(LedgerError) {
        let location = self.location
        try withReader { reading in try Self.checkSchema(reading, location: location) }
    }

    /// Opens `connections` sessions on one snapshot: the first exports it, the others import it.
    /// Each comes back as a pinned ledger whose reads all see that snapshot (`scratch` is unused:
    /// nothing is copied).
    package func snapshot(connections: Int, scratch: String) throws(LedgerError) -> LedgerSnapshotReaders {
        let started = Date()
        let location = self.location
        let first = try PostgresSession(location)
        let id: String, lsn: String
        do {
            try first.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // The snapshot is taken by this transaction's first statement; the WAL position is read in it.
            let rows = try first.rows("""
                SELECT pg_export_snapshot(),
                       (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END)::text
                """)
            guard try rows.next(), let exported = rows.string(0), let position = rows.string(1) else {
                throw LedgerError.readFailed(path: location.url, reason: "the server exported no snapshot")
            }
            id = exported; lsn = position
        } catch {
            throw Self.classify(error, location: location)
        }
        // SET TRANSACTION SNAPSHOT takes no parameter: the id is the server's own, checked to be
        // nothing but hex digits and dashes before it is placed in the statement.
        guard !id.isEmpty, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw .readFailed(path: location.url, reason: "the server exported an unexpected snapshot id")
        }
        var sessions = [first]
        for _ in 1..<max(1, connections) {
            let session = try PostgresSession(location)
            do {
                try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try session.execute("SET TRANSACTION SNAPSHOT '\(id)'")
            } catch {
                throw Self.classify(error, location: location)
            }
            sessions.append(session)
        }
        var readers: [any LedgerStore] = []
        for session in sessions {
            let (rates, bad): (RateTable, [QuarantinedRow])
            do { (rates, bad) = try loadExchangeRates(PostgresReading(session: session)) } catch {
                throw Self.classify(error, location: location)
            }
            readers.append(PostgresLedger(location: location, rates: LiveRates(table: rates, quarantined: bad, version: nil), features: features, idle: [],
                                          pinned: session, lsn: lsn))
        }
        return LedgerSnapshotReaders(connections: readers, identity: .walLSN(lsn), seconds: Date().timeIntervalSince(started))
    }

    // MARK: - Schema and errors

    /// Every contract table and column must be there (in the session's current schema), and the
    /// role must be allowed to read every one the engine reads (all but `users.password_hash`).
    static func checkSchema(_ reading: PostgresReading, location: PostgresLocation) throws {
        let catalog = try PostgresCatalog.read(reading.session)
        var unreadable: [String] = []
        // An optional table, when present, must have every column, as a required one: otherwise
        // its first query fails in the middle of a run (every user failing) instead of at open.
        let present = LedgerContract.optionalTables.filter { catalog.columns[$0.name] != nil }
        for (table, columns) in LedgerContract.tables + present {
            var wanted = columns
            // An instant-or-date column of the SQLite contract is two typed columns here.
            wanted += PostgresSchema.dateTwins[table] ?? []
            guard let have = catalog.columns[table] else {
                throw LedgerError.schemaMismatch(path: location.url, problem: "table '\(table)' is missing")
            }
            let missing = wanted.filter { have[$0] == nil }
            guard missing.isEmpty else {
                throw LedgerError.schemaMismatch(
                    path: location.url, problem: "table '\(table)' lacks column\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", "))")
            }
            // An optional table's privileges are checked where it is read (``PostgresReading/hasTable(_:)``
            // names the table): here only that its columns are all there.
            guard LedgerContract.tables.contains(where: { $0.name == table }) else { continue }
            unreadable += wanted.filter { have[$0]?.readable == false && !unreadColumns.contains("\(table).\($0)") }.map { "\(table).\($0)" }
        }
        // Types: a column of another type is read wrongly (numeric amounts are not integers, a
        // timestamp without time zone shifts by the session's zone), so it is refused by name.
        for (table, columns) in PostgresLedgerLoader.tables {
            for (column, kind) in columns where !unreadColumns.contains("\(table).\(column)") {
                guard let expected = kind.postgresTypes else { continue }
                // An instant-or-date column is two here: `…_at` an instant, `…_on` a date.
                let twin = kind == .occurred ? [(String(column.dropLast(3)) + "_on", ["date"])] : []
                for (name, expected) in [(column, expected)] + twin {
                    guard let found = catalog.columns[table]?[name], !expected.contains(found.type) else { continue }
                    throw LedgerError.schemaMismatch(
                        path: location.url,
                        problem: "column \(table).\(name) is \(found.type); the contract's type is \(expected[0])"
                            + (expected.count > 1 ? " (or \(expected.dropFirst().joined(separator: ", ")))" : "")
                            + " (see samples/schema.postgres.sql)")
                }
            }
        }
        for (table, columns) in LedgerContract.keys where !catalog.isKey(columns, of: table) {
            let names = columns.count == 1 ? "\(table).\(columns[0]) is" : "(\(columns.joined(separator: ", "))) of \(table) are"
            throw LedgerError.schemaMismatch(
                path: location.url,
                problem: "\(names) not declared PRIMARY KEY or UNIQUE, as the contract requires (a repeated key would count its rows twice)")
        }
        guard unreadable.isEmpty else {
            throw LedgerError.cannotOpen(path: location.url, reason: "the role may not read \(unreadable.prefix(3).joined(separator: ", "))"
                                         + (unreadable.count > 3 ? " and \(unreadable.count - 3) more column(s)" : "")
                                         + ": grant it SELECT (see docs/ledger-schema.md, \"A role that can only read\")")
        }
    }

    /// Contract columns the engine never reads: a role need not be allowed to read them.
    static let unreadColumns: Set<String> = ["users.password_hash"]

    /// PostgresNIO's, SwiftNIO's and the session's errors as ``LedgerError``s (nil for any other error).
    package func classify(_ error: any Error) -> LedgerError? {
        if let error = error as? LedgerError { return error }
        let ours = error is PSQLError || error is IOError || error is ChannelError || error is NIOConnectionError
            || error is PostgresFailure.Lost || error is PostgresFailure.NoAnswer || error is NIOSSLError
        return ours ? Self.classify(error, location: location) : nil
    }

    static func classify(_ error: any Error, location: PostgresLocation) -> LedgerError {
        if let error = error as? LedgerError { return error }
        if let e = error as? PSQLError, let state = e.serverInfo?[.sqlState] {
            switch state {
            case "42501": return .cannotOpen(path: location.url, reason: PostgresFailure.describe(error))   // no privilege
            case "42P01", "42703": return .schemaMismatch(path: location.url, problem: PostgresFailure.describe(error))
            // The server shut down, or cancelled the snapshot (a replica's recovery conflict, a
            // statement cancelled): nothing more can be read from it.
            case "57P01", "57P02", "57P03", "57014", "40001":
                return .cannotOpen(path: location.url, reason: PostgresFailure.describe(error))
            default: break
            }
        }
        // A lost connection is the ledger lost, not a failed query: a run stops on it (exit 1).
        if PostgresFailure.isConnectionLost(error) || error is NIOConnectionError {
            return .cannotOpen(path: location.url, reason: PostgresFailure.describe(error))
        }
        return .readFailed(path: location.url, reason: PostgresFailure.describe(error))
    }
}
