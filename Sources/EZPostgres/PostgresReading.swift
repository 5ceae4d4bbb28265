import EZLedger

/// A read transaction on a PostgreSQL ledger: the contract's queries in their PostgreSQL text
/// (``EZLedger/LedgerQuery/postgres``), run on one session inside one `REPEATABLE READ READ ONLY`
/// transaction, so every query sees the same snapshot.
package struct PostgresReading: LedgerReading {
    let session: PostgresSession

    package func rows(_ query: LedgerQuery, _ arguments: [LedgerArgument]) throws -> PostgresRows {
        query.readsWholeTable ? try session.cursor(query.postgres, arguments) : try session.rows(query.postgres, arguments)
    }

    /// Whether the optional `table.column` exists. One that exists but that the role may not read
    /// is an error, not an absence: reading it as absent would change the figures without a word
    /// (payday months read as calendar months).
    package func hasColumn(_ table: String, _ column: String) throws -> Bool {
        let catalog = try PostgresCatalog.read(session)
        guard let found = catalog.columns[table]?[column] else { return false }
        guard found.readable else { throw PostgresCatalog.unreadable("column \(table).\(column)", location: session.location) }
        return true
    }

    /// Whether the optional `table` exists; one that exists but that the role may not read (every
    /// column of it) is an error, not an absence: a ledger's settle-up payments would be left out
    /// of every amount owed.
    package func hasTable(_ table: String) throws -> Bool {
        let catalog = try PostgresCatalog.read(session)
        guard let columns = catalog.columns[table] else { return false }
        if let column = columns.keys.sorted().first(where: { columns[$0]?.readable == false }) {
            throw PostgresCatalog.unreadable("table \(table) (column \(column))", location: session.location)
        }
        return true
    }

    package func count(_ table: String) throws -> Int {
        precondition(LedgerContract.isContractTable(table), "not a contract table: \(table)")
        let rows = try session.rows("SELECT count(*) FROM \(table)")
        return try rows.next() ? Int(rows.int64(0)) : 0
    }
}

/// The tables and columns of the session's current schema, read from `pg_catalog`, with each
/// column's type and whether the role may read it. (`information_schema` shows only what the role
/// may use, so a table it may not read looked exactly like one that does not exist.)
struct PostgresCatalog {
    /// One column: whether the role has `SELECT` on it (by a table or a column grant), and its type
    /// as PostgreSQL names it (`bigint`, `timestamp with time zone`, …).
    struct Column {
        var readable: Bool
        var type: String
    }

    /// Table → column → what the catalog says of it.
    var columns: [String: [String: Column]] = [:]
    /// The tables that are tables (`r`, `p`): views and foreign tables cannot declare keys.
    var plainTables: Set<String> = []
    /// Table → the column sets of its unique indexes (its primary key among them).
    var uniqueKeys: [String: [Set<String>]] = [:]

    static func read(_ session: PostgresSession) throws -> PostgresCatalog {
        var catalog = PostgresCatalog()
        let rows = try session.rows("""
            SELECT c.relname::text, a.attname::text, has_column_privilege(c.oid, a.attnum, 'SELECT'),
                   format_type(a.atttypid, NULL), c.relkind::text
            FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
            WHERE c.relnamespace = to_regnamespace(current_schema())
              AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped
            """)
        while try rows.next() {
            let table = rows.string(0) ?? ""
            catalog.columns[table, default: [:]][rows.string(1) ?? ""] =
                Column(readable: rows.int64(2) != 0, type: rows.string(3) ?? "")
            if ["r", "p"].contains(rows.string(4) ?? "") { catalog.plainTables.insert(table) }
        }
        let keys = try session.rows("""
            SELECT c.relname::text, i.indexrelid::bigint, a.attname::text
            FROM pg_catalog.pg_index i
            JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
            JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)
            WHERE c.relnamespace = to_regnamespace(current_schema()) AND i.indisunique AND i.indpred IS NULL
            ORDER BY 1, 2
            """)
        var byIndex: [Int64: (table: String, columns: Set<String>)] = [:]
        while try keys.next() {
            byIndex[keys.int64(1), default: (keys.string(0) ?? "", [])].columns.insert(keys.string(2) ?? "")
        }
        for (_, index) in byIndex.sorted(by: { $0.key < $1.key }) { catalog.uniqueKeys[index.table, default: []].append(index.columns) }
        return catalog
    }

    /// Whether `columns` are a key of `table` (a primary key or a unique index, in any order);
    /// true for a view or a foreign table, which cannot declare one, and for a table not there.
    func isKey(_ columns: [String], of table: String) -> Bool {
        guard plainTables.contains(table) else { return true }
        return uniqueKeys[table]?.contains(Set(columns)) ?? false
    }

    /// The error for a contract table or column the role may not read.
    static func unreadable(_ what: String, location: PostgresLocation) -> LedgerError {
        .cannotOpen(path: location.url, reason: "the role may not read \(what): grant it SELECT (see docs/ledger-schema.md, \"A role that can only read\")")
    }
}
