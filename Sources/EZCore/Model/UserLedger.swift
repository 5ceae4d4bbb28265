/// Everything the ledger holds that one user's report may draw on, validated.
///
/// EZLedger builds one of these per user inside a single read transaction; EZAnalytics turns it
/// into figures. It holds only what that user may see: their own rows, the groups they belong
/// to (every member's expenses and splits in those groups, members by username), and for a
/// parent their children's ledgers. Never a password hash, never another user's e-mail.
public struct UserLedger: Sendable {
    /// The user the report is for.
    public var user: User
    /// The user's live balances.
    public var balances: [Balance]
    /// The user's live categories, by position then id.
    public var categories: [Category]
    /// The user's own live rows (income, expense, transfer; including group expenses they paid),
    /// from the beginning of the ledger through the loaded window's end, ordered by (occurredAt, id).
    public var transactions: [Transaction]
    /// Every live group the user has been a member of, by group id.
    public var groups: [GroupLedger]
    /// The user's budgets.
    public var budgets: [Budget]
    /// The user's budget transfers.
    public var budgetTransfers: [BudgetTransfer]
    /// The user's savings goals.
    public var savingsGoals: [SavingsGoal]
    /// The user's own sign-ins (for the admin report's activity counts).
    public var logins: [LedgerTime]
    /// The user's family membership, if any.
    public var family: FamilyMember?
    /// For a parent: each child's ledger (children have no children of their own here). Empty otherwise.
    public var children: [UserLedger]
    /// Daily exchange rates.
    public var rates: RateTable
    /// Rows that would have fed this report but break the contract, with the reason.
    public var quarantined: [QuarantinedRow]

    public init(user: User, balances: [Balance] = [], categories: [Category] = [], transactions: [Transaction] = [],
                groups: [GroupLedger] = [], budgets: [Budget] = [], budgetTransfers: [BudgetTransfer] = [],
                savingsGoals: [SavingsGoal] = [], logins: [LedgerTime] = [], family: FamilyMember? = nil,
                children: [UserLedger] = [], rates: RateTable = RateTable(), quarantined: [QuarantinedRow] = []) {
        self.user = user; self.balances = balances; self.categories = categories; self.transactions = transactions
        self.groups = groups; self.budgets = budgets; self.budgetTransfers = budgetTransfers
        self.savingsGoals = savingsGoals; self.logins = logins; self.family = family; self.children = children
        self.rates = rates; self.quarantined = quarantined
    }
}

/// One group as its members see it: the group, its members over time, and its expenses.
public struct GroupLedger: Sendable {
    public var group: Group
    /// Every member the group has had (including those who left), by user id.
    public var members: [GroupMember]
    /// Every live expense of the group, whoever paid it, ordered by (occurredAt, id).
    /// `Transaction.ownerDate` is the payer's local date.
    public var expenses: [Transaction]
    /// Explicit split rows by transaction id (validated: they sum to the amount). An expense with
    /// none is shared equally by the members on its date, remainder cents to the lowest user ids.
    public var splits: [Int64: [Split]]

    public init(group: Group, members: [GroupMember], expenses: [Transaction], splits: [Int64: [Split]]) {
        self.group = group; self.members = members; self.expenses = expenses; self.splits = splits
    }
}
