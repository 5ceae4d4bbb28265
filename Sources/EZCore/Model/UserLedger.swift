/// Everything the ledger holds that one user's report may draw on, validated.
///
/// EZLedger builds one of these per user inside a single read transaction; EZAnalytics turns it
/// into figures. It holds only what that user may see: their own rows, the groups they belong
/// to (every member's expenses and splits in those groups, members by username), and for a
/// parent their children's ledgers. Never a password hash, never another user's e-mail.
package struct UserLedger: Sendable {
    /// The user the report is for.
    package var user: User
    /// The user's live balances.
    package var balances: [Balance]
    /// The user's live categories, by position then id.
    package var categories: [Category]
    /// The user's own live rows (income, expense, transfer; including group expenses they paid),
    /// from the beginning of the ledger through the loaded window's end, ordered by (occurredAt, id).
    package var transactions: [Transaction]
    /// Every live group the user has been a member of, by group id.
    package var groups: [GroupLedger]
    /// The user's budgets.
    package var budgets: [Budget]
    /// The user's budget transfers.
    package var budgetTransfers: [BudgetTransfer]
    /// The user's savings goals.
    package var savingsGoals: [SavingsGoal]
    /// The user's own sign-ins (for the admin report's activity counts).
    package var logins: [LedgerTime]
    /// The user's family membership, if any.
    package var family: FamilyMember?
    /// For a parent: each child's ledger (children have no children of their own here). Empty otherwise.
    package var children: [UserLedger]
    /// For a parent: how many children are left out of ``children`` because their `users` row
    /// breaks the contract (each named in ``quarantined``), so the family view can say so.
    package var childrenLeftOut = 0
    /// Daily exchange rates.
    package var rates: RateTable
    /// Rows that would have fed this report but break the contract, with the reason.
    package var quarantined: [QuarantinedRow]

    /// What a report of this user lists as left out: the user's own quarantined rows and the
    /// exchange-rate rows the conversions went without, each once, sorted. `export` and `serve`
    /// show it in the statement's About and make the export exit 3 for it, as `check` would.
    package var reportQuarantine: [QuarantinedRow] {
        rates.quarantined.isEmpty ? quarantined : Set(quarantined).union(rates.quarantined).sorted()
    }

    package init(user: User, balances: [Balance] = [], categories: [Category] = [], transactions: [Transaction] = [],
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
package struct GroupLedger: Sendable {
    package var group: Group
    /// Every member the group has had (including those who left), by user id.
    package var members: [GroupMember]
    /// Every live expense of the group, whoever paid it, ordered by (occurredAt, id).
    /// `Transaction.ownerDate` is the payer's local date.
    package var expenses: [Transaction]
    /// Explicit split rows by transaction id (validated: they sum to the amount). An expense with
    /// none is shared equally by the members on its date, remainder cents to the lowest user ids.
    package var splits: [Int64: [Split]]
    /// Every live, valid settle-up payment between members (`group_payments`), ordered by
    /// (occurredAt, id); empty when the ledger has no such table.
    package var payments: [GroupPayment]

    package init(group: Group, members: [GroupMember], expenses: [Transaction], splits: [Int64: [Split]],
                 payments: [GroupPayment] = []) {
        self.group = group; self.members = members; self.expenses = expenses; self.splits = splits; self.payments = payments
    }
}
