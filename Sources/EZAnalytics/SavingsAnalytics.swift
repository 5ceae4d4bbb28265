import EZCore

/// Savings goals: saved so far, percent of target, whole months left to the due date, and the
/// monthly saving needed (rounded up to the minor unit, so that saving it each month reaches the target).
///
/// Saved is the goal's balance (its net up to the period's end, in the goal's currency). Goals
/// that share one balance share its money rather than each claiming all of it: the balance fills
/// them in order of due date (undated goals last, then by id), each up to its target, and what is
/// left over — more than every target, or a negative balance — stays with the last goal. So the
/// goals of a balance always add up to exactly that balance.
enum SavingsAnalytics {
    static func build(ledger: UserLedger, zone: ZoneRules, days: [Int32], period: Period) throws(AnalyticsError) -> [SavingsLine] {
        var saved: [Int64: Int64] = [:]   // goal id → its share of the balance
        let pools = Dictionary(grouping: ledger.savingsGoals) { "\($0.balanceId)|\($0.currency.code)" }
        for key in pools.keys.sorted() {
            let goals = pools[key]!.sorted { a, b in
                switch (a.dueOn, b.dueOn) {
                case let (x?, y?) where x != y: return x < y
                case (_?, nil): return true
                case (nil, _?): return false
                default: return a.id < b.id
                }
            }
            var left = try BalanceAnalytics.value(of: goals[0].balanceId, ledger: ledger, zone: zone, days: days,
                                                  through: period.end, currency: goals[0].currency)
            for (i, g) in goals.enumerated() {
                let share = i == goals.count - 1 ? left : min(max(left, 0), g.targetMinor)
                saved[g.id] = share
                left -= share   // share is between 0 and left (or exactly left): no overflow
            }
        }
        return ledger.savingsGoals.sorted { $0.id < $1.id }.map { g in
            let saved = saved[g.id] ?? 0
            var monthsLeft: Int?
            var needed: Int64?
            if let due = g.dueOn {
                let months = wholeMonths(from: period.end, to: due)
                monthsLeft = months
                let missing = saved >= g.targetMinor ? 0 : g.targetMinor - max(saved, 0)
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
