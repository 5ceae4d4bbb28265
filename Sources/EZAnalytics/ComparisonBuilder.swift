import EZCore

/// Builds a statement's ``ComparisonFigures`` from a ``LedgerView`` that covers the statement's
/// period, its previous period and the same period a year earlier.
enum ComparisonBuilder {
    /// The comparison of `period` with `period.previous` and `period.yearEarlier`.
    ///
    /// Income, expenses and categories are summed from the same entries as the statement's KPIs
    /// and category shares (each row or share converted on its own date), so each column equals
    /// the figure a statement for that period shows.
    ///
    /// - Complexity: O(entries + categories log categories).
    static func build(view: LedgerView, period: Period) throws(AnalyticsError) -> ComparisonFigures {
        let periods = [period, period.previous, period.yearEarlier]
        precondition(periods.allSatisfy { $0.start >= view.from && $0.end <= view.through }, "the view must cover every compared period")
        let bounds = periods.map { (lo: $0.start.dayNumber, hi: $0.end.dayNumber) }
        let cats = view.categories.count
        // Index k of each array is periods[k]; the previous period and the year before can be the
        // same dates (a year's), so every entry is checked against each of the three.
        var income = [Int64](repeating: 0, count: 3)
        var expenses = [Int64](repeating: 0, count: 3)
        var byCategory = [[Int64]](repeating: [Int64](repeating: 0, count: cats), count: 3)
        var used = [Bool](repeating: false, count: cats)
        for e in view.entries where e.kind == .income || e.kind == .expense {
            for k in 0..<3 where e.day >= bounds[k].lo && e.day <= bounds[k].hi {
                if e.kind == .income {
                    income[k] = try checkedAdd(income[k], e.counted, user: view.userId)
                } else {
                    expenses[k] = try checkedAdd(expenses[k], e.counted, user: view.userId)
                    byCategory[k][Int(e.category)] = try checkedAdd(byCategory[k][Int(e.category)], e.counted, user: view.userId)
                    used[Int(e.category)] = true
                }
            }
        }
        func amounts(_ values: [Int64]) -> ComparedAmount { ComparedAmount(current: values[0], previous: values[1], yearAgo: values[2]) }
        var categories = (0..<cats).filter { used[$0] }.map { c in
            CategoryComparison(name: view.categories.names[c], color: view.categories.color(Int32(c)),
                               amounts: amounts(byCategory.map { $0[c] }))
        }
        categories.removeAll { $0.amounts == ComparedAmount(current: 0, previous: 0, yearAgo: 0) }
        categories.sort { a, b in
            let x = a.amounts, y = b.amounts
            if x.current != y.current { return x.current > y.current }
            if x.previous != y.previous { return x.previous > y.previous }
            if x.yearAgo != y.yearAgo { return x.yearAgo > y.yearAgo }
            return a.name < b.name
        }
        // Income and expenses are sums of non-negative amounts bounded by the view's checked total,
        // so their difference cannot overflow.
        let net = (0..<3).map { income[$0] &- expenses[$0] }
        return ComparisonFigures(period: period, previous: periods[1], yearAgo: periods[2], income: amounts(income),
                                 expenses: amounts(expenses), net: amounts(net), categories: categories)
    }
}
