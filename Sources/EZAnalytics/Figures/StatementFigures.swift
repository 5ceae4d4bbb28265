import EZCore

/// Every figure of one user's statement for one period, in the user's report currency.
///
/// Produced by ``StatementAnalytics`` from a ``UserLedger``; consumed by the PDF, XLSX, CSV and
/// chart renderers, which never compute a figure themselves. All money is minor units of
/// ``currency``.
package struct StatementFigures: Sendable {
    /// Who the statement is for (only what the user may see of themselves).
    package var user: ReportUser
    /// The report period.
    package var period: Period
    /// The date the report is "as of": projections and paces are computed at it.
    package var asOf: CivilDate
    /// The report currency.
    package var currency: Currency
    /// The headline numbers.
    package var kpis: KPIs
    /// The trend series (12 months ending with the period's month for a monthly statement).
    package var trend: Trend
    /// Each live balance's running balance at each trend bucket's end, in the balance's currency.
    package var balances: [BalanceSeries]
    /// Expenses per category in the period.
    package var categories: CategoryShares
    /// The period against the previous period of the same length and the same period a year earlier.
    package var comparison: ComparisonFigures
    /// Budget consumption, one line per budget window overlapping the period.
    package var budgets: [BudgetLine]
    /// Savings goals.
    package var savings: [SavingsLine]
    /// Each group the user belongs to.
    package var groups: [GroupFigures]
    /// For a parent: the children's figures. nil for everyone else.
    package var family: FamilyFigures?
    /// The period's rows as transactions.csv lists them.
    package var transactions: [StatementRow]
    /// Rows left out of these figures because they break the ledger contract.
    package var quarantined: [QuarantinedRow]

    /// Figures as given; without a `comparison`, one whose earlier periods hold nothing
    /// (``ComparisonFigures/currentOnly(period:kpis:categories:)``).
    package init(user: ReportUser, period: Period, asOf: CivilDate, currency: Currency, kpis: KPIs, trend: Trend,
                balances: [BalanceSeries], categories: CategoryShares, comparison: ComparisonFigures? = nil, budgets: [BudgetLine],
                savings: [SavingsLine], groups: [GroupFigures], family: FamilyFigures?, transactions: [StatementRow],
                quarantined: [QuarantinedRow]) {
        self.user = user; self.period = period; self.asOf = asOf; self.currency = currency; self.kpis = kpis
        self.trend = trend; self.balances = balances; self.categories = categories
        self.comparison = comparison ?? .currentOnly(period: period, kpis: kpis, categories: categories)
        self.budgets = budgets
        self.savings = savings; self.groups = groups; self.family = family; self.transactions = transactions
        self.quarantined = quarantined
    }
}

/// The reader of a statement, as the statement may show them.
package struct ReportUser: Hashable, Sendable {
    package var id: Int64
    package var username: String
    /// The account book's title.
    package var bookName: String
    /// POSIX locale such as `it_IT`, for number and date formatting.
    package var locale: String
    /// IANA zone name.
    package var timeZone: String
    package var chartStyle: User.ChartStyle
    package init(id: Int64, username: String, bookName: String, locale: String, timeZone: String, chartStyle: User.ChartStyle) {
        self.id = id; self.username = username; self.bookName = bookName; self.locale = locale
        self.timeZone = timeZone; self.chartStyle = chartStyle
    }
}

/// The statement's headline numbers for the period.
package struct KPIs: Hashable, Sendable {
    package var income: Int64
    package var expenses: Int64
    /// `income − expenses`.
    package var net: Int64
    /// `net / income`, nil when there is no income.
    package var savingsRate: Percent?
    /// The previous period's expenses, and this period's change against them.
    package var previousExpenses: Int64
    package var expensesChange: Change
    /// The number of rows in transactions.csv for the period.
    package var transactionCount: Int
    /// The overall monthly limit and how it stands, when the user has one.
    package var limit: LimitStatus?
    package init(income: Int64, expenses: Int64, net: Int64, savingsRate: Percent?, previousExpenses: Int64,
                expensesChange: Change, transactionCount: Int, limit: LimitStatus?) {
        self.income = income; self.expenses = expenses; self.net = net; self.savingsRate = savingsRate
        self.previousExpenses = previousExpenses; self.expensesChange = expensesChange
        self.transactionCount = transactionCount; self.limit = limit
    }
}

/// How close spending is to a limit or budget.
package enum BudgetStatus: String, Sendable, Hashable {
    /// Under 80 % consumed.
    case ok
    /// 80 % to 100 % consumed.
    case warning
    /// Over 100 % consumed (or any spending against a zero budget).
    case over
}

/// The overall limit for the statement's period (the header band's colour).
package struct LimitStatus: Hashable, Sendable {
    package var limit: Int64
    package var spent: Int64
    package var percent: Percent?
    package var status: BudgetStatus
    /// The kind of the overall budget's windows (a monthly limit, or a weekly or yearly overall budget).
    package var kind: Budget.Period
    /// How many windows are summed: 1, or those of a quarter, a year or a range.
    package var windows: Int
    package init(limit: Int64, spent: Int64, percent: Percent?, status: BudgetStatus, kind: Budget.Period = .month, windows: Int = 1) {
        self.limit = limit; self.spent = spent; self.percent = percent; self.status = status
        self.kind = kind; self.windows = windows
    }
}

// MARK: - Trends

/// A time series of income and expenses by bucket.
package struct Trend: Hashable, Sendable {
    package var bucket: BucketKind
    /// One point per bucket, oldest first; empty buckets are zeros.
    package var points: [TrendPoint]
    /// Every category name that has expenses in some bucket, in a stable display order.
    package var categoryNames: [String]
    package init(bucket: BucketKind, points: [TrendPoint], categoryNames: [String]) {
        self.bucket = bucket; self.points = points; self.categoryNames = categoryNames
    }
}

/// One bucket of a ``Trend``.
package struct TrendPoint: Hashable, Sendable {
    package var start: CivilDate
    /// Last date of the bucket (inclusive).
    package var end: CivilDate
    package var income: Int64
    package var expenses: Int64
    package var net: Int64
    package var transactionCount: Int
    /// Expenses per category name in the bucket (categories with none are absent).
    package var expensesByCategory: [String: Int64]
    /// The mean of this and the two previous buckets' expenses (rounded half-to-even); nil for the first two.
    package var movingAverageExpenses: Int64?
    /// Expenses against the previous bucket.
    package var vsPrevious: Change?
    /// Expenses against the same bucket a year earlier.
    package var vsYearAgo: Change?
    /// For a bucket not finished at the as-of date: the projected expenses at its end.
    package var projectedExpenses: Int64?
    package init(start: CivilDate, end: CivilDate, income: Int64, expenses: Int64, net: Int64, transactionCount: Int,
                expensesByCategory: [String: Int64], movingAverageExpenses: Int64?, vsPrevious: Change?,
                vsYearAgo: Change?, projectedExpenses: Int64?) {
        self.start = start; self.end = end; self.income = income; self.expenses = expenses; self.net = net
        self.transactionCount = transactionCount; self.expensesByCategory = expensesByCategory
        self.movingAverageExpenses = movingAverageExpenses; self.vsPrevious = vsPrevious
        self.vsYearAgo = vsYearAgo; self.projectedExpenses = projectedExpenses
    }
}

/// One balance's running balance over the trend's buckets.
package struct BalanceSeries: Hashable, Sendable {
    package var balanceId: Int64
    package var name: String
    package var kind: Balance.Kind
    /// The balance's own currency (the series is not converted).
    package var currency: Currency
    /// The balance at each trend bucket's end, aligned with `Trend.points`.
    package var values: [Int64]
    package init(balanceId: Int64, name: String, kind: Balance.Kind, currency: Currency, values: [Int64]) {
        self.balanceId = balanceId; self.name = name; self.kind = kind; self.currency = currency; self.values = values
    }
}

// MARK: - Categories

/// Expenses per category for the period.
package struct CategoryShares: Hashable, Sendable {
    /// Total expenses (the sum of every row's amount).
    package var total: Int64
    /// Every category with expenses, unfolded, by amount descending then name; percents sum to 100.0.
    package var rows: [CategoryShare]
    /// The same with categories under 2 % folded into one 'Other (n categories)' slice (last).
    package var folded: [CategoryShare]
    package init(total: Int64, rows: [CategoryShare], folded: [CategoryShare]) {
        self.total = total; self.rows = rows; self.folded = folded
    }
}

/// One category's expenses.
package struct CategoryShare: Hashable, Sendable {
    package var name: String
    package var count: Int
    package var amount: Int64
    package var percent: Percent
    /// `#RRGGBB`: the ledger's colour, else a stable palette colour for the name.
    package var color: String
    /// For the folded 'Other' slice, how many categories it holds (0 for a category of the ledger),
    /// so that a renderer can name the slice in the reader's language.
    package var foldedCategories: Int
    package init(name: String, count: Int, amount: Int64, percent: Percent, color: String, foldedCategories: Int = 0) {
        self.name = name; self.count = count; self.amount = amount; self.percent = percent; self.color = color
        self.foldedCategories = foldedCategories
    }
}

// MARK: - Budgets and savings

/// One budget over one of its windows.
package struct BudgetLine: Hashable, Sendable {
    package var budgetId: Int64
    /// nil for the overall budget (including the one made from the user's monthly limit).
    package var categoryName: String?
    package var windowStart: CivilDate
    /// Inclusive.
    package var windowEnd: CivilDate
    package var base: Int64
    package var transfersIn: Int64
    package var transfersOut: Int64
    /// `base + transfersIn − transfersOut`.
    package var effective: Int64
    package var spent: Int64
    /// `effective − spent` (negative when over).
    package var remaining: Int64
    /// `spent / effective`, nil when the effective budget is 0.
    package var percent: Percent?
    /// The share of the window elapsed at the as-of date (a linear pace).
    package var expectedPercent: Percent?
    /// Spend projected to the window's end at the pace so far.
    package var projected: Int64
    package var status: BudgetStatus
    package init(budgetId: Int64, categoryName: String?, windowStart: CivilDate, windowEnd: CivilDate, base: Int64,
                transfersIn: Int64, transfersOut: Int64, effective: Int64, spent: Int64, remaining: Int64,
                percent: Percent?, expectedPercent: Percent?, projected: Int64, status: BudgetStatus) {
        self.budgetId = budgetId; self.categoryName = categoryName; self.windowStart = windowStart
        self.windowEnd = windowEnd; self.base = base; self.transfersIn = transfersIn; self.transfersOut = transfersOut
        self.effective = effective; self.spent = spent; self.remaining = remaining; self.percent = percent
        self.expectedPercent = expectedPercent; self.projected = projected; self.status = status
    }
}

/// A savings goal's progress (in the goal's currency).
package struct SavingsLine: Hashable, Sendable {
    package var goalId: Int64
    package var name: String
    package var currency: Currency
    package var target: Int64
    package var saved: Int64
    package var percent: Percent?
    package var dueOn: CivilDate?
    /// Whole months from the period's end to the due date (0 when due or past), nil without a due date.
    package var monthsLeft: Int?
    /// What must be saved each month to reach the target by the due date; nil without a due date.
    package var monthlyNeeded: Int64?
    package init(goalId: Int64, name: String, currency: Currency, target: Int64, saved: Int64, percent: Percent?,
                dueOn: CivilDate?, monthsLeft: Int?, monthlyNeeded: Int64?) {
        self.goalId = goalId; self.name = name; self.currency = currency; self.target = target; self.saved = saved
        self.percent = percent; self.dueOn = dueOn; self.monthsLeft = monthsLeft; self.monthlyNeeded = monthlyNeeded
    }
}

// MARK: - Groups

/// One group's balances, the period's settle-up payments and the settlement plan, in the group's currency.
package struct GroupFigures: Hashable, Sendable {
    package var groupId: Int64
    package var name: String
    package var currency: Currency
    /// Every member the group has had, by user id.
    package var members: [MemberBalance]
    /// The transfers that would settle every outstanding balance (payments already made accounted for).
    package var settlement: SettlementPlan
    /// The settle-up payments made in the period, by date then id.
    package var payments: [GroupPaymentLine]
    package init(groupId: Int64, name: String, currency: Currency, members: [MemberBalance], settlement: SettlementPlan,
                 payments: [GroupPaymentLine] = []) {
        self.groupId = groupId; self.name = name; self.currency = currency; self.members = members; self.settlement = settlement
        self.payments = payments
    }
}

/// One settle-up payment of the period, in the group's currency.
package struct GroupPaymentLine: Hashable, Sendable {
    package var paymentId: Int64
    /// The viewer's local date of the payment.
    package var date: CivilDate
    package var fromUserId: Int64
    package var fromUsername: String
    package var toUserId: Int64
    package var toUsername: String
    /// Converted once into the group's currency, on the payer's date.
    package var amount: Int64
    package init(paymentId: Int64, date: CivilDate, fromUserId: Int64, fromUsername: String, toUserId: Int64,
                 toUsername: String, amount: Int64) {
        self.paymentId = paymentId; self.date = date; self.fromUserId = fromUserId; self.fromUsername = fromUsername
        self.toUserId = toUserId; self.toUsername = toUsername; self.amount = amount
    }
}

/// A member's position in a group.
package struct MemberBalance: Hashable, Sendable {
    package var userId: Int64
    package var username: String
    /// What the member paid for the group in the period.
    package var paid: Int64
    /// The member's share of the group's expenses in the period.
    package var share: Int64
    /// `paid − share` in the period.
    package var net: Int64
    /// `paid − share` since the group began, plus what the member paid back minus what they were
    /// paid back, up to the period's end: what the member is owed (> 0) or owes (< 0).
    package var outstanding: Int64
    /// Settle-up payments in the period: what the member paid to others minus what others paid them.
    package var settled: Int64
    package init(userId: Int64, username: String, paid: Int64, share: Int64, net: Int64, outstanding: Int64, settled: Int64 = 0) {
        self.userId = userId; self.username = username; self.paid = paid; self.share = share
        self.net = net; self.outstanding = outstanding; self.settled = settled
    }
}

/// Transfers that settle every outstanding balance in a group.
package struct SettlementPlan: Hashable, Sendable {
    /// How the plan was found.
    package enum Method: String, Sendable { case exact, greedy }
    package var method: Method
    package var transfers: [Settlement]
    package init(method: Method, transfers: [Settlement]) { self.method = method; self.transfers = transfers }
}

/// One payment of a settlement plan.
package struct Settlement: Hashable, Sendable {
    package var fromUserId: Int64
    package var fromUsername: String
    package var toUserId: Int64
    package var toUsername: String
    package var amount: Int64
    package init(fromUserId: Int64, fromUsername: String, toUserId: Int64, toUsername: String, amount: Int64) {
        self.fromUserId = fromUserId; self.fromUsername = fromUsername; self.toUserId = toUserId
        self.toUsername = toUsername; self.amount = amount
    }
}

// MARK: - Families

/// A parent's view of their children.
package struct FamilyFigures: Hashable, Sendable {
    package var familyName: String
    package var children: [ChildFigures]
    /// Children whose `users` row breaks the contract: left out of ``children`` (and named in the
    /// statement's quarantined rows), so the family view says some are missing rather than none.
    package var childrenLeftOut: Int
    package init(familyName: String, children: [ChildFigures], childrenLeftOut: Int = 0) {
        self.familyName = familyName; self.children = children; self.childrenLeftOut = childrenLeftOut
    }
}

/// One child's figures for the period, in the parent's report currency.
package struct ChildFigures: Hashable, Sendable {
    package var userId: Int64
    package var username: String
    /// Income (allowance), in the parent's currency.
    package var income: Int64
    /// Expenses, in the parent's currency.
    package var expenses: Int64
    /// Expenses by category, in the parent's currency.
    package var categories: [CategoryShare]
    /// The child's budget lines as the child's own statement has them: in ``budgetCurrency``,
    /// windows dated in the child's time zone, so that a parent sees the status the child sees.
    package var budgets: [BudgetLine]
    /// Budget windows the child went over in the period.
    package var overBudgets: [BudgetLine]
    /// The currency of ``budgets``: the child's own.
    package var budgetCurrency: Currency
    package init(userId: Int64, username: String, income: Int64, expenses: Int64, categories: [CategoryShare],
                budgets: [BudgetLine], overBudgets: [BudgetLine], budgetCurrency: Currency) {
        self.userId = userId; self.username = username; self.income = income; self.expenses = expenses
        self.categories = categories; self.budgets = budgets; self.overBudgets = overBudgets
        self.budgetCurrency = budgetCurrency
    }

    /// The first `count` categories, each with its share rounded once, from the amounts, to a whole
    /// percent (rounding the one-decimal share again put 82.54 % at 82 % by way of 82.5).
    package func topCategories(_ count: Int) -> [(name: String, wholePercent: Percent)] {
        var total: Int64 = 0
        for c in categories { total = total.addingReportingOverflow(c.amount).partialValue }   // summed checked by the builder
        return categories.prefix(count).map { ($0.name, Percent.roundedToWhole($0.amount, total) ?? $0.percent) }
    }
}

// MARK: - Transactions

/// One row of the statement's transaction list (and of transactions.csv).
package struct StatementRow: Hashable, Sendable {
    package var id: Int64
    /// The local date in the reader's time zone.
    package var date: CivilDate
    /// The row's timestamp as stored (for ISO-8601 output with time when it has one).
    package var time: LedgerTime
    package var kind: Transaction.Kind
    /// The reader's category name ('Others' when none).
    package var category: String
    /// The balance's name; empty for a share of someone else's group expense.
    package var balance: String
    package var method: String
    package var description: String
    /// The row's amount in its own currency (the full amount, also for group expenses).
    package var amount: Int64
    package var currency: Currency
    /// What the row adds to the reader's income or expenses, in the report currency:
    /// their share for a group expense, 0 for a transfer.
    package var counted: Int64
    /// The group's name, empty outside groups.
    package var group: String
    /// Username of who paid a group expense; empty outside groups.
    package var paidBy: String
    /// Whether the reader paid this group expense: a PDF says "zoë (you)" rather than a name the
    /// reader might not recognise as theirs (the CSV and workbook keep the username as data).
    package var paidByReader: Bool
    package init(id: Int64, date: CivilDate, time: LedgerTime, kind: Transaction.Kind, category: String, balance: String,
                method: String, description: String, amount: Int64, currency: Currency, counted: Int64, group: String, paidBy: String,
                paidByReader: Bool = false) {
        self.id = id; self.date = date; self.time = time; self.kind = kind; self.category = category
        self.balance = balance; self.method = method; self.description = description; self.amount = amount
        self.currency = currency; self.counted = counted; self.group = group; self.paidBy = paidBy
        self.paidByReader = paidByReader
    }
}
