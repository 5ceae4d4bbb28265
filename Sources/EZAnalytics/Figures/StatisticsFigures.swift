import EZCore

/// The figures of the app's statistics page over a set of transaction rows: income, expenses,
/// net and the expenses per category with percents that sum to exactly 100.0.
package struct StatisticsFigures: Hashable, Sendable {
    /// The report currency (the user's).
    package var currency: Currency
    /// Income counted, minor units.
    package var income: Int64
    /// Expenses counted, minor units.
    package var expenses: Int64
    /// `income − expenses`.
    package var net: Int64
    /// How many rows passed the filters (every kind, as the transaction export lists them).
    package var transactionCount: Int
    /// Expenses per category, largest first (then by name), percents by the largest-remainder
    /// method so that they add up to 100.0 exactly (as in `categories.csv`); nothing folded. Rows
    /// that count 0 for the reader are in no category; with no expense counted the list is empty.
    package var categories: [CategoryShare]

    /// The statistics of `rows` (already filtered), amounts in `currency`; `colors` gives each
    /// category's chart colour by name (others get the palette's neutral colour).
    ///
    /// - Complexity: O(n + c log c) for n rows in c categories.
    package static func of(_ rows: [StatementRow], currency: Currency, colors: [String: String] = [:]) -> StatisticsFigures {
        var income: Int64 = 0
        var expenses: Int64 = 0
        var byCategory: [String: (count: Int, amount: Int64)] = [:]
        for row in rows {
            switch row.kind {
            case .income: income &+= row.counted
            case .expense:
                expenses &+= row.counted
                // A row that counts nothing for the reader (a group expense they paid wholly for
                // others: their share is 0) is listed, but is in no category's count, as in
                // `categories.csv`; a category made only of such rows had a percent of 0 in a list
                // that then added up to 0.0 (outside figures test).
                guard row.counted != 0 else { continue }
                byCategory[row.category, default: (0, 0)].count += 1
                byCategory[row.category, default: (0, 0)].amount &+= row.counted
            case .transfer: break
            }
        }
        let items = byCategory.map { (name: $0.key, count: $0.value.count, amount: $0.value.amount,
                                      color: colors[$0.key] ?? CategoryPalette.otherColor) }
        let shares = CategorySharesBuilder.shares(items)
        return StatisticsFigures(currency: currency, income: income, expenses: expenses, net: income &- expenses,
                                 transactionCount: rows.count, categories: shares.rows)
    }
}
