import EZCore

/// A figure of the admin usage report that may be withheld: any figure about fewer than
/// ``UsageFigures/minimumUsers`` users is suppressed and printed as `<5`.
package enum Guarded<Value: Hashable & Sendable>: Hashable, Sendable {
    case shown(Value)
    case suppressed

    /// The value, or nil when suppressed.
    package var value: Value? { if case .shown(let v) = self { return v }; return nil }
}

/// Aggregate usage of the whole ledger, for admins. Nothing in it identifies a person:
/// no ids, usernames, e-mails or individual transactions; small cells are suppressed.
package struct UsageFigures: Hashable, Sendable {
    /// Figures about fewer users than this are suppressed.
    package static let minimumUsers = 5

    /// The report period (its months are the last of `months`).
    package var period: Period
    package var asOf: CivilDate
    /// The currency volumes and spend are converted to (EUR unless asked otherwise).
    package var currency: Currency
    /// One row per month, oldest first: the 12 months ending with the period's last month.
    package var months: [UsageMonth]
    /// The 10 category names with the largest expense volume across users in the period (fewer
    /// when some are held back: see ``topCategoriesHeldBack``).
    package var topCategories: [CategoryVolume]
    /// How many groups have n members (live members at the period's end), by size ascending.
    package var groupSizes: [SizeCount]
    /// How many families have n members, by size ascending.
    package var familySizes: [SizeCount]
    /// Monthly sign-up cohorts and the share of each still active k months later.
    package var cohorts: [CohortRow]
    /// Users active (a transaction created or a sign-in) in any of the months the period
    /// touches, each counted once: a quarter's or a year's active users, which the months'
    /// own counts cannot give (a user active in three months is in all three).
    package var activeInPeriod: Guarded<Int> = .suppressed
    /// Users left out of every figure because their rows could not be read or converted into
    /// ``currency``: when not 0 the report is incomplete and says so.
    package var usersLeftOut = 0
    /// Rows the pass found breaking the ledger contract (left out of every figure, as from the
    /// statements): a count only, in the workbook's About sheet; `admin` exits 3 for them as every
    /// command does.
    package var rowsQuarantined = 0
    /// How many of the ten largest names used by five users or more ``topCategories`` leaves
    /// out: the smallest, so that the spend under the names not listed is never one to four
    /// users' (the period's volume less the listed categories' would be theirs, in this report or
    /// beside the next one, which shows this period's months' volumes too).
    package var topCategoriesHeldBack = 0
    package init(period: Period, asOf: CivilDate, currency: Currency, months: [UsageMonth], topCategories: [CategoryVolume],
                groupSizes: [SizeCount], familySizes: [SizeCount], cohorts: [CohortRow]) {
        self.period = period; self.asOf = asOf; self.currency = currency; self.months = months
        self.topCategories = topCategories; self.groupSizes = groupSizes; self.familySizes = familySizes; self.cohorts = cohorts
    }

    /// The rows of ``months`` that the period touches, oldest first: one for a month, a week or
    /// a day (the month holding its end for a week that straddles two), three for a quarter,
    /// twelve for a year, and a range's months up to the last twelve.
    package var periodMonths: ArraySlice<UsageMonth> { months.suffix(Self.monthsTouched(by: period)) }

    /// How many of the 12 months, counted back from the period's last, the period's tiles cover.
    package static func monthsTouched(by period: Period) -> Int {
        switch period.kind {
        case .day, .week: return 1
        case .month, .quarter, .year, .range:
            let (s, e) = (period.start.components, period.end.components)
            return min(12, max(1, (e.year - s.year) * 12 + e.month - s.month + 1))
        }
    }
}

/// One month of the usage report (the columns of usage.csv).
package struct UsageMonth: Hashable, Sendable {
    /// The month's first day.
    package var month: CivilDate
    /// Users created on or before the month's end and not deleted by then.
    package var usersTotal: Guarded<Int>
    package var usersNew: Guarded<Int>
    package var usersDeleted: Guarded<Int>
    /// Users who made a transaction or signed in during the month.
    package var usersActive: Guarded<Int>
    /// Users who signed in during the month.
    package var mau: Guarded<Int>
    /// Transactions created in the month.
    package var transactions: Guarded<Int>
    /// Expense volume in the month, in the report currency's minor units.
    package var volume: Guarded<Int64>
    /// Share of budget windows ending in the month that went over.
    package var budgetsOverShare: Guarded<Percent>
    /// Median and 90th percentile of monthly spend per active user.
    package var spendP50: Guarded<Int64>
    package var spendP90: Guarded<Int64>
    package init(month: CivilDate, usersTotal: Guarded<Int>, usersNew: Guarded<Int>, usersDeleted: Guarded<Int>,
                usersActive: Guarded<Int>, mau: Guarded<Int>, transactions: Guarded<Int>, volume: Guarded<Int64>,
                budgetsOverShare: Guarded<Percent>, spendP50: Guarded<Int64>, spendP90: Guarded<Int64>) {
        self.month = month; self.usersTotal = usersTotal; self.usersNew = usersNew; self.usersDeleted = usersDeleted
        self.usersActive = usersActive; self.mau = mau; self.transactions = transactions; self.volume = volume
        self.budgetsOverShare = budgetsOverShare; self.spendP50 = spendP50; self.spendP90 = spendP90
    }
}

/// A category name's expense volume across users.
package struct CategoryVolume: Hashable, Sendable {
    package var name: String
    package var volume: Guarded<Int64>
    /// How many users have expenses in it.
    package var users: Guarded<Int>
    package init(name: String, volume: Guarded<Int64>, users: Guarded<Int>) { self.name = name; self.volume = volume; self.users = users }
}

/// How many groups (or families) have `size` members.
package struct SizeCount: Hashable, Sendable {
    package var size: Int
    package var count: Guarded<Int>
    package init(size: Int, count: Guarded<Int>) { self.size = size; self.count = count }
}

/// One sign-up cohort: users created in `month`, and the share of them active k months later.
package struct CohortRow: Hashable, Sendable {
    package var month: CivilDate
    package var size: Guarded<Int>
    /// `retention[k]`: share of the cohort active in month `month + k` (k = 0 is the sign-up month).
    package var retention: [Guarded<Percent>]
    package init(month: CivilDate, size: Guarded<Int>, retention: [Guarded<Percent>]) {
        self.month = month; self.size = size; self.retention = retention
    }
}
