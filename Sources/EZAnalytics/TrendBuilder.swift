import EZCore

/// Builds a ``Trend`` from a ``LedgerView``: per-day totals over the needed span, then every
/// bucket, previous bucket and year-ago bucket is a difference of prefix sums.
enum TrendBuilder {
    /// One bucket's dates, clipped to the trend's range.
    struct Interval { var start: CivilDate; var end: CivilDate }

    /// The trend's buckets: calendar buckets (months starting on `monthStartDay`) from the one
    /// containing `from` to the one containing `through`, the first and last clipped to `from...through`.
    static func intervals(from: CivilDate, through: CivilDate, bucket: BucketKind, monthStartDay: Int = 1) -> [Interval] {
        guard from <= through else { return [] }
        return bucket.starts(from: from, through: through, monthStartDay: monthStartDay).map { s in
            Interval(start: max(s, from), end: min(bucket.next(after: s).adding(days: -1), through))
        }
    }

    /// The same date a year earlier for this bucket kind (52 weeks for weeks, so weekdays line up).
    static func yearEarlier(_ d: CivilDate, _ bucket: BucketKind) -> CivilDate {
        bucket == .week ? d.adding(days: -364) : d.adding(months: -12)
    }

    /// The year-ago counterpart of a bucket: a whole calendar bucket stays whole (February of a
    /// leap year against the whole February before it).
    static func yearAgo(_ i: Interval, _ bucket: BucketKind, monthStartDay: Int = 1) -> Interval {
        let s = yearEarlier(i.start, bucket)
        func start(_ d: CivilDate) -> CivilDate { bucket.start(of: d, monthStartDay: monthStartDay) }
        let natural = bucket.next(after: start(i.end)).adding(days: -1)
        let e = i.end == natural
            ? bucket.next(after: start(yearEarlier(start(i.end), bucket))).adding(days: -1)
            : yearEarlier(i.end, bucket)
        return Interval(start: s, end: e)
    }

    /// The bucket before the first one.
    static func previous(of first: Interval, _ bucket: BucketKind, monthStartDay: Int = 1) -> Interval {
        let e = first.start.adding(days: -1)
        return Interval(start: bucket.start(of: e, monthStartDay: monthStartDay), end: e)
    }

    /// The earliest local date a trend over `from...` needs (its previous and year-ago buckets).
    static func spanStart(from: CivilDate, bucket: BucketKind, monthStartDay: Int = 1) -> CivilDate {
        let first = Interval(start: from, end: from)
        return min(previous(of: first, bucket, monthStartDay: monthStartDay).start,
                   yearEarlier(bucket.start(of: from, monthStartDay: monthStartDay), bucket))
    }

    /// The trend over `from...through` in `bucket`s (months starting on `monthStartDay`); `view`
    /// must cover `spanStart(from:bucket:monthStartDay:)...through`.
    /// A user with no rows at all gets every bucket too, with zeros, like any other user's quiet months.
    static func build(view: LedgerView, ledger: UserLedger, from: CivilDate, through: CivilDate, bucket: BucketKind,
                      monthStartDay: Int = 1, asOf: CivilDate) throws(AnalyticsError) -> Trend {
        let buckets = intervals(from: from, through: through, bucket: bucket, monthStartDay: monthStartDay)
        guard !buckets.isEmpty else { return Trend(bucket: bucket, points: [], categoryNames: []) }
        let user = view.userId
        let lo = min(spanStart(from: from, bucket: bucket, monthStartDay: monthStartDay), view.from)
        let n = lo.days(to: through) + 1
        let loN = lo.dayNumber

        // Per-day totals and the bucket each day falls in.
        var income = [Int64](repeating: 0, count: n + 1)    // prefix sums after the loop
        var expenses = [Int64](repeating: 0, count: n + 1)
        var counts = [Int](repeating: 0, count: n + 1)
        var bucketOfDay = [Int32](repeating: -1, count: n)
        for (b, iv) in buckets.enumerated() {
            for d in Int(iv.start.dayNumber - loN)...Int(iv.end.dayNumber - loN) { bucketOfDay[d] = Int32(b) }
        }
        let cats = view.categories.count
        var byCategory = [Int64](repeating: 0, count: buckets.count * cats)
        var recurringSoFar: Int64 = 0, otherSoFar: Int64 = 0
        let open = buckets.firstIndex { $0.start <= asOf && asOf < $0.end }
        let openStart = open.map { buckets[$0].start.dayNumber } ?? 0
        for e in view.entries {
            let d = Int(e.day - loN)
            guard d >= 0, d < n else { continue }
            counts[d + 1] += 1
            switch e.kind {
            case .income:
                income[d + 1] = try checkedAdd(income[d + 1], e.counted, user: user)
            case .expense:
                expenses[d + 1] = try checkedAdd(expenses[d + 1], e.counted, user: user)
                let b = Int(bucketOfDay[d])
                if b >= 0 { byCategory[b * cats + Int(e.category)] &+= e.counted }
                if open != nil, e.day >= openStart, e.day <= asOf.dayNumber {
                    if e.recurring { recurringSoFar &+= e.counted } else { otherSoFar &+= e.counted }
                }
            case .transfer, .zeroShare: break
            }
        }
        for i in 1...n {
            income[i] = try checkedAdd(income[i], income[i - 1], user: user)
            expenses[i] = try checkedAdd(expenses[i], expenses[i - 1], user: user)
            counts[i] += counts[i - 1]
        }
        func sum(_ a: [Int64], _ iv: Interval) -> Int64 {
            let s = max(0, Int(iv.start.dayNumber - loN)), e = Int(iv.end.dayNumber - loN)
            return e < s ? 0 : a[e + 1] - a[s]
        }
        // Dates before the first row or the account's creation have no history to compare with.
        var firstDay = ledger.user.createdAt.localDate(in: view.zone)
        if let t = ledger.transactions.first { firstDay = min(firstDay, t.occurredAt.localDate(in: view.zone)) }

        var points: [TrendPoint] = []
        points.reserveCapacity(buckets.count)
        var used = [Bool](repeating: false, count: cats)
        for (b, iv) in buckets.enumerated() {
            let inc = sum(income, iv), exp = sum(expenses, iv)
            let s = Int(iv.start.dayNumber - loN), e = Int(iv.end.dayNumber - loN)
            var byName: [String: Int64] = [:]
            for c in 0..<cats where byCategory[b * cats + c] != 0 {
                byName[view.categories.names[c]] = byCategory[b * cats + c]
                used[c] = true
            }
            let prev = b == 0 ? previous(of: iv, bucket, monthStartDay: monthStartDay) : buckets[b - 1]
            let ya = yearAgo(iv, bucket, monthStartDay: monthStartDay)
            var moving: Int64?
            if b >= 2 {
                let total = Int128(exp) + Int128(points[b - 1].expenses) + Int128(points[b - 2].expenses)
                moving = Apportion.divideHalfEven(total, 3)
            }
            var projected: Int64?
            if b == open {
                projected = try projection(ledger: ledger, view: view, bucket: iv, asOf: asOf,
                                           recurringSoFar: recurringSoFar, otherSoFar: otherSoFar, spent: exp)
            }
            points.append(TrendPoint(
                start: iv.start, end: iv.end, income: inc, expenses: exp, net: inc &- exp,
                transactionCount: counts[e + 1] - counts[s], expensesByCategory: byName,
                movingAverageExpenses: moving,
                vsPrevious: prev.end < firstDay ? nil : Apportion.change(from: sum(expenses, prev), to: exp),
                vsYearAgo: ya.end < firstDay ? nil : Apportion.change(from: sum(expenses, ya), to: exp),
                projectedExpenses: projected))
        }
        let names = (0..<cats).filter { used[$0] }.map { view.categories.names[$0] }
        return Trend(bucket: bucket, points: points, categoryNames: names)
    }

    /// The expenses projected at the end of a bucket still open at `asOf`: what is spent so far,
    /// plus the recurring rules still due before the bucket's end, plus the non-recurring spending
    /// so far extended at its daily pace over the days left. Never less than what the bucket
    /// already holds (rows dated after the as-of date included).
    static func projection(ledger: UserLedger, view: LedgerView, bucket: Interval, asOf: CivilDate,
                           recurringSoFar: Int64, otherSoFar: Int64, spent: Int64) throws(AnalyticsError) -> Int64 {
        let elapsed = Int128(bucket.start.days(to: asOf) + 1)
        let left = Int128(asOf.days(to: bucket.end))
        let paced = Apportion.divideHalfEven(Int128(otherSoFar) * (elapsed + left), elapsed)
        var due: Int64 = 0
        for rule in RecurringRule.latest(in: ledger, zone: view.zone, asOf: asOf) {
            let step = rule.everyDays
            guard step > 0, rule.lastDay.adding(days: step) >= asOf else { continue }   // lapsed rule
            var next = rule.lastDay.adding(days: step)
            var times: Int64 = 0
            while next <= bucket.end {
                if next >= asOf, next >= bucket.start { times += 1 }
                next = next.adding(days: step)
            }
            guard times > 0 else { continue }
            let amount = try ledger.rates.convert(rule.amountMinor, from: rule.currency, to: view.currency,
                                                  on: rule.ownerDate, user: view.userId, transaction: rule.transactionId)
            due = try checkedAdd(due, try checkedMultiply(amount, times, user: view.userId, transaction: rule.transactionId),
                                 user: view.userId, transaction: rule.transactionId)
        }
        return max(spent, try checkedAdd(try checkedAdd(recurringSoFar, paced, user: view.userId), due, user: view.userId))
    }
}

/// A recurring expense rule, recognised from its latest row: the rows a rule makes share their
/// period, category, amount, currency, balance and description.
struct RecurringRule {
    var transactionId: Int64
    var everyDays: Int
    var lastDay: CivilDate
    var ownerDate: CivilDate
    var amountMinor: Int64
    var currency: Currency

    private struct Key: Hashable {
        var every: Int; var category: Int64?; var amount: Int64; var currency: Currency
        var balance: Int64?; var description: String?
    }

    /// The latest row on or before `asOf` of each of the user's recurring expense rules (outside groups), by row id.
    static func latest(in ledger: UserLedger, zone: ZoneRules, asOf: CivilDate) -> [RecurringRule] {
        var found: [Key: RecurringRule] = [:]
        let txs = ledger.transactions
        for i in txs.indices where txs[i].recurrenceDays != nil && txs[i].kind == .expense && txs[i].groupId == nil {
            let tx = txs[i]
            guard let every = tx.recurrenceDays else { continue }
            let day = tx.occurredAt.localDate(in: zone)
            guard day <= asOf else { continue }
            let key = Key(every: every, category: tx.categoryId, amount: tx.amountMinor, currency: tx.currency,
                          balance: tx.balanceId, description: tx.description)
            if let old = found[key], old.lastDay > day { continue }
            found[key] = RecurringRule(transactionId: tx.id, everyDays: every, lastDay: day, ownerDate: tx.ownerDate,
                                       amountMinor: tx.amountMinor, currency: tx.currency)
        }
        return found.values.sorted { $0.transactionId < $1.transactionId }
    }
}
