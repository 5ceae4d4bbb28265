import GRDB

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
    /// The number of rows in `table`, one of ``LedgerContract/tables``.
    func count(_ table: String) throws -> Int
}

/// A read transaction of a SQLite ledger: each query through the connection's statement cache (a
/// user's load runs about a dozen queries, and preparing them anew each time cost more than
/// running them), its rows read in place by a ``RawRowCursor``.
package struct SQLiteReading: LedgerReading {
    let db: Database

    package init(_ db: Database) { self.db = db }

    package func rows(_ query: LedgerQuery, _ arguments: [LedgerArgument]) throws -> RawRowCursor {
        let values: [(any DatabaseValueConvertible)?] = arguments.map {
            switch $0 {
            case .integer(let v): return v
            case .text(let t): return t
            }
        }
        return try RawRowCursor(db.cachedStatement(sql: query.sqlite), arguments: StatementArguments(values), in: db)
    }

    package func hasColumn(_ table: String, _ column: String) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?", arguments: [table, column]) == 1
    }

    package func count(_ table: String) throws -> Int {
        precondition(LedgerContract.tables.contains { $0.name == table }, "not a contract table: \(table)")
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0
    }
}
