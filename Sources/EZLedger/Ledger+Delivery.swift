import EZCore
import GRDB

// MARK: - Who may receive a statement by e-mail

/// What `ezreport deliver` needs to know about a user: where to write, in which language and
/// formats, and whether they want statements by e-mail at all.
package struct DeliveryContact: Hashable, Sendable {
    /// Whether the user wants their statement by e-mail (`users.statement_email`).
    package enum StatementEmail: Hashable, Sendable {
        /// 1, NULL, or an older ledger without the column.
        case wanted
        /// 0: the user opted out.
        case optedOut
        /// Anything else: the row breaks the contract (the reason names the value).
        case invalid(String)
    }

    package var id: Int64
    package var username: String
    /// `users.email` as stored: untrusted text, validated by the caller before it becomes a header.
    package var email: String
    /// POSIX locale such as `it_IT`, for number and date formats.
    package var locale: String
    package var deleted: Bool
    package var statementEmail: StatementEmail
}

extension Ledger {
    /// Every user's delivery contact, by id, deleted ones flagged. Works with ledgers that
    /// predate the optional `users.statement_email` column (everyone wants their statement then).
    package func deliveryContacts() throws(LedgerError) -> [DeliveryContact] {
        try read { db in
            let optIn = try Self.hasStatementEmailColumn(db)
                ? "statement_email, typeof(statement_email)" : "NULL, 'null'"
            return try Row.fetchAll(db, sql: """
                SELECT id, username, email, locale, deleted_at IS NOT NULL, \(optIn) FROM users ORDER BY id
                """).map { row in
                DeliveryContact(id: row[0], username: row[1] ?? "", email: row[2] ?? "", locale: row[3] ?? "en_US",
                                deleted: row[4], statementEmail: RowValidator.statementEmail(row[5], type: row[6]))
            }
        }
    }

    /// Whether the ledger has the optional `users.statement_email` column (contract additions are optional).
    static func hasStatementEmailColumn(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_table_info('users') WHERE name = 'statement_email'") == 1
    }
}

extension RowValidator {
    /// `users.statement_email`: INTEGER 0 or 1, NULL meaning 1.
    static func statementEmail(_ value: DatabaseValue, type: String) -> DeliveryContact.StatementEmail {
        switch value.storage {
        case .null: return .wanted
        case .int64(1) where type == "integer": return .wanted
        case .int64(0) where type == "integer": return .optedOut
        case .int64(let v): return .invalid("statement_email must be 0 or 1 (got \(v))")
        case .double(let v): return .invalid("statement_email must be 0 or 1 (got \(v))")
        case .string(let s): return .invalid("statement_email must be 0 or 1 (got '\(s)')")
        case .blob: return .invalid("statement_email must be 0 or 1 (got a blob)")
        }
    }
}
