import EZAnalytics
import EZCore
import EZLocale

/// The statement workbook (`statement.xlsx`): one user's figures as native Excel sheets.
///
/// Sheets, in order: Summary (KPIs, a pie of category shares and a line chart of the trend),
/// Transactions (continued on 'Transactions (2)', … past Excel's 1,048,576 rows), Categories
/// (with a SUM total), Trends, Budgets, Groups, Savings, Comparison (against the previous period
/// and a year earlier) and About (provenance). Every text is written as a string, never a
/// formula; the only formulas are the Categories totals and the Comparison's changes. The same
/// figures and provenance give a byte-identical file: the created date is the as-of date.
///
/// ```swift
/// try StatementWorkbook.write(figures, provenance: provenance, to: "out/statement.xlsx")
/// ```
package enum StatementWorkbook {
    /// Writes the workbook for `figures` to `path`, replacing any file there.
    package static func write(_ figures: StatementFigures, provenance: ReportProvenance, to path: String) throws {
        try write(figures, provenance: provenance, to: path, rowsPerSheet: Worksheet.maxRows - 1)
    }

    /// Writes the workbook with at most `rowsPerSheet` transaction rows under each Transactions
    /// sheet's header (Excel's limit in production; small in tests of the splitting), in
    /// constant-memory mode when `constantMemory` says so (nil: from ``constantMemoryRows`` transactions on).
    static func write(_ figures: StatementFigures, provenance: ReportProvenance, to path: String,
                      rowsPerSheet: Int, constantMemory: Bool? = nil) throws(XLSXError) {
        let period = figures.period.name
        let tr = Translator(locale: figures.user.locale)
        let properties = DocumentProperties(
            title: tr("{book} — statement {period}", ["book": InlineText.isolated(figures.user.bookName), "period": period]),
            subject: tr("EZWallet statement for {user}, {period}", ["user": InlineText.isolated(figures.user.username), "period": period]),
            keywords: "ezreport, statement, \(period)",
            comments: (provenance.ledgerIsServer ? "Ledger PostgreSQL" : "Ledger SHA-256 \(provenance.ledgerSHA256)")
                + "; ezreport \(provenance.engineVersion)",
            created: provenance.asOf)
        let book = try Workbook(path: path, properties: properties,
                                constantMemory: constantMemory ?? (figures.transactions.count >= constantMemoryRows))
        let styles = try Styles(book)
        let chunks = transactionChunks(count: figures.transactions.count, rowsPerSheet: rowsPerSheet)
        let names = transactionSheetNames(count: chunks.count)

        let summary = try book.addWorksheet("Summary")
        for (name, chunk) in zip(names, chunks) {
            try writeTransactions(figures, rows: chunk, to: book.addWorksheet(name), styles: styles)
        }
        try writeCategories(figures, to: book.addWorksheet("Categories"), styles: styles)
        let trends = try book.addWorksheet("Trends")
        try writeTrends(figures, to: trends, styles: styles)
        try writeBudgets(figures, to: book.addWorksheet("Budgets"), styles: styles)
        try writeGroups(figures, to: book.addWorksheet("Groups"), styles: styles)
        try writeSavings(figures, to: book.addWorksheet("Savings"), styles: styles)
        try writeComparison(figures, to: book.addWorksheet("Comparison"), styles: styles)
        try writeAbout(figures, provenance: provenance, transactionSheets: names, to: book.addWorksheet("About"), styles: styles)
        try writeSummary(figures, to: summary, trendSheet: trends.name, styles: styles)
        try book.close()
    }

    /// From this many transactions on, the workbook is written in libxlsxwriter's constant-memory
    /// mode (a shop's 100,000 rows would otherwise hold ~250 MB of cells); below it, as before, so
    /// ordinary statements keep their exact parts. Every sheet writes its rows top to bottom, as
    /// that mode requires.
    static let constantMemoryRows = 20_000

    // MARK: - Splitting

    /// The ranges of transaction indices each Transactions sheet holds: always at least one
    /// (empty) range, so the sheet exists even without rows.
    static func transactionChunks(count: Int, rowsPerSheet: Int) -> [Range<Int>] {
        precondition(rowsPerSheet > 0)
        guard count > 0 else { return [0..<0] }
        return stride(from: 0, to: count, by: rowsPerSheet).map { $0..<min($0 + rowsPerSheet, count) }
    }

    /// `Transactions`, `Transactions (2)`, `Transactions (3)`, …
    static func transactionSheetNames(count: Int) -> [String] {
        (0..<count).map { $0 == 0 ? "Transactions" : "Transactions (\($0 + 1))" }
    }
}
