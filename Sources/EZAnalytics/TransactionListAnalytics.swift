import EZCore

/// The filtered transaction list (and so the statistics page) over a date range: only the
/// range's rows are looked at, none of a statement's other figures are computed.
///
/// ```swift
/// let list = try TransactionListAnalytics.list(for: slice, range: range, filter: TransactionFilter(categories: ["Food"]))
/// list.rows          // as transactions.csv would list them, filtered
/// list.statistics    // income, expenses, net, categories
/// ```
package enum TransactionListAnalytics {
    /// The rows of `ledger` whose local date (in the user's time zone) lies in `range` and that
    /// pass `filter`, in transactions.csv's order: the same rows a statement over `range`
    /// lists, filtered. `ledger` needs the range's rows only (``LedgerReadTransaction``'s window).
    ///
    /// - Complexity: O(n log n) in the rows loaded.
    package static func list(for ledger: UserLedger, range: Period, filter: TransactionFilter) throws -> TransactionList {
        let user = ledger.user
        let view = try LedgerView(ledger: ledger, zone: user.zone, currency: user.currency,
                                  from: range.start, through: range.end, rowsPeriod: range)
        let rows = view.rows.filter(filter.matches).sorted(by: StatementAnalytics.rowOrder)
        return TransactionList(user: ReportUser(user), range: range, currency: user.currency, filter: filter, rows: rows)
    }
}
