import EZCore
import Foundation
import GRDB
import GRDBSQLite

/// A ledger database opened read-only, checked against the contract.
///
/// The connection is read-only and `PRAGMA query_only` is set, so no statement can change the
/// file; a locked database is waited for (``defaultBusyTimeout`` seconds unless told otherwise)
/// and then reported as ``LedgerError/busy(path:seconds:)``.
/// Each report's reads run inside one read transaction (``read(_:)``), so a report sees one
/// consistent snapshot while the app goes on writing.
///
/// ```swift
/// let ledger = try Ledger(path: "samples/ledger.sqlite")
/// let alice = try ledger.loadUser(id: 1, through: CivilDate(year: 2026, month: 10, day: 31))
/// ```
package final class Ledger: LedgerBackend {
    /// The path as given.
    package let path: String
    /// Exchange rates as last read (at open, or when the app changed them since: ``LiveRates``),
    /// quarantined rate rows excluded.
    package var rates: RateTable { liveRates.table }
    /// Rate rows that break the contract (as last read).
    package var quarantinedRates: [QuarantinedRow] { liveRates.quarantined }
    private let liveRates: LiveRates
    /// The optional additions to the contract this ledger has (detected at open).
    package let features: LedgerFeatures
    /// SQLite's `schema_version` when ``features`` were detected: any `ALTER TABLE`, `CREATE` or
    /// `DROP` since changes it (``schemaChangedSinceOpen()``).
    private let schemaVersion: Int
    /// Seconds a locked database is waited for before giving up, unless the caller says otherwise.
    package static let defaultBusyTimeout: Double = 10
    /// Seconds this ledger waits for a lock.
    package let busyTimeout: Double

    let queue: DatabaseQueue
    /// The database file opened (``path`` unless this reads a snapshot copy of it).
    private let file: String

    /// Opens `path` read-only and checks it against the ledger contract.
    ///
    /// - Throws: ``LedgerError`` naming the file and what is wrong with it.
    package convenience init(path: String, busyTimeout: Double = Ledger.defaultBusyTimeout) throws(LedgerError) {
        try self.init(opening: path, reportingAs: path, busyTimeout: busyTimeout)
    }

    /// Opens the database file at `file` read-only, but names `path` in every error and in
    /// ``path``: a run reading a snapshot copy (``LedgerSnapshot``) reports the ledger it copied.
    init(opening file: String, reportingAs path: String, busyTimeout: Double) throws(LedgerError) {
        self.path = path
        self.file = file
        self.busyTimeout = busyTimeout
        try Ledger.checkFile(file, reportingAs: path)
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "ledger"
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: file, configuration: config)
        } catch {
            throw Ledger.classify(error, path: path, busyTimeout: busyTimeout)
        }
        self.queue = queue
        do {
            let (rates, features, schemaVersion) = try queue.read { db throws -> (LiveRates, LedgerFeatures, Int) in
                try Ledger.checkSchema(db, path: path)
                let schemaVersion = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
                let reader = SQLiteReading(db)
                defer { reader.finish() }
                let version = try LiveRates.dataVersion(reader)
                let (rates, bad) = try loadExchangeRates(reader)
                return (LiveRates(table: rates, quarantined: bad, version: version), try LedgerFeatures.detect(reader), schemaVersion)
            }
            self.liveRates = rates
            self.features = features
            self.schemaVersion = schemaVersion
        } catch let error as LedgerError {
            throw error
        } catch {
            throw Ledger.classify(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Whether the ledger's schema changed since it was opened (the app added an optional column
    /// or table in place, `ALTER TABLE … ADD COLUMN month_start_day`): ``features`` and the
    /// contract check may then be out of date, and a long-lived reader (`serve`) opens the ledger
    /// again. (It went on ignoring a `month_start_day` and a `group_payments` the app added
    /// until it was restarted, its figures no longer those of `export`: outside live-ledger test.)
    /// False when the question cannot be answered at once: the read that follows waits for a
    /// writer's lock itself (this asks without waiting, so that a locked ledger's request waits
    /// the busy timeout once, not twice) and reports why it failed.
    package func schemaChangedSinceOpen() -> Bool {
        let busyMilliseconds = Int32(busyTimeout * 1000)
        let now = try? queue.inDatabase { db -> Int? in
            sqlite3_busy_timeout(db.sqliteConnection, 0)
            defer { sqlite3_busy_timeout(db.sqliteConnection, busyMilliseconds) }
            return try Int.fetchOne(db, sql: "PRAGMA schema_version")
        }
        return now.map { $0 != schemaVersion } ?? false
    }

    /// The checks SQLite would answer unclearly (or never: opening a FIFO waits for a writer):
    /// a missing file, a directory, anything but a regular file, no permission, an empty file,
    /// a file that does not start with SQLite's header. Cheap: it reads 16 bytes, before anything
    /// reads (or hashes) the whole file.
    package static func checkFile(_ file: String, reportingAs path: String) throws(LedgerError) {
        var info = stat()
        guard stat(file, &info) == 0 else {
            throw .cannotOpen(path: path, reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .cannotOpen(path: path, reason: "it is a directory")
        default: throw .cannotOpen(path: path, reason: "not a regular file")
        }
        guard access(file, R_OK) == 0 else { throw .cannotOpen(path: path, reason: "permission denied") }
        guard info.st_size > 0 else { throw .notADatabase(path: path, reason: "the file is empty") }
        // Through the kept descriptor: closing one of our own on the ledger would drop SQLite's
        // POSIX lock on it (see LedgerFileDescriptors).
        let header: [UInt8]
        do { header = try LedgerFileDescriptors.prefix(file, count: 16) } catch {
            throw (error as? LedgerError) ?? .cannotOpen(path: path, reason: "\(error)")
        }
        guard header == Array("SQLite format 3\0".utf8) else {
            throw .notADatabase(path: path, reason: "file is not a database (it does not start with SQLite's header)")
        }
    }

    /// Runs `body` inside one read transaction: every read in it sees the same snapshot.
    package func read<T>(_ body: (Database) throws -> T) throws(LedgerError) -> T {
        do {
            return try queue.read(body)
        } catch let error as LedgerError {
            throw error
        } catch {
            throw Ledger.classify(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Maps SQLite and GRDB errors to a ``LedgerError`` with the file's path and SQLite's result code.
    static func classify(_ error: any Error, path: String, busyTimeout: Double) -> LedgerError {
        if let db = error as? DatabaseError {
            let code = db.extendedResultCode.rawValue
            if db.extendedResultCode == .SQLITE_READONLY_ROLLBACK
                || (db.resultCode == .SQLITE_READONLY && FileManager.default.fileExists(atPath: path + "-journal")) {
                return .unfinishedWrite(path: path, sqliteCode: code)
            }
            if [.SQLITE_CANTOPEN, .SQLITE_READONLY].contains(db.resultCode), Self.isWALWithoutSideFiles(path) {
                return .cannotOpen(path: path, reason: walWithoutSideFiles, sqliteCode: code)
            }
            switch db.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return .notADatabase(path: path, reason: said(db) ?? "file is not a database", sqliteCode: code)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .busy(path: path, seconds: busyTimeout, sqliteCode: code)
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
                return .cannotOpen(path: path, reason: said(db) ?? "unable to open", sqliteCode: code)
            default:
                return .readFailed(path: path, reason: said(db) ?? "\(db.resultCode)", sqliteCode: code)
            }
        }
        return .readFailed(path: path, reason: "\(error)")
    }

    /// What SQLite said about `error`, or its result code's own text when the connection's message
    /// is the stale "not an error" (a file truncated while it was read: the failing step's code came
    /// with the last successful call's message). Nil when SQLite said nothing.
    static func said(_ error: DatabaseError) -> String? {
        guard let message = error.message else { return nil }
        return message == "not an error" ? String(cString: sqlite3_errstr(error.extendedResultCode.rawValue)) : message
    }

    /// Whether `path` is a WAL-mode database (header bytes 18–19 both 2) whose `-shm` file does
    /// not exist: a reader then has to create it, which a read-only folder does not allow.
    static func isWALWithoutSideFiles(_ path: String) -> Bool {
        guard !FileManager.default.fileExists(atPath: path + "-shm"),
              let header = try? LedgerFileDescriptors.prefix(path, count: 20), header.count == 20 else { return false }
        return header[18] == 2 && header[19] == 2
    }

    /// Why a WAL ledger without its side files cannot be read here, and what to do.
    static let walWithoutSideFiles = "it is in WAL mode and its -shm file does not exist, so SQLite must create one next to it, "
        + "which this user may not (a read-only folder); give a copy in rollback-journal mode "
        + "(sqlite3 ledger.sqlite \".backup copy.sqlite\" && sqlite3 copy.sqlite \"PRAGMA journal_mode=DELETE\"), "
        + "or let this user create files in the ledger's folder"

    // MARK: - Schema

    static func checkSchema(_ db: Database, path: String) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard version == LedgerContract.userVersion else {
            throw LedgerError.schemaMismatch(
                path: path, problem: "PRAGMA user_version is \(version), expected \(LedgerContract.userVersion)")
        }
        for (table, columns) in LedgerContract.tables {
            let present = try Set(Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                .map { $0[0] as String })
            guard !present.isEmpty else {
                throw LedgerError.schemaMismatch(path: path, problem: "table '\(table)' is missing")
            }
            let missing = columns.filter { !present.contains($0) }
            guard missing.isEmpty else {
                throw LedgerError.schemaMismatch(
                    path: path, problem: "table '\(table)' lacks column\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", "))")
            }
        }
        for (table, columns) in LedgerContract.keys {
            guard try isKey(columns, of: table, in: db) else {
                let names = columns.count == 1 ? "\(table).\(columns[0]) is" : "(\(columns.joined(separator: ", "))) of \(table) are"
                throw LedgerError.schemaMismatch(
                    path: path, problem: "\(names) not declared PRIMARY KEY or UNIQUE, as the contract requires (a repeated key would count its rows twice)")
            }
            if let (column, type) = try nonIntegerIdColumn(columns, of: table, in: db) {
                throw LedgerError.schemaMismatch(
                    path: path, problem: "\(table).\(column) is declared \(type.isEmpty ? "with no type" : type), not INTEGER, as the contract requires "
                        + "(a key kept as text is unique as text: '5' and '05' would be one id read twice)")
            }
        }
        // An optional table may be absent, but when present it has every column.
        for (table, columns) in LedgerContract.optionalTables {
            let present = try Set(Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                .map { $0[0] as String })
            let missing = columns.filter { !present.contains($0) }
            guard present.isEmpty || missing.isEmpty else {
                throw LedgerError.schemaMismatch(
                    path: path, problem: "table '\(table)' lacks column\(missing.count > 1 ? "s" : "") \(missing.joined(separator: ", "))")
            }
        }
    }

    /// Whether `columns` are `table`'s primary key or a unique index's columns (in any order);
    /// true for a table the ledger does not have (an optional table, checked elsewhere).
    static func isKey(_ columns: [String], of table: String, in db: Database) throws -> Bool {
        let info = try Row.fetchAll(db, sql: "SELECT name, pk FROM pragma_table_info(?)", arguments: [table])
        guard !info.isEmpty else { return true }
        let wanted = Set(columns)
        let primary = Set(info.filter { ($0[1] as Int) > 0 }.map { $0[0] as String })
        if primary == wanted { return true }
        // A partial index (`… WHERE kind = 'expense'`) leaves the other rows free to repeat the key.
        for index in try Row.fetchAll(db, sql: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 0",
                                      arguments: [table]) {
            let name: String = index[0]
            let indexed = try Set(String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name]))
            if indexed == wanted { return true }
        }
        return false
    }

    /// The first of a key's id columns (`id`, `…_id`) whose declared type does not give it
    /// SQLite's INTEGER affinity (a type name containing "INT"), with that type. Such a column
    /// keeps `'05'` as text beside `5`, so its unique index lets both in, and the engine, reading
    /// ids as integers, would see one id twice. With INTEGER affinity SQLite stores both as 5.
    static func nonIntegerIdColumn(_ columns: [String], of table: String,
                                   in db: Database) throws -> (column: String, type: String)? {
        let types = try Dictionary(Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [table])
            .map { ($0[0] as String, $0[1] as String) }, uniquingKeysWith: { first, _ in first })
        for column in columns where column == "id" || column.hasSuffix("_id") {
            guard let type = types[column] else { continue }
            if !type.uppercased().contains("INT") { return (column, type) }
        }
        return nil
    }

    // MARK: - LedgerBackend

    /// Runs `body` inside one read transaction, through the rules' SQLite reader.
    package func withReader<T>(_ body: (SQLiteReading) throws -> T) throws(LedgerError) -> T {
        try read { db in
            let reader = SQLiteReading(db)
            defer { reader.finish() }
            return try body(reader)
        }
    }

    /// The rates of `reader`'s snapshot: the app may have changed them since the file was opened.
    package func rates(in reader: SQLiteReading) throws -> RateTable {
        try liveRates.rates(in: reader)
    }

    /// SQLite's and GRDB's errors, as ``LedgerError``s naming the file (nil for any other error).
    package func classify(_ error: any Error) -> LedgerError? {
        if let error = error as? LedgerError { return error }
        guard error is DatabaseError else { return nil }
        return Ledger.classify(error, path: path, busyTimeout: busyTimeout)
    }

    ///
    /// On a connection of its own, opened for the check and closed after it: a check kept waiting
    /// by a writer's lock (up to ``busyTimeout``) held this ledger's one connection, and every
    /// request queued behind it (a request after a `/readyz` probe that timed out took 15 s, not
    /// the busy timeout's 10: outside live-ledger test).
    package func checkReadable() throws(LedgerError) {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(busyTimeout)
        config.label = "ledger check"
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        do {
            let check = try DatabaseQueue(path: file, configuration: config)
            defer { try? check.close() }
            try check.read { db in try Ledger.checkSchema(db, path: path) }
        } catch let error as LedgerError {
            throw error
        } catch {
            throw Ledger.classify(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Copies the ledger into one private file at `scratch` (``LedgerSnapshot``) and opens
    /// `connections` read-only connections to it; the copy is unlinked once they are open.
    package func snapshot(connections: Int, scratch: String) throws(LedgerError) -> LedgerSnapshotReaders {
        let snapshot = try LedgerSnapshot.take(of: self, into: scratch)
        var opened: [any LedgerStore] = []
        for _ in 0..<max(1, connections) { opened.append(try snapshot.open()) }
        snapshot.release()   // open connections keep the copy; the kernel frees it when they close
        return LedgerSnapshotReaders(connections: opened, identity: .sha256(snapshot.sha256), seconds: snapshot.copySeconds)
    }
}
