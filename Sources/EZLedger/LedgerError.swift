/// Why a ledger file cannot be used at all. Each prints as one line naming the file and the problem.
///
/// Row-level problems are not errors: such rows are quarantined (see ``QuarantinedRow``) and the
/// report goes on without them. Errors that come from SQLite keep its (extended) result code in
/// `sqliteCode`, so callers can classify them without parsing messages (``sqliteResultCode``).
package enum LedgerError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case cannotOpen(path: String, reason: String, sqliteCode: Int32? = nil)
    /// The file is not a SQLite database (or is truncated or corrupt).
    case notADatabase(path: String, reason: String, sqliteCode: Int32? = nil)
    /// The database does not follow the ledger contract (wrong user_version, missing table or column).
    case schemaMismatch(path: String, problem: String)
    /// The database stayed locked by another process longer than the busy timeout.
    case busy(path: String, seconds: Double, sqliteCode: Int32? = nil)
    /// A query failed while reading.
    case readFailed(path: String, reason: String, sqliteCode: Int32? = nil)
    /// The requested user does not exist (or was deleted).
    case unknownUser(path: String, user: String)
    /// The requested user's own row breaks the ledger contract (an unknown role, a time zone the
    /// system does not know…): no report can be made for them until the app fixes the row. Not a
    /// passing outage, so the server does not ask to retry.
    case quarantinedUser(path: String, user: Int64, reason: String)
    /// A writer died mid-transaction and left a hot rollback journal (`<path>-journal`): only a
    /// read-write connection (the app's) can roll it back, and the ledger is never opened so.
    case unfinishedWrite(path: String, sqliteCode: Int32? = nil)

    package var description: String {
        switch self {
        case .cannotOpen(let p, let r, _): return "cannot open ledger '\(p)': \(r)"
        case .notADatabase(let p, let r, _): return "'\(p)' is not a usable SQLite ledger: \(r)"
        case .schemaMismatch(let p, let problem): return "ledger '\(p)' does not match the ledger contract: \(problem)"
        case .busy(let p, let s, _):
            let seconds = s == s.rounded() ? String(Int(s)) : String(s)
            return "ledger '\(p)' stayed locked by another process for \(seconds) s; try again later"
        case .readFailed(let p, let r, _): return "reading ledger '\(p)' failed: \(r)"
        case .unknownUser(let p, let u): return "no user '\(u)' in ledger '\(p)'"
        case .quarantinedUser(let p, let u, let why): return "reading ledger '\(p)' failed: user \(u) is quarantined: \(why)"
        case .unfinishedWrite(let p, _):
            return "ledger '\(p)' has an unfinished write (a hot journal '\(p)-journal') that its app must recover first; "
                + "it was not read"
        }
    }

    /// SQLite's extended result code behind this error (e.g. 776, SQLITE_READONLY_ROLLBACK), when it came from SQLite.
    package var sqliteCode: Int32? {
        switch self {
        case .cannotOpen(_, _, let c), .notADatabase(_, _, let c), .readFailed(_, _, let c): return c
        case .busy(_, _, let c), .unfinishedWrite(_, let c): return c
        case .schemaMismatch, .unknownUser, .quarantinedUser: return nil
        }
    }

    /// SQLite's primary result code (e.g. 5, SQLITE_BUSY; 8, SQLITE_READONLY), when it came from SQLite.
    package var sqliteResultCode: Int32? { sqliteCode.map { $0 & 0xFF } }
}
