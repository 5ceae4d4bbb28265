import EZCore

/// Savings goals: saved so far, percent of target, whole months left to the due date, and the
/// monthly saving needed (rounded up to the minor unit, so that saving it each month reaches the target).
///
/// Saved is the goal's share of its balance at the period's end. Goals that share one balance
/// share its money rather than each claiming all of it: the balance fills them in order of due
/// date (undated goals last, then by id), each up to its target, and what is left over — more
/// than every target, or a negative balance — stays with the last goal. So the goals of a balance
/// always add up to exactly that balance.
///
/// The sharing is done in the balance's own currency. A goal in another currency has its target
/// converted into the balance's currency, and its share converted back, at the rate of the
/// period's end (the latest on or before it): what the money is worth then, not what it cost. A
/// period that ends before the pair's first rate converts at that first rate (a goal has no date
/// of its own; failing the whole statement for it helped no one). A goal filled to its target
/// shows exactly its target.
enum SavingsAnalytics {
    static func build(ledger: UserLedger, zone: ZoneRules, days: [Int32], period: Period) throws(AnalyticsError) -> [SavingsLine] {
        let user = ledger.user.id
        var saved: [Int64: Int64] = [:]   // goal id → its share of the balance, in the goal's currency
        let pools = Dictionary(grouping: ledger.savingsGoals) { $0.balanceId }
        for balanceId in pools.keys.sorted() {
            let goals = pools[balanceId]!.sorted { a, b in
                switch (a.dueOn, b.dueOn) {
                case let (x?, y?) where x != y: return x < y
                case (_?, nil): return true
                case (nil, _?): return false
                default: return a.id < b.id
                }
            }
            let currency = ledger.balances.first { $0.id == balanceId }?.currency ?? goals[0].currency
            func converted(_ minor: Int64, _ from: Currency, _ to: Currency, goal: SavingsGoal) throws(AnalyticsError) -> Int64 {
                var day = period.end
                if from != to, ledger.rates.rate(from: from, to: to, on: day) == nil, let first = ledger.rates.firstDay(between: from, to) {
                    day = max(day, first)
                }
                do { return try ledger.rates.convert(minor, from: from, to: to, on: day) } catch {
                    throw AnalyticsError(userId: user, reason: "savings goal #\(goal.id): \(error.description)")
                }
            }
            var left = try BalanceAnalytics.value(of: balanceId, ledger: ledger, zone: zone, days: days,
                                                  through: period.end, currency: currency)
            for (i, g) in goals.enumerated() {
                let capacity = try converted(g.targetMinor, g.currency, currency, goal: g)
                let share = i == goals.count - 1 ? left : min(max(left, 0), capacity)
                saved[g.id] = share == capacity ? g.targetMinor : try converted(share, currency, g.currency, goal: g)
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
