import EZAnalytics

extension StatementCSV {
    /// `transactions.csv` alone for `figures` (for a filtered transaction export, whose rows
    /// are a subset of a statement's: the same columns, the same kinds of rows).
    package static func transactionsFile(for figures: StatementFigures) -> CSVFile {
        transactions(figures)
    }

    /// `transactions.csv` for a filtered transaction list: the statement's columns, its rows.
    package static func transactionsFile(for list: TransactionList) -> CSVFile {
        transactions(list.rows, currency: list.currency)
    }
}
