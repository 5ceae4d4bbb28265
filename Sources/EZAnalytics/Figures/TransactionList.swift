import EZCore

/// A user's transactions over a date range that pass the statistics page's filters: the rows of
/// a filtered transaction export (`transactions.csv`'s columns and kinds of rows), in
/// transactions.csv's order (date, time, id), with the user and the range the export names.
package struct TransactionList: Sendable {
    /// Whose transactions (only what the user may see of themselves).
    package var user: ReportUser
    /// The date range, in the user's time zone, both ends inclusive.
    package var range: Period
    /// The report currency (the user's): `counted` is in it.
    package var currency: Currency
    /// The filters the rows passed.
    package var filter: TransactionFilter
    /// The rows that passed.
    package var rows: [StatementRow]

    package init(user: ReportUser, range: Period, currency: Currency, filter: TransactionFilter, rows: [StatementRow]) {
        self.user = user; self.range = range; self.currency = currency; self.filter = filter; self.rows = rows
    }

    /// Income, expenses, net and expenses per category of the rows.
    package var statistics: StatisticsFigures { StatisticsFigures.of(rows, currency: currency) }
}

extension ReportUser {
    /// The reader as a report may show them.
    package init(_ user: User) {
        self.init(id: user.id, username: user.username, bookName: user.bookName, locale: user.locale,
                  timeZone: user.zone.identifier, chartStyle: user.chartStyle)
    }
}
