import EZCore

/// A statement's period against the previous period of the same length and the same period a
/// year earlier: income, expenses, net and each category, in the report currency.
///
/// Every amount is computed with the statement's own rules (``LedgerView``), so `income.current`
/// is `kpis.income`, `expenses.previous` is `kpis.previousExpenses`, and each earlier amount is
/// what a statement for that earlier period shows.
///
/// ```swift
/// let c = figures.comparison
/// c.expenses.vsPrevious.absolute     // minor units more (or less) than last month
/// c.expenses.vsYearAgo.percent       // nil when a year ago had no expenses
/// ```
package struct ComparisonFigures: Hashable, Sendable {
    /// The statement's period.
    package var period: Period
    /// The period of the same length just before it (``Period/previous``).
    package var previous: Period
    /// The same period a year earlier (``Period/yearEarlier``).
    package var yearAgo: Period
    package var income: ComparedAmount
    package var expenses: ComparedAmount
    /// `income − expenses` in each period.
    package var net: ComparedAmount
    /// Expenses of every category that has expenses in at least one of the three periods, by this
    /// period's amount descending, then the previous period's, then the year-ago one's, then name.
    package var categories: [CategoryComparison]

    package init(period: Period, previous: Period, yearAgo: Period, income: ComparedAmount, expenses: ComparedAmount,
                 net: ComparedAmount, categories: [CategoryComparison]) {
        self.period = period; self.previous = previous; self.yearAgo = yearAgo
        self.income = income; self.expenses = expenses; self.net = net; self.categories = categories
    }

    /// A comparison whose earlier periods hold nothing: every earlier amount is 0.
    ///
    /// For figures built without a ledger (fixtures, previews); a statement computed from a ledger
    /// always carries the real comparison.
    package static func currentOnly(period: Period, kpis: KPIs, categories: CategoryShares) -> ComparisonFigures {
        ComparisonFigures(
            period: period, previous: period.previous, yearAgo: period.yearEarlier,
            income: ComparedAmount(current: kpis.income, previous: 0, yearAgo: 0),
            expenses: ComparedAmount(current: kpis.expenses, previous: 0, yearAgo: 0),
            net: ComparedAmount(current: kpis.net, previous: 0, yearAgo: 0),
            categories: categories.rows.map {
                CategoryComparison(name: $0.name, color: $0.color, amounts: ComparedAmount(current: $0.amount, previous: 0, yearAgo: 0))
            })
    }

    /// The comparison of the category named `name`, nil when it has no expenses in any of the periods.
    ///
    /// - Complexity: O(n) in the number of categories.
    package func category(named name: String) -> CategoryComparison? { categories.first { $0.name == name } }
}

/// One figure in the statement's period and in the two periods it is compared with.
package struct ComparedAmount: Hashable, Sendable {
    /// In the statement's period.
    package var current: Int64
    /// In the previous period of the same length.
    package var previous: Int64
    /// In the same period a year earlier.
    package var yearAgo: Int64

    package init(current: Int64, previous: Int64, yearAgo: Int64) {
        self.current = current; self.previous = previous; self.yearAgo = yearAgo
    }

    /// `current − previous`, and that as a percentage of `|previous|` (nil when `previous` is 0).
    package var vsPrevious: Change { Apportion.change(from: previous, to: current) }
    /// `current − yearAgo`, and that as a percentage of `|yearAgo|` (nil when `yearAgo` is 0).
    package var vsYearAgo: Change { Apportion.change(from: yearAgo, to: current) }
}

/// One category's expenses in the three compared periods.
package struct CategoryComparison: Hashable, Sendable {
    /// The reader's category name ('Others' for rows without a live category).
    package var name: String
    /// `#RRGGBB`: the ledger's colour, else the palette's (as in ``CategoryShare``).
    package var color: String
    package var amounts: ComparedAmount

    package init(name: String, color: String, amounts: ComparedAmount) {
        self.name = name; self.color = color; self.amounts = amounts
    }
}
