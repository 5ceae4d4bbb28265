import EZAnalytics
import EZCairo
import EZCore
import EZLocale

/// A filtered transaction export as a PDF: a title naming the user, the date range and the
/// filters, then every row in a tagged table (the columns of `transactions.csv`, each amount
/// with its currency), running over landscape pages with its header repeated, with the rows'
/// income, expenses and net under it.
///
/// ```swift
/// let bytes = try TransactionListPDF.render(list, provenance: provenance)
/// ```
///
/// A4 or US Letter by the user's locale, turned sideways for the table's width; words, money
/// and dates in the user's language; deterministic (the document's date is the range's end).
package enum TransactionListPDF {
    /// Renders the list and returns the PDF's bytes.
    ///
    /// - Throws: ``CairoError`` when Cairo fails to draw or write the document.
    package static func render(_ list: TransactionList, provenance: ReportProvenance) throws -> [UInt8] {
        let layout = TransactionListLayout(list: list, provenance: provenance)
        let metrics = PDFTextMetrics()
        let pages = try layout.compose(measuring: true, totalPages: nil, metrics: metrics).pages
        return try layout.compose(measuring: false, totalPages: pages, metrics: metrics).bytes
    }

    /// The texts ``render(_:provenance:)`` draws shortened with an ellipsis (for tests).
    static func shortenedTexts(_ list: TransactionList, provenance: ReportProvenance) throws -> [String] {
        let layout = TransactionListLayout(list: list, provenance: provenance)
        let metrics = PDFTextMetrics()
        let pages = try layout.compose(measuring: true, totalPages: nil, metrics: metrics).pages
        return try layout.compose(measuring: false, totalPages: pages, metrics: metrics).shortened
    }
}

/// Composes a transaction list's pages (see ``TransactionListPDF``).
struct TransactionListLayout {
    let list: TransactionList
    let provenance: ReportProvenance
    let tr: Translator
    let format: LocaleFormat
    let geometry: PageGeometry

    init(list: TransactionList, provenance: ReportProvenance) {
        self.list = list
        self.provenance = provenance
        tr = Translator(locale: list.user.locale)
        format = tr.format
        geometry = PageGeometry(paper: PaperSize.for(locale: list.user.locale), landscape: true)
    }

    /// "1 Sep 2026 – 30 Sep 2026" in the user's locale.
    var rangeLabel: String { "\(format.date(list.range.start)) – \(format.date(list.range.end))" }

    func compose(measuring: Bool, totalPages: Int?, metrics: PDFTextMetrics) throws -> (pages: Int, bytes: [UInt8], shortened: [String]) {
        let title = tr("{book} · Transactions {range}", ["book": InlineText.isolated(list.user.bookName), "range": rangeLabel])
        let c = try PDFComposer(geometry: geometry, isMeasuring: measuring, totalPages: totalPages, footerTitle: title,
                                tr: tr, metrics: metrics)
        if !measuring {
            try c.surface.setMetadata(PDFMetadata(
                title: title, author: "ezreport",
                subject: tr("Transactions of {user}, {range}", ["user": InlineText.isolated(list.user.username), "range": rangeLabel]),
                keywords: "EZWallet, transactions, \(list.range.start)..\(list.range.end)",
                creator: "ezreport \(provenance.engineVersion)", createDate: PDFDate.iso(list.range.end)))
        }
        try c.section(tr("Transactions"), keepWith: 60)
        try c.paragraph(tr("{user} · {start} to {end} · amounts in {currency}", [
            "user": InlineText.isolated(list.user.username), "start": format.date(list.range.start), "end": format.date(list.range.end),
            "currency": list.currency.code,
        ]), font: PDFTheme.subtitleFont, color: PDFTheme.muted)
        try c.paragraph(filterLine, font: PDFTheme.bodyFont, color: PDFTheme.muted)
        c.y += 4
        try drawTable(c)
        try c.section(tr("About this report"), keepWith: 30)
        try c.paragraph(tr("Computed by ezreport {version} from ledger SHA-256 {hash}… for {period}, as of {date}.", [
            "version": provenance.engineVersion, "hash": String(provenance.ledgerSHA256.prefix(16)),
            "period": rangeLabel, "date": format.date(provenance.asOf),
        ]), font: PDFTheme.font(8), color: PDFTheme.muted)
        return (c.page, try c.finish(), c.shortenedTexts)
    }

    /// "Filters: Categories: Food, Fun · Minimum amount: €12.50 · …", or "Filters: None".
    var filterLine: String {
        let f = list.filter
        var parts: [String] = []
        if !f.categories.isEmpty { parts.append(tr("Categories") + ": " + f.categories.sorted().joined(separator: ", ")) }
        if let lo = f.minCounted { parts.append(tr("Minimum amount") + ": " + format.money(lo, list.currency)) }
        if let hi = f.maxCounted { parts.append(tr("Maximum amount") + ": " + format.money(hi, list.currency)) }
        if let text = f.text, !text.isEmpty { parts.append(tr("Description contains") + ": “" + text + "”") }
        return tr("Filters: {filters}", ["filters": parts.isEmpty ? tr("None", context: "no filters") : parts.joined(separator: " · ")])
    }

    /// The kind of a row in the reader's language.
    func kind(_ k: Transaction.Kind) -> String {
        switch k {
        case .income: return tr("Income", context: "a transaction's kind")
        case .expense: return tr("Expense")
        case .transfer: return tr("Transfer")
        }
    }

    /// One row of the list's table, with transactions.csv's columns.
    private func cells(_ r: StatementRow) -> [PDFTable.Cell] {
        let counted: PDFTable.Cell
        switch r.kind {
        case .income: counted = .text(format.money(r.counted, list.currency), color: PDFTheme.positive)
        case .expense: counted = .text(format.money(r.counted, list.currency))
        case .transfer: counted = .text(format.money(r.counted, list.currency), color: PDFTheme.muted)
        }
        return [
            .text(String(r.id), color: PDFTheme.muted), .text(format.date(r.date)), .text(kind(r.kind)),
            .text(r.category), .text(r.balance), .text(r.method), .text(r.description),
            .text(format.money(r.amount, r.currency)), counted, .text(r.group),
            .text(r.paidByReader ? tr("{name} (you)", ["name": InlineText.isolated(r.paidBy)]) : r.paidBy),
        ]
    }

    private func drawTable(_ c: PDFComposer) throws {
        guard !list.rows.isEmpty else { return try c.note(tr("No transactions match these filters.")) }
        // Rows are made as they are measured and drawn, not held (see ``PDFTable/Rows``).
        let rows = PDFTable.Rows(count: list.rows.count) { [self] i in cells(list.rows[i]) }
        let stats = list.statistics
        var table = PDFTable(columns: [
            // Short, regular values are as wide as they need; names share the rest with the
            // description, each taking no more than its longest needs, the description what they leave.
            .init(title: tr("ID"), weight: 5, align: .right, fit: true), .init(title: tr("Date"), weight: 8, fit: true),
            .init(title: tr("Kind"), weight: 7, fit: true), .init(title: tr("Category"), weight: 16, hug: true),
            .init(title: tr("Balance"), weight: 15, hug: true), .init(title: tr("Method"), weight: 7, fit: true),
            .init(title: tr("Description"), weight: 18), .init(title: tr("Amount"), weight: 9, align: .right, fit: true),
            .init(title: tr("Counted"), weight: 9, align: .right, fit: true), .init(title: tr("Group"), weight: 15, hug: true),
            .init(title: tr("Paid by"), weight: 10, fit: true),
        ], rows: rows, footer: [
            .text(""), .text(tr.plural("{count} row", "{count} rows", count: list.rows.count)), .text(""), .text(""), .text(""),
            .text(""), .text(tr("Net"), bold: true), .text(""),
            .text((stats.net > 0 ? "+" : "") + format.money(stats.net, list.currency),
                  color: stats.net < 0 ? PDFTheme.negative : PDFTheme.positive, bold: true),
            .text(""), .text(""),
        ])
        // Eleven columns across the page: smaller type, so that names are read whole.
        table.density = .compact
        try c.draw(table, continuation: tr("Transactions"))
        try c.paragraph([(tr("Income"), stats.income), (tr("Expenses"), stats.expenses), (tr("Net"), stats.net)]
            .map { "\($0.0): \(format.money($0.1, list.currency))" }.joined(separator: "  ·  "),
            font: PDFTheme.font(9, bold: true))
    }
}
