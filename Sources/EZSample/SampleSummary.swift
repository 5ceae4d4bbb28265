/// What the generator wrote: the row count of every table of the ledger contract.
package struct SampleSummary: Sendable, Equatable, CustomStringConvertible {
    /// Rows in `users` (soft-deleted ones included).
    package var users: Int = 0
    /// Rows in `transactions` (soft-deleted ones included).
    package var transactions: Int = 0
    /// Rows in `balances`.
    package var balances: Int = 0
    /// Rows in `categories`.
    package var categories: Int = 0
    /// Rows in `splits`.
    package var splits: Int = 0
    /// Rows in `groups`.
    package var groups: Int = 0
    /// Rows in `group_members`.
    package var groupMembers: Int = 0
    /// Rows in `group_payments`.
    package var groupPayments: Int = 0
    /// Rows in `families`.
    package var families: Int = 0
    /// Rows in `family_members`.
    package var familyMembers: Int = 0
    /// Rows in `budgets`.
    package var budgets: Int = 0
    /// Rows in `budget_transfers`.
    package var budgetTransfers: Int = 0
    /// Rows in `savings_goals`.
    package var savingsGoals: Int = 0
    /// Rows in `exchange_rates`.
    package var exchangeRates: Int = 0
    /// Rows in `logins`.
    package var logins: Int = 0

    /// An all-zero summary.
    package init() {}

    /// One line per table, e.g. `transactions 24,512`.
    package var description: String {
        let rows: [(String, Int)] = [
            ("users", users), ("balances", balances), ("categories", categories), ("groups", groups),
            ("transactions", transactions), ("splits", splits), ("group_members", groupMembers), ("group_payments", groupPayments),
            ("families", families), ("family_members", familyMembers), ("budgets", budgets),
            ("budget_transfers", budgetTransfers), ("savings_goals", savingsGoals),
            ("exchange_rates", exchangeRates), ("logins", logins),
        ]
        return rows.map { "\($0.0) \($0.1)" }.joined(separator: "\n")
    }
}
