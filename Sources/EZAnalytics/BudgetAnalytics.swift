import EZCore

/// Budget consumption: each budget over each of its own windows that overlap a period.
///
/// - Windows are months (starting on the user's `monthStartDay`: calendar months unless they
///   are paid on another day), ISO weeks (from Monday) or calendar years. One row per category
///   (or overall), kind and window: when several budgets of a category and kind overlap one
///   window (a budget revised part-way through it), the window counts once, with the amount of
///   the one that started last. A window is clipped to the days its budgets cover (a budget that
///   starts or ends part-way through it).
/// - Each window is measured at its **cut-off**, the end of the report's period or of the window,
///   whichever comes first: `spent` counts the window's expenses (category budgets: that
///   category's, by name; overall: all) up to it. The share elapsed, and the pace that `projected`
///   extrapolates, are taken at the cut-off or the as-of date, whichever is earlier; a projection
///   is never below what was already spent.
/// - Transfers are the budget transfers whose `periodStart` falls in the window (the contract
///   names its first day; a day inside it counts for it too, unless a window of another kind of
///   the category's budgets starts on that day: then that window alone; when windows of several
///   kinds start on it, or hold it, the shortest), on both sides alike, in
///   the user's currency whatever the budgets' (so a move takes from one what it gives the other).
/// - When no overall budget is active in the period and the user has a monthly limit, the limit is
///   reported as an overall monthly budget with `budgetId` 0.
/// - Amounts are in the view's currency; a budget in another currency is converted at the rate of
///   its window's first day.
/// - Status: over when spent > effective, warning at ≥ 80 %, else ok. An effective budget of 0 (or
///   less) has no percent and is over as soon as anything is spent.
enum BudgetAnalytics {
    /// The budget id reported for the overall budget made from the user's monthly limit.
    static let monthlyLimitId: Int64 = 0

    /// Budget lines and the overall limit for the period.
    static func build(view: LedgerView, ledger: UserLedger, period: Period, asOf: CivilDate) throws(AnalyticsError)
        -> (lines: [BudgetLine], limit: LimitStatus?) {
        var budgets = ledger.budgets.filter { b in
            b.startsOn <= period.end && (b.endsOn.map { $0 >= period.start } ?? true)
        }
        if !budgets.contains(where: { $0.categoryId == nil }), let limit = ledger.user.monthlyLimitMinor {
            budgets.append(Budget(id: monthlyLimitId, userId: ledger.user.id, categoryId: nil, period: .month,
                                  amountMinor: limit, currency: ledger.user.currency,
                                  startsOn: CivilDate(dayNumber: Int32.min / 2), endsOn: nil))
        }
        var lines: [(order: Int32, kind: Budget.Period, line: BudgetLine)] = []
        let day = ledger.user.monthStartDay
        let families = Dictionary(grouping: budgets) { BudgetFamily(categoryId: $0.categoryId, period: $0.period) }
        // A window is clipped to the days *any* budget of its family covers, also one that ended
        // before the period began: a budget revised on the 10th covers the whole payday month in
        // the statement of its last week too, not just from the 10th (the statement of the month
        // and that of its last week must show one window).
        let everyBudget = Dictionary(grouping: ledger.budgets) { BudgetFamily(categoryId: $0.categoryId, period: $0.period) }
        for family in families.keys.sorted() {
            var members = families[family]!
            if !members.contains(where: { $0.id == monthlyLimitId }) {
                let known = Set(members.map(\.id))
                members += (everyBudget[family] ?? []).filter { !known.contains($0.id) }
            }
            var category: Int32? = nil
            if let id = family.categoryId {
                guard let c = view.categories.liveIndex(categoryId: id) else { continue }   // deleted category
                category = c
            }
            let first = members.map(\.startsOn).min()!
            var s = start(of: max(period.start, first), family.period, monthStartDay: day)
            while s <= period.end {
                let natural = next(after: s, family.period).adding(days: -1)
                let overlapping = members.filter { $0.startsOn <= natural && ($0.endsOn.map { $0 >= s } ?? true) }
                if let chosen = overlapping.max(by: { ($0.startsOn, $0.id) < ($1.startsOn, $1.id) }) {
                    let ws = max(s, overlapping.map(\.startsOn).min()!)
                    let we = overlapping.contains { $0.endsOn == nil } ? natural : min(natural, overlapping.compactMap(\.endsOn).max()!)
                    // Only the windows whose covered days meet the period are its rows.
                    guard ws <= period.end && we >= period.start else { s = next(after: s, family.period); continue }
                    let covered = Coverage(overlapping, from: ws, through: we)
                    let line = try self.line(budget: chosen, category: category, windowStart: ws, windowEnd: we, calendarStart: s,
                                             calendarEnd: natural, covered: covered, view: view, ledger: ledger,
                                             cutOff: min(we, period.end), asOf: asOf)
                    lines.append((category.map { $0 + 1 } ?? 0, family.period, line))
                }
                s = next(after: s, family.period)
            }
        }
        lines.sort { a, b in
            if a.order != b.order { return a.order < b.order }
            if a.line.windowStart != b.line.windowStart { return a.line.windowStart < b.line.windowStart }
            return a.line.budgetId < b.line.budgetId
        }
        // The header's limit: the overall monthly windows (else the overall windows of one kind). A
        // week's or a day's statement shows the one window holding its last day (summing the two
        // months a week straddles gave a limit nobody has); a longer period sums its windows.
        let overall = lines.filter { $0.line.categoryName == nil }
        let kind = overall.contains { $0.kind == .month } ? Budget.Period.month : overall.first?.kind
        var chosen = overall.filter { $0.kind == kind }.map(\.line)
        if period.kind == .week || period.kind == .day,
           let last = chosen.last(where: { $0.windowStart <= period.end && $0.windowEnd >= period.end }) {
            chosen = [last]
        }
        var limit: LimitStatus?
        if !chosen.isEmpty {
            var eff: Int64 = 0, spent: Int64 = 0
            for c in chosen {
                eff = try checkedAdd(eff, c.effective, user: view.userId)
                spent = try checkedAdd(spent, c.spent, user: view.userId)
            }
            let (p, st) = status(spent: spent, effective: eff)
            limit = LimitStatus(limit: eff, spent: spent, percent: p, status: st, kind: kind ?? .month, windows: chosen.count)
        }
        return (lines.map(\.line), limit)
    }

    /// One window's row: `calendarStart...calendarEnd` is the natural window, `ws...we` the part
    /// its budgets cover, `covered` the days of it some budget holds (all of them unless a budget
    /// ended and the next began later), `cutOff` the last day whose expenses count (see the type's comment).
    static func line(budget b: Budget, category: Int32?, windowStart ws: CivilDate, windowEnd we: CivilDate,
                     calendarStart: CivilDate, calendarEnd: CivilDate, covered: Coverage, view: LedgerView, ledger: UserLedger,
                     cutOff: CivilDate, asOf: CivilDate) throws(AnalyticsError) -> BudgetLine {
        let user = view.userId
        func converted(_ minor: Int64) throws(AnalyticsError) -> Int64 {
            if b.currency == view.currency { return minor }
            do {
                return try ledger.rates.convert(minor, from: b.currency, to: view.currency, on: calendarStart)
            } catch {
                throw AnalyticsError(userId: user, reason: "budget #\(b.id): \(error.description)")
            }
        }
        var tIn: Int64 = 0, tOut: Int64 = 0
        if let cid = b.categoryId {
            // The move's day must be one the budget covers (`ws...we`), or the natural window's
            // first day, which the app writes as `period_start`: a budget that ended on the 15th
            // took a move dated the 31st, a day it did not cover (outside audit).
            // A day inside this window names it only when no window of the category's budgets of
            // another kind starts on that day: a move dated on a weekly budget's Monday changes that
            // week, not also the month holding the Monday (it was taken twice from a category with
            // both, and given once to the other side).
            // A day inside windows of two kinds on which neither starts names the shorter (the
            // week): it was taken from both, and given once to the other side (outside audit).
            // A day on which windows of two kinds start (a Monday the 1st; the 1st of January)
            // names the shorter too: it was given to (or taken from) both (outside figures test).
            for t in ledger.budgetTransfers
            where (t.periodStart == calendarStart
                   && !someWindowStarts(on: t.periodStart, categoryId: cid, budgets: ledger.budgets,
                                        monthStartDay: ledger.user.monthStartDay, shorterThan: b.period))
                || (covered.contains(t.periodStart)
                    && !someWindowStarts(on: t.periodStart, categoryId: cid, budgets: ledger.budgets, monthStartDay: ledger.user.monthStartDay)
                    && !shorterBudgetHolds(t.periodStart, categoryId: cid, than: b.period, budgets: ledger.budgets)) {
                if t.toCategoryId == cid { tIn = try checkedAdd(tIn, t.amountMinor, user: user) }
                if t.fromCategoryId == cid { tOut = try checkedAdd(tOut, t.amountMinor, user: user) }
            }
        }
        // A move has no currency of its own: it is in the user's currency (what the app shows
        // budgets in), the same on both sides, whatever currency either budget is set in.
        func fromUserCurrency(_ minor: Int64) throws(AnalyticsError) -> Int64 {
            let own = ledger.user.currency
            if own == view.currency { return minor }
            do {
                return try ledger.rates.convert(minor, from: own, to: view.currency, on: calendarStart)
            } catch {
                throw AnalyticsError(userId: user, reason: "budget #\(b.id)'s moves: \(error.description)")
            }
        }
        let base = try converted(b.amountMinor)
        tIn = try fromUserCurrency(tIn)
        tOut = try fromUserCurrency(tOut)
        let effective = try checkedAdd(base, tIn, user: user) - tOut   // both terms ≥ 0: the difference fits
        // What was spent up to the cut-off, and up to the day the pace is measured at.
        let paceDay = min(asOf, cutOff)
        var spent: Int64 = 0, spentAtPaceDay: Int64 = 0
        let lo = ws.dayNumber, hi = cutOff.dayNumber
        for e in view.entries where e.kind == .expense && e.day >= lo && e.day <= hi {
            if let category, e.category != category { continue }
            if covered.hasGaps && !covered.contains(CivilDate(dayNumber: e.day)) { continue }   // a day no budget held
            spent = try checkedAdd(spent, e.counted, user: user)
            if e.day <= paceDay.dayNumber { spentAtPaceDay = try checkedAdd(spentAtPaceDay, e.counted, user: user) }
        }
        let days = covered.days(through: we)
        let elapsed = min(covered.days(through: paceDay), days)
        let projected = elapsed == 0 || elapsed == days
            ? spent : max(spent, Apportion.divideHalfEven(Int128(spentAtPaceDay) * Int128(days), Int128(elapsed)))
        let (percent, status) = status(spent: spent, effective: effective)
        return BudgetLine(budgetId: b.id, categoryName: category.map { view.categories.names[Int($0)] },
                          windowStart: ws, windowEnd: we, base: base, transfersIn: tIn, transfersOut: tOut,
                          effective: effective, spent: spent, remaining: try checkedAdd(effective, -spent, user: user), percent: percent,
                          expectedPercent: Percent.of(elapsed, days), projected: projected, status: status)
    }

    /// Percent consumed (nil for a budget of 0 or less) and the status, from exact amounts.
    static func status(spent: Int64, effective: Int64) -> (Percent?, BudgetStatus) {
        guard effective > 0 else { return (nil, spent > effective || spent > 0 ? .over : .ok) }
        let p = Percent.of(spent, effective)
        if spent > effective { return (p, .over) }
        if Int128(spent) * 5 >= Int128(effective) * 4 { return (p, .warning) }
        return (p, .ok)
    }

    /// The days of a window that its budgets hold: `from...through`, less the days between a
    /// budget's end and the next one's start (a budget revised with a gap). Spending, moves and
    /// the pace count only these days, as a window with one budget that ends early counts only
    /// up to its end.
    struct Coverage {
        /// Disjoint, ordered ranges of day numbers.
        private(set) var ranges: [ClosedRange<Int32>] = []

        init(_ budgets: [Budget], from: CivilDate, through: CivilDate) {
            let pieces = budgets.map { b -> ClosedRange<Int32> in
                max(b.startsOn, from).dayNumber...max(min(b.endsOn ?? through, through), max(b.startsOn, from)).dayNumber
            }.sorted { $0.lowerBound < $1.lowerBound }
            for p in pieces {
                if let last = ranges.last, p.lowerBound <= last.upperBound + 1 {
                    ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, p.upperBound)
                } else {
                    ranges.append(p)
                }
            }
        }

        /// Whether some day of the window is held by no budget.
        var hasGaps: Bool { ranges.count > 1 }

        func contains(_ day: CivilDate) -> Bool { ranges.contains { $0.contains(day.dayNumber) } }

        /// How many held days there are up to `day` (0 before the first).
        func days(through day: CivilDate) -> Int64 {
            ranges.reduce(0) { n, r in
                r.lowerBound > day.dayNumber ? n : n + Int64(min(r.upperBound, day.dayNumber) - r.lowerBound + 1)
            }
        }
    }

    /// The budgets that share windows: one category (nil: overall) and one kind of window.
    private struct BudgetFamily: Hashable, Comparable {
        let categoryId: Int64?
        let period: Budget.Period
        static func < (a: Self, b: Self) -> Bool {
            ((a.categoryId ?? Int64.min), a.period.rawValue) < ((b.categoryId ?? Int64.min), b.period.rawValue)
        }
    }

    /// Whether `day` is the first day of a window of one of category `categoryId`'s budgets (of any
    /// kind, or only of kinds shorter than `shorterThan`) that the budget overlaps: the window a
    /// move with that `period_start` names.
    static func someWindowStarts(on day: CivilDate, categoryId: Int64, budgets: [Budget], monthStartDay: Int,
                                 shorterThan kind: Budget.Period? = nil) -> Bool {
        budgets.contains { b in
            guard b.categoryId == categoryId, kind.map({ rank(b.period) < rank($0) }) ?? true,
                  start(of: day, b.period, monthStartDay: monthStartDay) == day else { return false }
            let natural = next(after: day, b.period).adding(days: -1)
            return b.startsOn <= natural && (b.endsOn.map { $0 >= day } ?? true)
        }
    }

    /// Whether one of category `categoryId`'s budgets of a shorter kind than `kind` holds `day`
    /// (a week is shorter than a month, a month than a year): a move dated inside windows of two
    /// kinds, on a day none of them starts, changes only the shortest.
    static func shorterBudgetHolds(_ day: CivilDate, categoryId: Int64, than kind: Budget.Period, budgets: [Budget]) -> Bool {
        budgets.contains { b in
            b.categoryId == categoryId && rank(b.period) < rank(kind) && b.startsOn <= day && (b.endsOn.map { $0 >= day } ?? true)
        }
    }

    /// Kinds of window from the shortest: a week, a month, a year.
    static func rank(_ k: Budget.Period) -> Int {
        switch k {
        case .week: return 0
        case .month: return 1
        case .year: return 2
        }
    }

    static func start(of d: CivilDate, _ k: Budget.Period, monthStartDay: Int = 1) -> CivilDate {
        switch k {
        case .week: return BucketKind.week.start(of: d)
        case .month: return BucketKind.month.start(of: d, monthStartDay: monthStartDay)
        case .year: return BucketKind.year.start(of: d)
        }
    }

    static func next(after s: CivilDate, _ k: Budget.Period) -> CivilDate {
        switch k {
        case .week: return s.adding(days: 7)
        case .month: return s.adding(months: 1)
        case .year: return s.adding(months: 12)
        }
    }
}
