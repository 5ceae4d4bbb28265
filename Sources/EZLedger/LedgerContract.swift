/// The tables and columns of the ledger contract, version 1 (docs/ledger-schema.md).
///
/// The schema check compares a database against this list at open, so that a ledger written by a
/// different app version fails with one clear line instead of a confusing query error later.
package enum LedgerContract {
    /// `PRAGMA user_version` of a contract-1 ledger.
    package static let userVersion = 1

    /// The largest amount a row may hold, in minor units, either sign: 10^13 (100 billion of a
    /// two-decimal currency). Sums of rows and conversions through exchange rates stay exact in
    /// 64-bit integers far beyond any person's ledger; a row past it (a corrupted or test value
    /// such as 2^63 - 1) is quarantined instead of making the user's whole statement fail.
    package static let maxAmountMinor: Int64 = 10_000_000_000_000

    /// Why `value` of `column` is past ``maxAmountMinor``, or nil when it is within it.
    package static func amountBeyondLimit(_ value: Int64, _ column: String) -> String? {
        guard value > maxAmountMinor || value < -maxAmountMinor else { return nil }
        return "\(column) \(value) is beyond the limit of ±\(maxAmountMinor) minor units"
    }

    /// Why a row whose `deleted_at` holds `text` is quarantined: text that cannot be a timestamp
    /// (it does not start like a date, as `''`, `0` or `'no'` do) says neither "deleted" nor
    /// "live". The row is left out and reported, never silently dropped as deleted
    /// (``LedgerQuery/notDeleted(_:)`` reads such rows; the users' rule is the same).
    package static func unparsedDeletion(_ text: String) -> String {
        "deleted_at '\(text)' is not an ISO-8601 timestamp"
    }

    /// Every table the engine reads and the columns it needs, in contract order.
    package static let tables: [(name: String, columns: [String])] = [
        ("users", ["id", "username", "email", "password_hash", "role", "currency", "timezone", "locale",
                   "book_name", "monthly_limit_minor", "chart_style", "created_at", "deleted_at"]),
        ("balances", ["id", "user_id", "name", "kind", "currency", "opening_minor", "created_at", "deleted_at"]),
        ("categories", ["id", "user_id", "name", "color", "important", "position", "deleted_at"]),
        ("transactions", ["id", "user_id", "balance_id", "category_id", "group_id", "kind", "to_balance_id",
                          "amount_minor", "currency", "occurred_at", "method", "description", "recurrence_days",
                          "created_at", "deleted_at"]),
        ("splits", ["transaction_id", "user_id", "share_minor"]),
        ("groups", ["id", "name", "owner_id", "currency", "created_at", "deleted_at"]),
        ("group_members", ["group_id", "user_id", "joined_at", "left_at"]),
        ("families", ["id", "name", "created_at"]),
        ("family_members", ["family_id", "user_id", "role"]),
        ("budgets", ["id", "user_id", "category_id", "period", "amount_minor", "currency", "starts_on", "ends_on"]),
        ("budget_transfers", ["id", "user_id", "from_category_id", "to_category_id", "amount_minor",
                              "period_start", "created_at"]),
        ("savings_goals", ["id", "user_id", "name", "target_minor", "currency", "balance_id", "due_on"]),
        ("exchange_rates", ["day", "base", "quote", "rate"]),
        ("logins", ["user_id", "at"]),
    ]

    /// The keys the contract declares (`PRIMARY KEY` or `UNIQUE`): the engine relies on them, so
    /// a ledger whose tables lack them is refused at open. Without them a repeated transaction id
    /// is counted twice, a repeated user id gets two statements, and a repeated rate makes a
    /// conversion depend on the rows' order. A table absent from the ledger (an optional one) is
    /// not checked.
    package static let keys: [(table: String, columns: [String])] = [
        ("users", ["id"]), ("users", ["username"]), ("balances", ["id"]), ("categories", ["id"]),
        ("transactions", ["id"]), ("splits", ["transaction_id", "user_id"]), ("groups", ["id"]),
        ("group_members", ["group_id", "user_id"]), ("families", ["id"]), ("family_members", ["user_id"]),
        ("budgets", ["id"]), ("budget_transfers", ["id"]), ("savings_goals", ["id"]),
        ("exchange_rates", ["day", "base", "quote"]), ("group_payments", ["id"]),
    ]

    /// Columns added to contract 1 after it was published: a ledger may lack them (then they read
    /// as NULL), and a ledger that has them is validated by them (see ``LedgerFeatures``).
    package static let optionalColumns: [(table: String, column: String)] = [
        ("users", "statement_email"),
        ("users", "month_start_day"),
    ]

    /// Whether `table` is one of the contract's tables (required or optional).
    package static func isContractTable(_ table: String) -> Bool {
        tables.contains { $0.name == table } || optionalTables.contains { $0.name == table }
    }

    /// Tables added to contract 1 after it was published: a ledger may lack them (then they read
    /// as empty), but a ledger that has one must have all its columns.
    package static let optionalTables: [(name: String, columns: [String])] = [
        ("group_payments", ["id", "group_id", "from_user_id", "to_user_id", "from_balance_id", "to_balance_id",
                            "amount_minor", "currency", "occurred_at", "created_at", "deleted_at"]),
    ]
}
