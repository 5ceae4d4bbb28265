import EZCore

/// Every figure of one user's statement for one period, in the user's report currency.
///
/// Produced by ``StatementAnalytics`` from a ``UserLedger``; consumed by the PDF, XLSX, CSV and
/// chart renderers, which never compute a figure themselves. All money is minor units of
/// ``currency``.
public struct StatementFigures: Sendable {
    /// Who the statement is for (only what the user may see of themselves).
    public var user: ReportUser
    /// The report period.
    public var period: Period
    /// The date the report is "as of": projections and paces are computed at it.
    public var asOf: CivilDate
    /// The report currency.
    public var currency: Currency
    /// The headline numbers.
    public var kpis: KPIs
    /// The trend series (12 months ending with the period's month for a monthly statement).
    public var trend: Trend
    /// Each live balance's running balance at each trend bucket's end, in the balance's currency.
    public var balances: [BalanceSeries]
    /// Expenses per category in the period.
    public var categories: CategoryShares
    /// Budget consumption, one line per budget window overlapping the period.
    public var budgets: [BudgetLine]
    /// Savings goals.
    public var savings: [SavingsLine]
    /// Each group the user belongs to.
    public var groups: [GroupFigures]
    /// For a parent: the children's figures. nil for everyone else.
    public var family: FamilyFigures?
    /// The period's rows as transactions.csv lists them.
    public var transactions: [StatementRow]
    /// Rows left out of these figures because they break the ledger contract.
    public var quarantined: [QuarantinedRow]

    public init(user: ReportUser, period: Period, asOf: CivilDate, currency: Currency, kpis: KPIs, trend: Trend,
                balances: [BalanceSeries], categories: CategoryShares, budgets: [BudgetLine], savings: [SavingsLine],
                groups: [GroupFigures], family: FamilyFigures?, transactions: [StatementRow], quarantined: [QuarantinedRow]) {
        self.user = user; self.period = period; self.asOf = asOf; self.currency = currency; self.kpis = kpis
        self.trend = trend; self.balances = balances; self.categories = categories; self.budgets = budgets
        self.savings = savings; self.groups = groups; self.family = family; self.transactions = transactions
        self.quarantined = quarantined
    }
}

/// The reader of a statement, as the statement may show them.
public struct ReportUser: Hashable, Sendable {
    public var id: Int64
    public var username: String
    /// The account book's title.
    public var bookName: String
    /// POSIX locale such as `it_IT`, for number and date formatting.
    public var locale: String
    /// IANA zone name.
    public var timeZone: String
    public var chartStyle: User.ChartStyle
    public init(id: Int64, username: String, bookName: String, locale: String, timeZone: String, chartStyle: User.ChartStyle) {
        self.id = id; self.username = username; self.bookName = bookName; self.locale = locale
        self.timeZone = timeZone; self.chartStyle = chartStyle
    }
}

/// The statement's headline numbers for the period.
public struct KPIs: Hashable, Sendable {
    public var income: Int64
    public var expenses: Int64
    /// `income − expenses`.
    public var net: Int64
    /// `net / income`, nil when there is no income.
    public var savingsRate: Percent?
    /// The previous period's expenses, and this period's change against them.
    public var previousExpenses: Int64
    public var expensesChange: Change
    /// The number of rows in transactions.csv for the period.
    public var transactionCount: Int
    /// The overall monthly limit and how it stands, when the user has one.
    public var limit: LimitStatus?
    public init(income: Int64, expenses: Int64, net: Int64, savingsRate: Percent?, previousExpenses: Int64,
                expensesChange: Change, transactionCount: Int, limit: LimitStatus?) {
        self.income = income; self.expenses = expenses; self.net = net; self.savingsRate = savingsRate
        self.previousExpenses = previousExpenses; self.expensesChange = expensesChange
        self.transactionCount = transactionCount; self.limit = limit
    }
}

/// How close spending is to a limit or budget.
public enum BudgetStatus: String, Sendable, Hashable {
    /// Under 80 % consumed.
    case ok
    /// 80 % to 100 % consumed.
    case warning
    /// Over 100 % consumed (or any spending against a zero budget).
    case over
}

/// The overall limit for the statement's period (the header band's colour).
public struct LimitStatus: Hashable, Sendable {
    public var limit: Int64
    public var spent: Int64
    public var percent: Percent?
    public var status: BudgetStatus
    public init(limit: Int64, spent: Int64, percent: Percent?, status: BudgetStatus) {
        self.limit = limit; self.spent = spent; self.percent = percent; self.status = status
    }
}

// MARK: - Trends

/// A time series of income and expenses by bucket.
public struct Trend: Hashable, Sendable {
    public var bucket: BucketKind
    /// One point per bucket, oldest first; empty buckets are zeros.
    public var points: [TrendPoint]
    /// Every category name that has expenses in some bucket, in a stable display order.
    public var categoryNames: [String]
    public init(bucket: BucketKind, points: [TrendPoint], categoryNames: [String]) {
        self.bucket = bucket; self.points = points; self.categoryNames = categoryNames
    }
}

/// One bucket of a ``Trend``.
public struct TrendPoint: Hashable, Sendable {
    public var start: CivilDate
    /// Last date of the bucket (inclusive).
    public var end: CivilDate
    public var income: Int64
    public var expenses: Int64
    public var net: Int64
    public var transactionCount: Int
    /// Expenses per category name in the bucket (categories with none are absent).
    public var expensesByCategory: [String: Int64]
    /// The mean of this and the two previous buckets' expenses (rounded half-to-even); nil for the first two.
    public var movingAverageExpenses: Int64?
    /// Expenses against the previous bucket.
    public var vsPrevious: Change?
    /// Expenses against the same bucket a year earlier.
    public var vsYearAgo: Change?
    /// For a bucket not finished at the as-of date: the projected expenses at its end.
    public var projectedExpenses: Int64?
    public init(start: CivilDate, end: CivilDate, income: Int64, expenses: Int64, net: Int64, transactionCount: Int,
                expensesByCategory: [String: Int64], movingAverageExpenses: Int64?, vsPrevious: Change?,
                vsYearAgo: Change?, projectedExpenses: Int64?) {
        self.start = start; self.end = end; self.income = income; self.expenses = expenses; self.net = net
        self.transactionCount = transactionCount; self.expensesByCategory = expensesByCategory
        self.movingAverageExpenses = movingAverageExpenses; self.vsPrevious = vsPrevious
        self.vsYearAgo = vsYearAgo; self.projectedExpenses = projectedExpenses
    }
}

/// One balance's running balance over the trend's buckets.
public struct BalanceSeries: Hashable, Sendable {
    public var balanceId: Int64
    public var name: String
    public var kind: Balance.Kind
    /// The balance's own currency (the series is not converted).
    public var currency: Currency
    /// The balance at each trend bucket's end, aligned with `Trend.points`.
    public var values: [Int64]
    public init(balanceId: Int64, name: String, kind: Balance.Kind, currency: Currency, values: [Int64]) {
        self.balanceId = balanceId; self.name = name; self.kind = kind; self.currency = currency; self.values = values
    }
}

// MARK: - Categories

/// Expenses per category for the period.
public struct CategoryShares: Hashable, Sendable {
    /// Total expenses (the sum of every row's amount).
    public var total: Int64
    /// Every category with expenses, unfolded, by amount descending then name; percents sum to 100.0.
    public var rows: [CategoryShare]
    /// The same with categories under 2 % folded into one 'Other (n categories)' slice (last).
    public var folded: [CategoryShare]
    public init(total: Int64, rows: [CategoryShare], folded: [CategoryShare]) {
        self.total = total; self.rows = rows; self.folded = folded
    }
}

/// One category's expenses.
public struct CategoryShare: Hashable, Sendable {
    public var name: String
    public var count: Int
    public var amount: Int64
    public var percent: Percent
    /// `#RRGGBB`: the ledger's colour, else a stable palette colour for the name.
    public var color: String
    public init(name: String, count: Int, amount: Int64, percent: Percent, color: String) {
        self.name = name; self.count = count; self.amount = amount; self.percent = percent; self.color = color
    }
}

// MARK: - Budgets and savings

/// One budget over one of its windows.
public struct BudgetLine: Hashable, Sendable {
    public var budgetId: Int64
    /// nil for the overall budget (including the one made from the user's monthly limit).
    public var categoryName: String?
    public var windowStart: CivilDate
    /// Inclusive.
    public var windowEnd: CivilDate
    public var base: Int64
    public var transfersIn: Int64
    public var transfersOut: Int64
    /// `base + transfersIn − transfersOut`.
    public var effective: Int64
    public var spent: Int64
    /// `effective − spent` (negative when over).
    public var remaining: Int64
    /// `spent / effective`, nil when the effective budget is 0.
    public var percent: Percent?
    /// The share of the window elapsed at the as-of date (a linear pace).
    public var expectedPercent: Percent?
    /// Spend projected to the window's end at the pace so far.
    public var projected: Int64
    public var status: BudgetStatus
    public init(budgetId: Int64, categoryName: String?, windowStart: CivilDate, windowEnd: CivilDate, base: Int64,
                transfersIn: Int64, transfersOut: Int64, effective: Int64, spent: Int64, remaining: Int64,
                percent: Percent?, expectedPercent: Percent?, projected: Int64, status: BudgetStatus) {
        self.budgetId = budgetId; self.categoryName = categoryName; self.windowStart = windowStart
        self.windowEnd = windowEnd; self.base = base; self.transfersIn = transfersIn; self.transfersOut = transfersOut
        self.effective = effective; self.spent = spent; self.remaining = remaining; self.percent = percent
        self.expectedPercent = expectedPercent; self.projected = projected; self.status = status
    }
}

/// A savings goal's progress (in the goal's currency).
public struct SavingsLine: Hashable, Sendable {
    public var goalId: Int64
    public var name: String
    public var currency: Currency
    public var target: Int64
    public var saved: Int64
    public var percent: Percent?
    public var dueOn: CivilDate?
    /// Whole months from the period's end to the due date (0 when due or past), nil without a due date.
    public var monthsLeft: Int?
    /// What must be saved each month to reach the target by the due date; nil without a due date.
    public var monthlyNeeded: Int64?
    public init(goalId: Int64, name: String, currency: Currency, target: Int64, saved: Int64, percent: Percent?,
                dueOn: CivilDate?, monthsLeft: Int?, monthlyNeeded: Int64?) {
        self.goalId = goalId; self.name = name; self.currency = currency; self.target = target; self.saved = saved
        self.percent = percent; self.dueOn = dueOn; self.monthsLeft = monthsLeft; self.monthlyNeeded = monthlyNeeded
    }
}

// MARK: - Groups

/// One group's balances and settlement plan, in the group's currency.
public struct GroupFigures: Hashable, Sendable {
    public var groupId: Int64
    public var name: String
    public var currency: Currency
    /// Every member the group has had, by user id.
    public var members: [MemberBalance]
    public var settlement: SettlementPlan
    public init(groupId: Int64, name: String, currency: Currency, members: [MemberBalance], settlement: SettlementPlan) {
        self.groupId = groupId; self.name = name; self.currency = currency; self.members = members; self.settlement = settlement
    }
}

/// A member's position in a group.
public struct MemberBalance: Hashable, Sendable {
    public var userId: Int64
    public var username: String
    /// What the member paid for the group in the period.
    public var paid: Int64
    /// The member's share of the group's expenses in the period.
    public var share: Int64
    /// `paid − share` in the period.
    public var net: Int64
    /// `paid − share` since the group began, up to the period's end: what the member is owed (> 0) or owes (< 0).
    public var outstanding: Int64
    public init(userId: Int64, username: String, paid: Int64, share: Int64, net: Int64, outstanding: Int64) {
        self.userId = userId; self.username = username; self.paid = paid; self.share = share
        self.net = net; self.outstanding = outstanding
    }
}

/// Transfers that settle every outstanding balance in a group.
public struct SettlementPlan: Hashable, Sendable {
    /// How the plan was found.
    public enum Method: String, Sendable { case exact, greedy }
    public var method: Method
    public var transfers: [Settlement]
    public init(method: Method, transfers: [Settlement]) { self.method = method; self.transfers = transfers }
}

/// One payment of a settlement plan.
public struct Settlement: Hashable, Sendable {
    public var fromUserId: Int64
    public var fromUsername: String
    public var toUserId: Int64
    public var toUsername: String
    public var amount: Int64
    public init(fromUserId: Int64, fromUsername: String, toUserId: Int64, toUsername: String, amount: Int64) {
        self.fromUserId = fromUserId; self.fromUsername = fromUsername; self.toUserId = toUserId
        self.toUsername = toUsername; self.amount = amount
    }
}

// MARK: - Families

/// A parent's view of their children.
public struct FamilyFigures: Hashable, Sendable {
    public var familyName: String
    public var children: [ChildFigures]
    public init(familyName: String, children: [ChildFigures]) { self.familyName = familyName; self.children = children }
}

/// One child's figures for the period, in the parent's report currency.
public struct ChildFigures: Hashable, Sendable {
    public var userId: Int64
    public var username: String
    /// Income (allowance).
    public var income: Int64
    public var expenses: Int64
    public var categories: [CategoryShare]
    public var budgets: [BudgetLine]
    /// Budget windows the child went over in the period.
    public var overBudgets: [BudgetLine]
    public init(userId: Int64, username: String, income: Int64, expenses: Int64, categories: [CategoryShare],
                budgets: [BudgetLine], overBudgets: [BudgetLine]) {
        self.userId = userId; self.username = username; self.income = income; self.expenses = expenses
        self.categories = categories; self.budgets = budgets; self.overBudgets = overBudgets
    }
}

// MARK: - Transactions

/// One row of the statement's transaction list (and of transactions.csv).
public struct StatementRow: Hashable, Sendable {
    public var id: Int64
    /// The local date in the reader's time zone.
    public var date: CivilDate
    /// The row's timestamp as stored (for ISO-8601 output with time when it has one).
    public var time: LedgerTime
    public var kind: Transaction.Kind
    /// The reader's category name ('Others' when none).
    public var category: String
    /// The balance's name; empty for a share of someone else's group expense.
    public var balance: String
    public var method: String
    public var description: String
    /// The row's amount in its own currency (the full amount, also for group expenses).
    public var amount: Int64
    public var currency: Currency
    /// What the row adds to the reader's income or expenses, in the report currency:
    /// their share for a group expense, 0 for a transfer.
    public var counted: Int64
    /// The group's name, empty outside groups.
    public var group: String
    /// Username of who paid a group expense; empty outside groups.
    public var paidBy: String
    public init(id: Int64, date: CivilDate, time: LedgerTime, kind: Transaction.Kind, category: String, balance: String,
                method: String, description: String, amount: Int64, currency: Currency, counted: Int64, group: String, paidBy: String) {
        self.id = id; self.date = date; self.time = time; self.kind = kind; self.category = category
        self.balance = balance; self.method = method; self.description = description; self.amount = amount
        self.currency = currency; self.counted = counted; self.group = group; self.paidBy = paidBy
    }
}
