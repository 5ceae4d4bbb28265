import EZLedger
import Foundation
import GRDB
import PostgresNIO

/// Copies a SQLite ledger into an empty PostgreSQL database, schema included: how
/// `ezreport sample --out postgres://…` fills a server with exactly the rows of the sample file,
/// so that the two backends can be compared row for row.
///
/// The whole copy is one transaction (a reader sees all of it or nothing): the tables of
/// ``PostgresSchema/tablesSQL``, every row in rowid order through multi-row `INSERT`s whose values
/// are all bound parameters, then the indexes. Contract text becomes typed values on the way:
/// instants `timestamptz`, bare dates `date`, 0/1 flags `boolean`, and each instant-or-date value
/// (`occurred_at`, `joined_at`, `left_at`) goes to its `…_at` column or, for a bare date, its `…_on` twin.
package enum PostgresLedgerLoader {
    /// How a SQLite column's value is bound.
    enum Kind: Equatable {
        case integer, text, real, instant, date, flag, occurred

        /// The PostgreSQL types (as `format_type` names them) a ledger's column of this kind may
        /// have, the contract's first: others would be read wrongly (nil: any type, read as its text).
        var postgresTypes: [String]? {
            switch self {
            case .integer: return ["bigint", "integer", "smallint"]
            case .text: return nil
            // Not `real`: a float4 rate read as a double is not the decimal written (1.09178 reads
            // as 1.0917799472808838) and figures drift by a cent.
            case .real: return ["double precision", "numeric"]
            case .instant, .occurred: return ["timestamp with time zone"]
            case .date: return ["date"]
            case .flag: return ["boolean"]
            }
        }
    }

    /// Every table in insertion order (references first), with its columns as SQLite names them.
    static let tables: [(name: String, columns: [(String, Kind)])] = [
        ("users", [("id", .integer), ("username", .text), ("email", .text), ("password_hash", .text), ("role", .text),
                   ("currency", .text), ("timezone", .text), ("locale", .text), ("book_name", .text),
                   ("monthly_limit_minor", .integer), ("chart_style", .text), ("created_at", .instant),
                   ("deleted_at", .instant), ("statement_email", .flag), ("month_start_day", .integer)]),
        ("balances", [("id", .integer), ("user_id", .integer), ("name", .text), ("kind", .text), ("currency", .text),
                      ("opening_minor", .integer), ("created_at", .instant), ("deleted_at", .instant)]),
        ("categories", [("id", .integer), ("user_id", .integer), ("name", .text), ("color", .text), ("important", .flag),
                        ("position", .integer), ("deleted_at", .instant)]),
        ("groups", [("id", .integer), ("name", .text), ("owner_id", .integer), ("currency", .text), ("created_at", .instant),
                    ("deleted_at", .instant)]),
        ("transactions", [("id", .integer), ("user_id", .integer), ("balance_id", .integer), ("category_id", .integer),
                          ("group_id", .integer), ("kind", .text), ("to_balance_id", .integer), ("amount_minor", .integer),
                          ("currency", .text), ("occurred_at", .occurred), ("method", .text), ("description", .text),
                          ("recurrence_days", .integer), ("created_at", .instant), ("deleted_at", .instant)]),
        ("splits", [("transaction_id", .integer), ("user_id", .integer), ("share_minor", .integer)]),
        ("group_members", [("group_id", .integer), ("user_id", .integer), ("joined_at", .occurred), ("left_at", .occurred)]),
        ("group_payments", [("id", .integer), ("group_id", .integer), ("from_user_id", .integer), ("to_user_id", .integer),
                            ("from_balance_id", .integer), ("to_balance_id", .integer), ("amount_minor", .integer),
                            ("currency", .text), ("occurred_at", .occurred), ("created_at", .instant), ("deleted_at", .instant)]),
        ("families", [("id", .integer), ("name", .text), ("created_at", .instant)]),
        ("family_members", [("family_id", .integer), ("user_id", .integer), ("role", .text)]),
        ("budgets", [("id", .integer), ("user_id", .integer), ("category_id", .integer), ("period", .text),
                     ("amount_minor", .integer), ("currency", .text), ("starts_on", .date), ("ends_on", .date)]),
        ("budget_transfers", [("id", .integer), ("user_id", .integer), ("from_category_id", .integer),
                              ("to_category_id", .integer), ("amount_minor", .integer), ("period_start", .date),
                              ("created_at", .instant)]),
        ("savings_goals", [("id", .integer), ("user_id", .integer), ("name", .text), ("target_minor", .integer),
                           ("currency", .text), ("balance_id", .integer), ("due_on", .date)]),
        ("exchange_rates", [("day", .date), ("base", .text), ("quote", .text), ("rate", .real)]),
        ("logins", [("user_id", .integer), ("at", .instant)]),
    ]

    /// Why a copy failed.
    package struct LoadError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Copies every row of the SQLite ledger at `sqlitePath` into the empty database at `location`.
    ///
    /// - Returns: the number of rows copied.
    /// - Throws: ``LoadError`` (a database that already has a contract table, a value that does not
    ///   fit its typed column) or ``EZLedger/LedgerError`` for the connection.
    package static func load(sqlite sqlitePath: String, into location: PostgresLocation) throws -> Int {
        let session = try PostgresSession(location, readOnly: false)
        let existing = try session.rows("""
            SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1::text[])
            """, [.text("{" + tables.map(\.name).joined(separator: ",") + "}")])
        if try existing.next() {
            throw LoadError(description: "\(location.url) already has a '\(existing.string(0) ?? "")' table: "
                            + "sample fills only an empty database")
        }
        let source = try DatabaseQueue(path: sqlitePath, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var copied = 0
        do {
            try session.execute("BEGIN")
            for statement in PostgresSchema.tablesSQL.components(separatedBy: ";\n") where statement.contains("CREATE") {
                try session.execute(statement)
            }
            try source.read { db in
                for table in tables { copied += try copy(table.name, table.columns, from: db, to: session) }
            }
            for statement in PostgresSchema.indexesSQL.components(separatedBy: ";\n") where statement.contains("CREATE") {
                try session.execute(statement)
            }
            try session.execute("COMMIT")
        } catch let error as LoadError {
            try? session.execute("ROLLBACK")
            throw error
        } catch {
            try? session.execute("ROLLBACK")
            throw LoadError(description: "cannot fill \(location.url): \(PostgresFailure.describe(error))")
        }
        return copied
    }

    /// Copies one table in batches of rows, each one `INSERT … VALUES (…), (…)` with bound values.
    private static func copy(_ table: String, _ columns: [(String, Kind)], from db: Database, to session: PostgresSession) throws -> Int {
        let targets = columns.flatMap { $0.1 == .occurred ? [$0.0, String($0.0.dropLast(3)) + "_on"] : [$0.0] }
        let perRow = targets.count
        let batch = max(1, min(1000, 60_000 / perRow))
        let select = "SELECT " + columns.map(\.0).joined(separator: ", ") + " FROM \(table) ORDER BY rowid"
        let rows = try Row.fetchCursor(db, sql: select)
        var binds = PostgresBindings(capacity: batch * perRow)
        var tuples: [String] = []
        var count = 0
        func flush() throws {
            guard !tuples.isEmpty else { return }
            try session.execute("INSERT INTO \(table) (\(targets.joined(separator: ", "))) VALUES " + tuples.joined(separator: ", "),
                                binds: binds)
            binds = PostgresBindings(capacity: batch * perRow)
            tuples.removeAll(keepingCapacity: true)
        }
        while let row = try rows.next() {
            var marks: [String] = []
            for (i, (name, kind)) in columns.enumerated() {
                let value = row[i] as DatabaseValue
                func mark(_ cast: String) -> String { "$\(binds.count)::" + cast }
                switch (kind, value.storage) {
                case (.occurred, .null):
                    binds.appendNull(); marks.append(mark("timestamptz"))
                    binds.appendNull(); marks.append(mark("date"))
                case (_, .null):
                    binds.appendNull(); marks.append(mark(Self.cast(kind)))
                case (.instant, .string(let s)) where s.utf8.count == 10:
                    throw LoadError(description: "\(table).\(name) = '\(s)' (row \(count + 1)) is a bare date: "
                                    + "the PostgreSQL schema keeps bare dates only in the *_on columns")
                case (.integer, .int64(let v)), (.flag, .int64(let v)):
                    binds.append(v); marks.append(kind == .flag ? "(\(mark("bigint")) <> 0)" : mark("bigint"))
                case (.real, .double(let v)):
                    binds.append(v); marks.append(mark("float8"))
                case (.real, .int64(let v)):
                    binds.append(Double(v)); marks.append(mark("float8"))
                case (.text, .string(let s)), (.instant, .string(let s)), (.date, .string(let s)):
                    binds.append(s); marks.append(mark(Self.cast(kind)))
                case (.occurred, .string(let s)):
                    // A bare local date is occurred_on; anything else an instant.
                    if s.utf8.count == 10 {
                        binds.appendNull(); marks.append(mark("timestamptz"))
                        binds.append(s); marks.append(mark("date"))
                    } else {
                        binds.append(s); marks.append(mark("timestamptz"))
                        binds.appendNull(); marks.append(mark("date"))
                    }
                default:
                    throw LoadError(description: "\(table).\(name) = \(value) (row \(count + 1)) does not fit its PostgreSQL column")
                }
            }
            tuples.append("(" + marks.joined(separator: ", ") + ")")
            count += 1
            if tuples.count == batch { try flush() }
        }
        try flush()
        return count
    }

    private static func cast(_ kind: Kind) -> String {
        switch kind {
        case .integer: return "bigint"
        case .text: return "text"
        case .real: return "float8"
        case .instant, .occurred: return "timestamptz"
        case .date: return "date"
        case .flag: return "boolean"
        }
    }
}
