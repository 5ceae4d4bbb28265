import EZCore

/// Expenses per category, percentages by the largest-remainder method, small slices folded.
enum CategorySharesBuilder {
    /// Categories whose share is under this many percent are folded into one slice.
    static let foldBelowPercent: Int64 = 2

    /// The category shares of `view`'s expenses dated `from...through`.
    static func build(view: LedgerView, from: CivilDate, through: CivilDate) throws(AnalyticsError) -> CategoryShares {
        let cats = view.categories.count
        var amounts = [Int64](repeating: 0, count: cats)
        var counts = [Int](repeating: 0, count: cats)
        let lo = from.dayNumber, hi = through.dayNumber
        // A row that counts nothing (an amount that converts to 0, such as 0.001 BHD in GBP) is
        // in no category's count, as a group expense paid wholly for others is not, and as the
        // statistics count (``StatisticsFigures``): it added a count without an amount.
        for e in view.entries where e.kind == .expense && e.counted != 0 && e.day >= lo && e.day <= hi {
            let c = Int(e.category)
            amounts[c] = try checkedAdd(amounts[c], e.counted, user: view.userId)
            counts[c] += 1
        }
        let items = (0..<cats).filter { counts[$0] > 0 }.map {
            (name: view.categories.names[$0], count: counts[$0], amount: amounts[$0], color: view.categories.color(Int32($0)))
        }
        return shares(items)
    }

    /// Shares of the given categories: rows by amount descending then name, percents summing to 100.0.
    static func shares(_ items: [(name: String, count: Int, amount: Int64, color: String)]) -> CategoryShares {
        let sorted = items.sorted { $0.amount != $1.amount ? $0.amount > $1.amount : $0.name < $1.name }
        var total: Int64 = 0
        for i in sorted { total &+= i.amount }
        // Ties of equal remainders go to the larger amount, then to the name: exactly the sort order.
        let tenths = total > 0 ? Apportion.largestRemainder(total: 1000, weights: sorted.map(\.amount)) : sorted.map { _ in 0 }
        let rows = sorted.enumerated().map { i, c in
            CategoryShare(name: c.name, count: c.count, amount: c.amount, percent: Percent(tenths: tenths[i]), color: c.color)
        }
        // Fold categories under 2 % of the total (exactly: amount × 100 < 2 × total) when there are two or more.
        let small = rows.filter { Int128($0.amount) * 100 < Int128(foldBelowPercent) * Int128(total) }
        var folded = rows
        if small.count >= 2 {
            folded = rows.filter { Int128($0.amount) * 100 >= Int128(foldBelowPercent) * Int128(total) }
            folded.append(CategoryShare(
                name: "Other (\(small.count) categories)", count: small.reduce(0) { $0 + $1.count },
                amount: small.reduce(0) { $0 &+ $1.amount }, percent: Percent(tenths: small.reduce(0) { $0 + $1.percent.tenths }),
                color: CategoryPalette.otherColor, foldedCategories: small.count))
        }
        return CategoryShares(total: total, rows: rows, folded: folded)
    }
}
