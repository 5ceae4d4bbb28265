import EZCore

/// Aggregates the admin usage report one user at a time, keeping only counts and sums: no id,
/// username, e-mail or row of anyone leaves it. Any figure about fewer than
/// ``UsageFigures/minimumUsers`` users is `.suppressed` (printed `<5`).
///
/// Definitions (each user's dates in their own zone):
/// - months: the 12 calendar months ending with the period's last month, each counted whole
///   (see ``readThrough(period:asOf:)``);
/// - total: created on or before the month's end and not deleted by then; new / deleted: created /
///   deleted in the month;
/// - active: created a transaction (created_at) or signed in during the month; MAU: signed in;
/// - transactions: rows created in the month (shown when at least 5 users created some);
/// - volume: expenses (own rows outside groups plus group shares, as in statements) by their local
///   date, converted to the report currency row by row (shown when at least 5 users spent);
/// - budgets over: the share of budget windows ending in the month whose spending went over
///   (withheld when the users who went over, or those who did not, number one to four);
/// - p50 / p90: nearest-rank percentiles of the month's spend per active user, each shown only
///   when it is neither one of the 4 highest nor one of the 4 lowest spends (see
///   ``showsPercentile(rank:of:)``);
/// - top categories: the 10 category names with the largest expense volume in the period's months
///   (whole, as the months are), among names used by at least 5 users (a rarer name could
///   identify its user, so it is never listed), less the smallest of them while the spend under
///   the names left unlisted is one to four users' (see ``UsageFigures/topCategoriesHeldBack``);
///   for a period of several months, only names each of its months' own reports lists;
/// - groups and families: members at the period's end (a size class is suppressed when it covers
///   fewer than 5 people); cohorts: users by creation month, and the share active k months later (withheld when the
///   active, or the inactive, number one to four).
///
/// ```swift
/// var usage = UsageAccumulator(period: period, asOf: today)
/// for ledger in everyUser { try usage.add(ledger) }
/// let figures = usage.finish()
/// ```
package struct UsageAccumulator: Sendable {
    private let period: Period
    private let asOf: CivilDate
    private let currency: Currency
    private let months: [CivilDate]
    private let firstMonthKey: Int
    private var total = [Int](repeating: 0, count: 12), new = [Int](repeating: 0, count: 12)
    private var deleted = [Int](repeating: 0, count: 12), active = [Int](repeating: 0, count: 12)
    private var mau = [Int](repeating: 0, count: 12)
    private var transactions = [Int](repeating: 0, count: 12), transactionUsers = [Int](repeating: 0, count: 12)
    private var volume = [Int64](repeating: 0, count: 12), volumeUsers = [Int](repeating: 0, count: 12)
    private var windows = [Int](repeating: 0, count: 12), windowsOver = [Int](repeating: 0, count: 12)
    private var budgetUsers = [Int](repeating: 0, count: 12)
    /// Users with a budget window ending in the month that went over.
    private var budgetOverUsers = [Int](repeating: 0, count: 12)
    private var spend: [[Int64]] = Array(repeating: [], count: 12)
    /// The spend under each category name in the period's months, whole.
    private var categories = CategoryTally()
    /// The same for each of the period's months, when it has more than one (by offset from its
    /// first): a name is listed only when each month's own report lists it (see ``finish()``).
    private var monthCategories: [CategoryTally] = []
    private var groupSizes: [Int64: Int] = [:]
    private var familyMembers: [Int64: Int] = [:]
    private var cohortSize = [Int](repeating: 0, count: 12)
    private var cohortActive: [[Int]] = Array(repeating: [Int](repeating: 0, count: 12), count: 12)
    /// The month slots the period touches, as a bit mask (see ``UsageFigures/periodMonths``).
    private let periodMask: UInt16
    private var activeInPeriod = 0

    /// The last day whose rows the report needs: the end of the period's last month (or the
    /// as-of date, when later). Every month is counted whole, whatever day the period ends on:
    /// cut at a day, two reports a day apart would differ by that one day's rows, which may be
    /// one person's, where every cell of each is about five users or more.
    package static func readThrough(period: Period, asOf: CivilDate) -> CivilDate {
        max(period.end.endOfMonth, asOf)
    }

    /// Starts an empty report for `period` (its last month is the last of the 12), converted to `currency`.
    package init(period: Period, asOf: CivilDate, currency: Currency = .eur) {
        self.period = period; self.asOf = asOf; self.currency = currency
        let last = period.end.startOfMonth
        months = (0..<12).map { last.adding(months: $0 - 11) }
        firstMonthKey = Self.key(months[0])
        periodMask = ((12 - UsageFigures.monthsTouched(by: period))..<12).reduce(0) { $0 | 1 << $1 }
        let periodMonths = Self.key(period.end.startOfMonth) - Self.key(period.start.startOfMonth) + 1
        if periodMonths > 1 { monthCategories = Array(repeating: CategoryTally(), count: periodMonths) }
    }

    private static func key(_ d: CivilDate) -> Int { let c = d.components; return c.year * 12 + c.month - 1 }

    /// The month slot (0...11) of `d`, or nil outside the 12 months.
    private func slot(_ d: CivilDate) -> Int? {
        let k = Self.key(d) - firstMonthKey
        return (0..<12).contains(k) ? k : nil
    }

    /// Adds one user (call for every user, including soft-deleted ones: their User has deletedAt set).
    ///
    /// All or nothing: everything that can fail (converting the user's rows into the report's
    /// currency, a sum that would overflow, their budgets) is computed first, and only then is
    /// any figure changed. A user left out (see ``leaveOut()``) is in none of the figures, not
    /// counted as active in one column and missing from the volume in another.
    package mutating func add(_ ledger: UserLedger) throws {
        let user = ledger.user
        let zone = user.zone
        let created = user.createdAt.localDate(in: zone)
        let gone = user.deletedAt?.localDate(in: zone)

        // Activity by month: rows created, sign-ins.
        var made = [Int](repeating: 0, count: 12)
        var signedIn: UInt16 = 0
        for tx in ledger.transactions { if let m = slot(tx.createdAt.localDate(in: zone)) { made[m] += 1 } }
        for t in ledger.logins { if let m = slot(t.localDate(in: zone)) { signedIn |= 1 << m } }
        var activeMask: UInt16 = signedIn
        for m in 0..<12 where made[m] > 0 { activeMask |= 1 << m }

        // Spending, converted row by row into the report currency (may throw: nothing changed yet).
        let lastEnd = months[11].endOfMonth
        // Top categories count the period's months whole, as the months' table does: a report
        // cut at a day differed from the next day's by that day's rows, which may be one person's.
        let wholeMonths = Period(kind: .range, start: period.start.startOfMonth, end: period.end.endOfMonth)
        let from = min(months[0], wholeMonths.start)
        let view = try LedgerView(ledger: ledger, zone: zone, currency: currency, from: from, through: max(lastEnd, wholeMonths.end))
        var monthSpend = [Int64](repeating: 0, count: 12)
        var byCategory = [Int64](repeating: 0, count: view.categories.count)
        // The same by the period's months (an offset from its first), when it has several.
        var byMonth = [[Int64]](repeating: [Int64](repeating: 0, count: view.categories.count), count: monthCategories.count)
        let firstKey = Self.key(wholeMonths.start)
        for e in view.entries where e.kind == .expense {
            let d = CivilDate(dayNumber: e.day)
            if let m = slot(d) { monthSpend[m] = try checkedAdd(monthSpend[m], e.counted, user: user.id) }
            if wholeMonths.contains(d) {
                byCategory[Int(e.category)] = try checkedAdd(byCategory[Int(e.category)], e.counted, user: user.id)
                if !byMonth.isEmpty {
                    let k = Self.key(d) - firstKey
                    byMonth[k][Int(e.category)] = try checkedAdd(byMonth[k][Int(e.category)], e.counted, user: user.id)
                }
            }
        }
        var newVolume = volume
        for m in 0..<12 where monthSpend[m] > 0 { newVolume[m] = try checkedAdd(volume[m], monthSpend[m], user: user.id) }
        var newCategories = categories
        try newCategories.add(byCategory, names: view.categories.names, user: user.id)
        var newMonthCategories = monthCategories
        for k in byMonth.indices { try newMonthCategories[k].add(byMonth[k], names: view.categories.names, user: user.id) }

        // Budget windows ending in each month, in the user's own currency (may throw too).
        let budgetSpan = Period(kind: .range, start: months[0], end: lastEnd)
        var budgetLines: [BudgetLine] = []
        if !ledger.budgets.isEmpty || user.monthlyLimitMinor != nil {
            // A window may start up to a month before the first month (a user paid on the 25th).
            let bfrom = min(CivilDate(year: months[0].year, month: 1, day: 1), months[0].startOfISOWeek,
                            months[0].adding(months: user.monthStartDay > 1 ? -1 : 0))
            let own = user.currency == currency && bfrom >= from
                ? view : try LedgerView(ledger: ledger, zone: zone, currency: user.currency, from: bfrom, through: lastEnd)
            budgetLines = try BudgetAnalytics.build(view: own, ledger: ledger, period: budgetSpan, asOf: asOf).lines
        }

        // Nothing below can fail: the user is counted everywhere at once.
        for i in 0..<12 {
            let end = months[i].endOfMonth
            if created <= end && (gone.map { $0 > end } ?? true) { total[i] += 1 }
        }
        if let c = slot(created), created <= period.end.endOfMonth { new[c] += 1 }
        if let g = gone, let d = slot(g) { deleted[d] += 1 }
        for m in 0..<12 where made[m] > 0 { transactions[m] += made[m]; transactionUsers[m] += 1 }
        for m in 0..<12 {
            if signedIn & (1 << m) != 0 { mau[m] += 1 }
            if activeMask & (1 << m) != 0 { active[m] += 1 }
        }
        if activeMask & periodMask != 0 { activeInPeriod += 1 }
        volume = newVolume
        for m in 0..<12 {
            if monthSpend[m] > 0 { volumeUsers[m] += 1 }
            if activeMask & (1 << m) != 0 { spend[m].append(monthSpend[m]) }
        }
        categories = newCategories
        monthCategories = newMonthCategories
        var counted: UInt16 = 0, wentOver: UInt16 = 0
        for l in budgetLines {
            guard let m = slot(l.windowEnd) else { continue }
            windows[m] += 1
            counted |= 1 << m
            if l.status == .over { windowsOver[m] += 1; wentOver |= 1 << m }
        }
        for m in 0..<12 where counted & (1 << m) != 0 { budgetUsers[m] += 1 }
        for m in 0..<12 where wentOver & (1 << m) != 0 { budgetOverUsers[m] += 1 }

        // Groups (each once, whichever member brings it) and families, at the period's end.
        let end = period.end
        for g in ledger.groups where groupSizes[g.group.id] == nil {
            groupSizes[g.group.id] = g.members.filter { $0.joinedOn <= end && ($0.leftOn.map { $0 > end } ?? true) }.count
        }
        if let f = ledger.family, created <= end, gone.map({ $0 > end }) ?? true { familyMembers[f.familyId, default: 0] += 1 }

        // Sign-up cohort.
        if let c = slot(created) {
            cohortSize[c] += 1
            for k in 0..<(12 - c) where activeMask & (1 << (c + k)) != 0 { cohortActive[c][k] += 1 }
        }
    }

    /// Users ``add(_:)`` could not count (their rows do not convert into the report's currency,
    /// a sum overflows, their rows could not be read): the report says how many are missing.
    package private(set) var usersLeftOut = 0

    /// Records a user who could not be added: the report is then marked incomplete.
    package mutating func leaveOut() { usersLeftOut += 1 }

    /// Whether the nearest-rank percentile at `rank` (1-based) of `count` sorted spends is shown.
    ///
    /// Such a percentile is one user's own monthly spend, so a population of 5 is not enough: the
    /// 90th percentile of 5 to 9 users is the month's highest spend. It is shown only when at
    /// least ``UsageFigures/minimumUsers`` users (its own among them) spent no more than it and as
    /// many no less: never one of the 4 highest or 4 lowest spends. The median then needs 9
    /// active users, the 90th percentile 40.
    static func showsPercentile(rank: Int, of count: Int) -> Bool {
        let minimum = UsageFigures.minimumUsers
        return rank >= minimum && count - rank + 1 >= minimum
    }

    /// The figures, with every cell about fewer than 5 users suppressed.
    package func finish() -> UsageFigures {
        let minimum = UsageFigures.minimumUsers
        func guarded(_ n: Int) -> Guarded<Int> { n < minimum ? .suppressed : .shown(n) }
        func guarded<V>(_ v: V, users: Int) -> Guarded<V> { users < minimum ? .suppressed : .shown(v) }
        let rows = (0..<12).map { m in
            let sorted = spend[m].sorted()
            func percentile(_ p: Int) -> Guarded<Int64> {
                let rank = max(1, (sorted.count * p + 99) / 100)
                return Self.showsPercentile(rank: rank, of: sorted.count) ? .shown(sorted[rank - 1]) : .suppressed
            }
            // A count shown beside the month's total tells its complement too: 49 users and 47
            // active said that exactly two did nothing. An active count whose complement is one to
            // four users is withheld, and so is a MAU count that leaves one to four users of the
            // total, or of the active count when that is shown, unaccounted for.
            let activeShown = active[m] >= minimum && !Self.isSmallComplement(total[m] - active[m])
            let mauShown = mau[m] >= minimum && !Self.isSmallComplement(total[m] - mau[m])
                && !(activeShown && Self.isSmallComplement(active[m] - mau[m]))
            return UsageMonth(
                month: months[m], usersTotal: guarded(total[m]), usersNew: guarded(new[m]), usersDeleted: guarded(deleted[m]),
                usersActive: activeShown ? .shown(active[m]) : .suppressed, mau: mauShown ? .shown(mau[m]) : .suppressed,
                transactions: guarded(transactions[m], users: transactionUsers[m]),
                volume: guarded(volume[m], users: volumeUsers[m]),
                budgetsOverShare: budgetUsers[m] < minimum || windows[m] == 0 || Self.isSmallComplement(budgetOverUsers[m])
                    || Self.isSmallComplement(budgetUsers[m] - budgetOverUsers[m])
                    ? .suppressed : .shown(Percent.of(Int64(windowsOver[m]), Int64(windows[m]))!),
                spendP50: percentile(50), spendP90: percentile(90))
        }
        // Each report's list leaves out names so that the spend outside it is never one to four
        // users' (see ``CategoryTally/listing()``). A period of several months lists only names
        // that each of its months' own reports lists: its list less the other months' lists is a
        // month's figure, which its own report left out (a week straddling March and April, less
        // April, gave one to four users' March spend under "İstanbul"; a two-day range across a
        // month's end, less the first month, a name September's report held back, and with it the
        // rest of September's unlisted spend: outside figures re-tests).
        var (names, heldBack) = categories.listing()
        if !monthCategories.isEmpty {
            // A month nobody spent in (a year's months still to come, a range's before the first
            // row) tells nothing and holds nothing back: its empty list would empty every list.
            let everyMonth = monthCategories.filter { !$0.volumes.isEmpty }
                .map { Set($0.listing().names) }.reduce(Set(categories.volumes.keys)) { $0.intersection($1) }
            let eligible = categories.listing(among: everyMonth)
            heldBack = max(heldBack, names.filter { !eligible.names.contains($0) }.count)
            names = eligible.names
        }
        let top = names.map { name in
            CategoryVolume(name: name, volume: .shown(categories.volumes[name]!.volume), users: .shown(categories.volumes[name]!.users))
        }
        func histogram(_ sizes: some Sequence<Int>) -> [SizeCount] {
            var h: [Int: Int] = [:]
            for s in sizes where s > 0 { h[s, default: 0] += 1 }
            return h.keys.sorted().map { s in SizeCount(size: s, count: h[s]! * s < minimum ? .suppressed : .shown(h[s]!)) }
        }
        let cohorts = (0..<12).map { c in
            CohortRow(month: months[c], size: guarded(cohortSize[c]),
                      retention: (0..<(12 - c)).map { k in
                          // A share of a cohort counts people too: 1 of 6 active (16.7 %) or 5 of 6
                          // (83.3 %) tells of one person, so a share whose active users or whose
                          // inactive ones number one to four is withheld, as an active count is.
                          cohortSize[c] < minimum || Self.isSmallComplement(cohortActive[c][k])
                              || Self.isSmallComplement(cohortSize[c] - cohortActive[c][k])
                              ? .suppressed : .shown(Percent.of(Int64(cohortActive[c][k]), Int64(cohortSize[c]))!)
                      })
        }
        var figures = UsageFigures(period: period, asOf: asOf, currency: currency, months: rows, topCategories: top,
                                   groupSizes: histogram(groupSizes.values), familySizes: histogram(familyMembers.values),
                                   cohorts: cohorts)
        figures.usersLeftOut = usersLeftOut
        figures.topCategoriesHeldBack = heldBack
        let totalAtEnd = total[11]
        figures.activeInPeriod = activeInPeriod >= minimum && !Self.isSmallComplement(totalAtEnd - activeInPeriod)
            ? .shown(activeInPeriod) : .suppressed
        return figures
    }

    /// Whether `difference` (a total less a count shown beside it) is about one to four users:
    /// then the count would tell that small group's size, so it is withheld.
    static func isSmallComplement(_ difference: Int) -> Bool {
        difference > 0 && difference < UsageFigures.minimumUsers
    }
}
