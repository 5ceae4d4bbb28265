import EZCore

/// Savings goals: saved so far (the net of the goal's balance up to the period's end, in the
/// goal's currency), percent of target, whole months left to the due date, and the monthly
/// saving needed (rounded up to the minor unit, so that saving it each month reaches the target).
enum SavingsAnalytics {
    static func build(ledger: UserLedger, zone: ZoneRules, days: [Int32], period: Period) throws(AnalyticsError) -> [SavingsLine] {
        try ledger.savingsGoals.sorted { $0.id < $1.id }.map { g throws(AnalyticsError) in
            let saved = try BalanceAnalytics.value(of: g.balanceId, ledger: ledger, zone: zone, days: days, through: period.end, currency: g.currency)
            var monthsLeft: Int?
            var needed: Int64?
            if let due = g.dueOn {
                let months = wholeMonths(from: period.end, to: due)
                monthsLeft = months
                let missing = max(0, g.targetMinor &- saved)
                needed = months == 0 ? missing : (missing + Int64(months) - 1) / Int64(months)
            }
            return SavingsLine(goalId: g.id, name: g.name, currency: g.currency, target: g.targetMinor, saved: saved,
                               percent: Percent.of(saved, g.targetMinor), dueOn: g.dueOn, monthsLeft: monthsLeft,
                               monthlyNeeded: needed)
        }
    }

    /// Whole calendar months from `a` to `b` (0 when `b` is not after `a`): the largest m with a + m months ≤ b.
    static func wholeMonths(from a: CivilDate, to b: CivilDate) -> Int {
        guard b > a else { return 0 }
        var m = (b.year - a.year) * 12 + (b.month - a.month)
        if a.adding(months: m) > b { m -= 1 }
        return max(0, m)
    }
}
