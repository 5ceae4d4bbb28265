import EZAnalytics
import EZCore
import EZLocale

/// A filtered transaction export as a workbook: the Transactions sheet of the statement
/// workbook (the rows of `transactions.csv`, dates as Excel dates, amounts as numbers; continued
/// on 'Transactions (2)', … past Excel's row limit) and an About sheet naming the user, the
/// range, the filters, the rows' totals and where they came from. Titles in the user's language.
///
/// ```swift
/// try TransactionsWorkbook.write(list, provenance: provenance, to: "out/transactions.xlsx")
/// ```
package enum TransactionsWorkbook {
    /// Writes the workbook for `list` to `path`, replacing any file there.
    package static func write(_ list: TransactionList, provenance: ReportProvenance, to path: String) throws {
        try write(list, provenance: provenance, to: path, rowsPerSheet: Worksheet.maxRows - 1)
    }

    /// Writes the workbook with at most `rowsPerSheet` rows under each Transactions sheet's header.
    static func write(_ list: TransactionList, provenance: ReportProvenance, to path: String, rowsPerSheet: Int) throws(XLSXError) {
        let tr = Translator(locale: list.user.locale)
        let range = "\(list.range.start) – \(list.range.end)"
        let properties = DocumentProperties(
            title: tr("{book} · Transactions {range}", ["book": InlineText.isolated(list.user.bookName), "range": range]),
            subject: tr("Transactions of {user}, {range}", ["user": InlineText.isolated(list.user.username), "range": range]),
            keywords: "ezreport, transactions, \(list.range.start)..\(list.range.end)",
            comments: "Ledger SHA-256 \(provenance.ledgerSHA256); ezreport \(provenance.engineVersion)",
            created: list.range.end)
        let book = try Workbook(path: path, properties: properties,
                                constantMemory: list.rows.count >= StatementWorkbook.constantMemoryRows)
        let styles = try Styles(book)
        let chunks = StatementWorkbook.transactionChunks(count: list.rows.count, rowsPerSheet: rowsPerSheet)
        for (name, chunk) in zip(StatementWorkbook.transactionSheetNames(count: chunks.count), chunks) {
            try StatementWorkbook.writeTransactions(list.rows, chunk, currency: list.currency, locale: list.user.locale,
                                                    to: book.addWorksheet(name), styles: styles)
        }
        try writeAbout(list, provenance: provenance, to: book.addWorksheet("About"), styles: styles, tr: tr)
        try book.close()
    }

    /// About: whose rows, which range and filters, their totals, and where they came from.
    static func writeAbout(_ list: TransactionList, provenance p: ReportProvenance, to sheet: Worksheet,
                           styles s: Styles, tr: Translator) throws(XLSXError) {
        try sheet.setColumns(0...0, width: 24)
        try sheet.setColumns(1...1, width: 70)
        try sheet.write(tr("About this workbook"), row: 0, column: 0, format: s.title)
        let f = list.filter
        let facts: [(String, AboutValue)] = [
            (tr("Account book"), .text(list.user.bookName)),
            // The range's first and last day: "From"/"To" are translated as a transfer's sender and
            // recipient (送金元/送金先, Von/An), which is not what a date range says.
            (tr("First day"), .date(list.range.start)),
            (tr("Last day"), .date(list.range.end)),
            (tr("Categories"), .text(f.categories.isEmpty ? tr("Any") : f.categories.sorted().joined(separator: ", "))),
            (tr("Minimum amount"), .text(f.minCounted.map { MinorUnits.plainDecimal($0, exponent: list.currency.exponent) } ?? tr("Any"))),
            (tr("Maximum amount"), .text(f.maxCounted.map { MinorUnits.plainDecimal($0, exponent: list.currency.exponent) } ?? tr("Any"))),
            (tr("Description contains"), .text(f.text.flatMap { $0.isEmpty ? nil : $0 } ?? tr("Any"))),
            (tr("Rows"), .count(list.rows.count)),
            (tr("Report currency"), .text(list.currency.code)),
            (tr("Time zone"), .text(list.user.timeZone)),
            (tr("Ledger SHA-256"), .text(p.ledgerSHA256)),
            (tr("Ledger file"), .text(p.ledgerPath)),
            (tr("Engine"), .text("ezreport \(p.engineVersion)")),
        ]
        var row = try sheet.writeFacts(facts, row: 2, styles: s)
        // The rows' totals, as numbers in the report currency.
        let stats = list.statistics
        row += 1
        for (label, minor) in [(tr("Income"), stats.income), (tr("Expenses"), stats.expenses), (tr("Net"), stats.net)] {
            try sheet.write(label, row: row, column: 0, format: s.label)
            try sheet.write(money: minor, list.currency, row: row, column: 1, styles: s)
            row += 1
        }
        row += 1
        try sheet.write(tr("Every row of transactions.csv: dates are Excel dates, amounts numbers in the row's currency; 'Counted' is what the row adds to income or expenses in the report currency."),
                        row: row, column: 0, format: s.note)
    }
}
