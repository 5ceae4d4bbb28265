import GRDB
import GRDBSQLite

/// One read transaction of a ledger, whichever database holds it: the contract's rules run
/// their ``LedgerQuery``s through it, so they are written once for every backend.
///
/// Every query run through one reader sees the same snapshot of the ledger.
package protocol LedgerReading {
    /// The backend's row cursor.
    associatedtype Rows: LedgerRows
    /// Runs `query` with `arguments` bound to its parameters, in order.
    func rows(_ query: LedgerQuery, _ arguments: [LedgerArgument]) throws -> Rows
    /// Whether `table` has `column` (for the contract's optional columns).
    func hasColumn(_ table: String, _ column: String) throws -> Bool
    /// Whether the ledger has `table` (for the contract's optional tables).
    func hasTable(_ table: String) throws -> Bool
    /// The number of rows in `table`, one of ``LedgerContract/tables`` or ``LedgerContract/optionalTables``.
    func count(_ table: String) throws -> Int
}

/// A read transaction of a SQLite ledger: each query through the connection's statement cache (a
/// user's load runs about a dozen queries, and preparing them anew each time cost more than
/// running them), its rows read in place by a ``RawRowCursor``.
///
/// A rule may stop reading a query after its first row; such a statement would keep SQLite's read
/// lock on the file after the transaction ends (keeping the app's writers out), so every statement
/// a reader ran is reset when its transaction's body returns (``finish()``).
package struct SQLiteReading: LedgerReading {
    let db: Database
    private let used = StatementsUsed()

    package init(_ db: Database) { self.db = db }

    package func rows(_ query: LedgerQuery, _ arguments: [LedgerArgument]) throws -> RawRowCursor {
        let values: [(any DatabaseValueConvertible)?] = arguments.map {
            switch $0 {
            case .integer(let v): return v
            case .text(let t): return t
            }
        }
        let statement = try db.cachedStatement(sql: query.sqlite)
        used.add(statement)
        return try RawRowCursor(statement, arguments: StatementArguments(values), in: db)
    }

    /// Resets every statement this reader ran, releasing what an unfinished one still holds.
    func finish() { used.resetAll() }

    package func hasColumn(_ table: String, _ column: String) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?", arguments: [table, column]) == 1
    }

    package func hasTable(_ table: String) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_table_info(?)", arguments: [table]) ?? 0 > 0
    }

    package func count(_ table: String) throws -> Int {
        precondition(LedgerContract.isContractTable(table), "not a contract table: \(table)")
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }
}

/// The statements one ``SQLiteReading`` ran (each once), to reset when its transaction ends.
private final class StatementsUsed {
    private var statements: [ObjectIdentifier: Statement] = [:]

    func add(_ statement: Statement) { statements[ObjectIdentifier(statement)] = statement }

    func resetAll() {
        for statement in statements.values { sqlite3_reset(statement.sqliteStatement) }
        statements.removeAll()
    }
}
