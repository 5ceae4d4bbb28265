import EZLedger

/// A read transaction on a PostgreSQL ledger: the contract's queries in their PostgreSQL text
/// (``EZLedger/LedgerQuery/postgres``), run on one session inside one `REPEATABLE READ READ ONLY`
/// transaction, so every query sees the same snapshot.
package struct PostgresReading: LedgerReading {
    let session: PostgresSession

    package func rows(_ query: LedgerQuery, _ arguments: [LedgerArgument]) throws -> PostgresRows {
        query.readsWholeTable ? try session.cursor(query.postgres, arguments) : try session.rows(query.postgres, arguments)
    }

    package func hasColumn(_ table: String, _ column: String) throws -> Bool {
        try session.rows("""
            SELECT 1 FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2
            """, [.text(table), .text(column)]).next()
    }

    package func hasTable(_ table: String) throws -> Bool {
        try session.rows("""
            SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1
            """, [.text(table)]).next()
    }

    package func count(_ table: String) throws -> Int {
        precondition(LedgerContract.isContractTable(table), "not a contract table: \(table)")
        let rows = try session.rows("SELECT count(*) FROM \(table)")
        return try rows.next() ? Int(rows.int64(0)) : 0
    }
}
