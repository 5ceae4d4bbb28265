import EZCore

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
    /// `users.created_at`, nil when it is not a contract timestamp: with the id and username it
    /// names the account (``Manifest/accountCreated(_:)``).
    package var createdAt: LedgerTime? = nil
}

extension RowValidator {
    /// `users.statement_email` in column `i`: INTEGER 0 or 1, NULL meaning 1 (a PostgreSQL
    /// `boolean` reads as 0 or 1).
    static func statementEmail<Rows: LedgerRows>(_ row: Rows, _ i: Int32) -> DeliveryContact.StatementEmail {
        switch row.type(i) {
        case .null: return .wanted
        case .integer:
            let v = row.int64(i)
            return v == 1 ? .wanted : v == 0 ? .optedOut : .invalid("statement_email must be 0 or 1 (got \(v))")
        case .real: return .invalid("statement_email must be 0 or 1 (got \(row.double(i)))")
        case .text: return .invalid("statement_email must be 0 or 1 (got '\(row.string(i) ?? "")')")
        case .blob: return .invalid("statement_email must be 0 or 1 (got a blob)")
        }
    }
}
