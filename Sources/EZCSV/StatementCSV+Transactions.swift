import EZAnalytics

extension StatementCSV {
    /// `transactions.csv` for a filtered transaction list: the statement's columns, its rows.
    package static func transactionsFile(for list: TransactionList) -> CSVFile {
        transactions(list.rows, currency: list.currency)
    }
}
