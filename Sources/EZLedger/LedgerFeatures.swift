import GRDB

/// The optional additions to the ledger contract a ledger has.
///
/// Contract 1 grows by addition only: a column or table added after it was first published is
/// optional, and a ledger written before it (which lacks it) reads exactly as it always did.
/// The engine detects them once when it opens the ledger (``LedgerContract/optionalColumns``,
/// ``LedgerContract/optionalTables``). `users.statement_email`, only read by `deliver`, is
/// detected where it is read.
package struct LedgerFeatures: Hashable, Sendable {
    /// The ledger has `users.month_start_day` (months that start on payday).
    package var monthStartDay: Bool
    /// The ledger has the `group_payments` table (members settling up).
    package var groupPayments: Bool

    package init(monthStartDay: Bool, groupPayments: Bool) {
        self.monthStartDay = monthStartDay
        self.groupPayments = groupPayments
    }

    /// A ledger with none of the optional additions.
    package static let none = LedgerFeatures(monthStartDay: false, groupPayments: false)

    /// The additions present in `db`.
    static func detect(_ db: Database) throws -> LedgerFeatures {
        func hasColumn(_ table: String, _ column: String) throws -> Bool {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?", arguments: [table, column]) == 1
        }
        func hasTable(_ table: String) throws -> Bool {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pragma_table_info(?)", arguments: [table]) ?? 0 > 0
        }
        return LedgerFeatures(monthStartDay: try hasColumn("users", "month_start_day"),
                              groupPayments: try hasTable("group_payments"))
    }
}
