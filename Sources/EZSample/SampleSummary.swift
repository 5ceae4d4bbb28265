/// What the generator wrote: the row count of every table of the ledger contract.
public struct SampleSummary: Sendable, Equatable, CustomStringConvertible {
    /// Rows in `users` (soft-deleted ones included).
    public var users: Int = 0
    /// Rows in `transactions` (soft-deleted ones included).
    public var transactions: Int = 0
    /// Rows in `balances`.
    public var balances: Int = 0
    /// Rows in `categories`.
    public var categories: Int = 0
    /// Rows in `splits`.
    public var splits: Int = 0
    /// Rows in `groups`.
    public var groups: Int = 0
    /// Rows in `group_members`.
    public var groupMembers: Int = 0
    /// Rows in `families`.
    public var families: Int = 0
    /// Rows in `family_members`.
    public var familyMembers: Int = 0
    /// Rows in `budgets`.
    public var budgets: Int = 0
    /// Rows in `budget_transfers`.
    public var budgetTransfers: Int = 0
    /// Rows in `savings_goals`.
    public var savingsGoals: Int = 0
    /// Rows in `exchange_rates`.
    public var exchangeRates: Int = 0
    /// Rows in `logins`.
    public var logins: Int = 0

    /// An all-zero summary.
    public init() {}

    /// One line per table, e.g. `transactions 24,512`.
    public var description: String {
        let rows: [(String, Int)] = [
            ("users", users), ("balances", balances), ("categories", categories), ("groups", groups),
            ("transactions", transactions), ("splits", splits), ("group_members", groupMembers),
            ("families", families), ("family_members", familyMembers), ("budgets", budgets),
            ("budget_transfers", budgetTransfers), ("savings_goals", savingsGoals),
            ("exchange_rates", exchangeRates), ("logins", logins),
        ]
        return rows.map { "\($0.0) \($0.1)" }.joined(separator: "\n")
    }
}
