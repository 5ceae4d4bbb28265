/// Why a ledger file cannot be used at all. Each prints as one line naming the file and the problem.
///
/// Row-level problems are not errors: such rows are quarantined (see ``QuarantinedRow``) and the
/// report goes on without them.
package enum LedgerError: Error, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case cannotOpen(path: String, reason: String)
    /// The file is not a SQLite database (or is truncated or corrupt).
    case notADatabase(path: String, reason: String)
    /// The database does not follow the ledger contract (wrong user_version, missing table or column).
    case schemaMismatch(path: String, problem: String)
    /// The database stayed locked by another process longer than the busy timeout.
    case busy(path: String, seconds: Double)
    /// A query failed while reading.
    case readFailed(path: String, reason: String)
    /// The requested user does not exist (or was deleted).
    case unknownUser(path: String, user: String)

    package var description: String {
        switch self {
        case .cannotOpen(let p, let r): return "cannot open ledger '\(p)': \(r)"
        case .notADatabase(let p, let r): return "'\(p)' is not a usable SQLite ledger: \(r)"
        case .schemaMismatch(let p, let problem): return "ledger '\(p)' does not match the ledger contract: \(problem)"
        case .busy(let p, let s):
            let seconds = s == s.rounded() ? String(Int(s)) : String(s)
            return "ledger '\(p)' stayed locked by another process for \(seconds) s; try again later"
        case .readFailed(let p, let r): return "reading ledger '\(p)' failed: \(r)"
        case .unknownUser(let p, let u): return "no user '\(u)' in ledger '\(p)'"
        }
    }
}
