import EZCore

/// Computes every figure of a user's statement from their ``UserLedger``: pure, no I/O.
///
/// Dates: a row belongs to a period by its local date in the viewing user's time zone (a bare
/// date is that date for everyone). Money: each row or share is converted to the user's report
/// currency on its own date, then summed (see ``LedgerView``).
///
/// ```swift
/// let figures = try StatementAnalytics.statement(for: ledger, period: try Period.parse("2026-10", asOf: today), asOf: today)
/// figures.kpis.expenses   // minor units of figures.currency
/// ```
package enum StatementAnalytics {
    /// The last day whose rows a statement of `period` reads: the period's latest end for any
    /// month start day (the payday months of "2026-10"), or the as-of date when later (pace and
    /// projections look up to it).
    package static func readThrough(period: Period, asOf: CivilDate) -> CivilDate {
        max(period.latestEndForAnyMonthStart, asOf)
    }

    /// All figures of one user's statement for `period`, computed at `asOf`.
    ///
    /// A month period is first moved to the user's month start (``Period/startingMonths(onDay:)``:
    /// for a user paid on the 25th, `2026-10` is 25 Sep … 24 Oct); the figures carry that period.
    /// The trend is ``trendRange(for:)`` of the period; `kpis.previousExpenses` is the expenses of
    /// `period.previous`; `comparison` sets the period against `period.previous` and
    /// `period.yearEarlier`; `transactions` are the rows of transactions.csv ordered by (date, time, id).
    package static func statement(for ledger: UserLedger, period asked: Period, asOf: CivilDate) throws -> StatementFigures {
        let user = ledger.user
        let zone = user.zone
        let period = asked.startingMonths(onDay: user.monthStartDay)
        let range = trendRange(for: period)
        let previous = period.previous
        // The user's rows are loaded from the ledger's beginning; the view reads every date the
        // figures need: the trend's buckets (and theirs a year back), the compared periods, and
        // the year and week the budgets' windows may start in.
        let lo = [TrendBuilder.spanStart(from: range.from, bucket: range.bucket, monthStartDay: range.monthStartDay), previous.start,
                  period.yearEarlier.start,
                  CivilDate(year: period.start.year, month: 1, day: 1), period.start.startOfISOWeek].min()!
        let hi = max(range.through, period.end)
        var view = try LedgerView(ledger: ledger, zone: zone, currency: user.currency, from: lo, through: hi, rowsPeriod: period)

        let trend = try TrendBuilder.build(view: view, ledger: ledger, from: range.from, through: range.through,
                                           bucket: range.bucket, monthStartDay: range.monthStartDay, asOf: asOf)
        let now = try view.totals(from: period.start, through: period.end)
        let before = try view.totals(from: previous.start, through: previous.end)
        let (budgets, limit) = try BudgetAnalytics.build(view: view, ledger: ledger, period: period, asOf: asOf)
        let rows = view.takeRows(sortedBy: rowOrder)
        let net = now.income &- now.expenses
        let kpis = KPIs(income: now.income, expenses: now.expenses, net: net, savingsRate: Percent.of(net, now.income),
                        previousExpenses: before.expenses,
                        expensesChange: Apportion.change(from: before.expenses, to: now.expenses),
                        transactionCount: rows.count, limit: limit)
        return StatementFigures(
            user: ReportUser(user),
            period: period, asOf: asOf, currency: user.currency, kpis: kpis, trend: trend,
            balances: try BalanceAnalytics.series(ledger: ledger, days: view.ownDays, ends: trend.points.map(\.end)),
            categories: try CategorySharesBuilder.build(view: view, from: period.start, through: period.end),
            comparison: try ComparisonBuilder.build(view: view, period: period),
            budgets: budgets,
            savings: try SavingsAnalytics.build(ledger: ledger, zone: zone, days: view.ownDays, period: period),
            groups: try GroupAnalytics.build(ledger: ledger, zone: zone, period: period),
            family: try FamilyAnalytics.build(for: ledger, period: period, asOf: asOf),
            transactions: rows, quarantined: ledger.quarantined.sorted())
    }

    /// transactions.csv's order: by local date, then the stored time, then id.
    static func rowOrder(_ a: StatementRow, _ b: StatementRow) -> Bool {
        if a.date != b.date { return a.date < b.date }
        if a.time.sortKey != b.time.sortKey { return a.time.sortKey < b.time.sortKey }
        return a.id < b.id
    }

    /// The trend of `ledger` over `range` in `bucket`s (the general form the statement uses).
    ///
    /// Buckets run from the one containing `from` to the one containing `through`, the first and
    /// last clipped to the range; month buckets start on `monthStartDay` (1: calendar months).
    /// A user with no rows at all gets an empty series.
    package static func trend(for ledger: UserLedger, from: CivilDate, through: CivilDate, bucket: BucketKind,
                             monthStartDay: Int = 1, asOf: CivilDate) throws -> Trend {
        guard from <= through else { return Trend(bucket: bucket, points: [], categoryNames: []) }
        let view = try LedgerView(ledger: ledger, zone: ledger.user.zone, currency: ledger.user.currency,
                                  from: TrendBuilder.spanStart(from: from, bucket: bucket, monthStartDay: monthStartDay),
                                  through: through)
        return try TrendBuilder.build(view: view, ledger: ledger, from: from, through: through, bucket: bucket,
                                      monthStartDay: monthStartDay, asOf: asOf)
    }

    /// The trend a statement for `period` carries:
    /// - a month: the 12 months ending with it (months starting on the day the period's month does);
    /// - a quarter: the 12 months ending with its last month;
    /// - a year: its 12 months;
    /// - an ISO week: the 12 weeks ending with it;
    /// - a day: the 14 days ending with it;
    /// - a range: the range itself, by day up to 62 days, by week up to 26 weeks, by month up to
    ///   36 months, by year beyond.
    package static func trendRange(for period: Period)
        -> (from: CivilDate, through: CivilDate, bucket: BucketKind, monthStartDay: Int) {
        switch period.kind {
        case .month: return (period.start.adding(months: -11), period.end, .month, period.monthStartDay)
        case .quarter: return (period.end.startOfMonth.adding(months: -11), period.end, .month, 1)
        case .year: return (period.start, period.end, .month, 1)
        case .week: return (period.start.adding(days: -77), period.end, .week, 1)
        case .day: return (period.end.adding(days: -13), period.end, .day, 1)
        case .range:
            let days = period.dayCount
            let bucket: BucketKind = days <= 62 ? .day : days <= 182 ? .week : days <= 1096 ? .month : .year
            return (period.start, period.end, bucket, 1)
        }
    }
}
