import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// Summary: the headline figures, the folded category shares with a native pie (or
    /// doughnut) chart, and a native line chart of the trend read from the Trends sheet.
    static func writeSummary(_ f: StatementFigures, to sheet: Worksheet, trendSheet: String,
                             styles s: Styles) throws(XLSXError) {
        var writer = SummarySheetWriter(figures: f, sheet: sheet, styles: s)
        try writer.writeTitle()
        try writer.writeKeyFigures()
        let shares = try writer.writeCategoryShares()
        if let shares { try writer.insertPie(over: shares) }
        try writer.insertTrendChart(from: trendSheet)
    }
}

/// Writes the Summary sheet top to bottom, one section a step, keeping the next free row.
private struct SummarySheetWriter {
    let f: StatementFigures
    let sheet: Worksheet
    let s: Styles
    let tr: Translator
    /// The row the next label goes on.
    private var row = 3

    init(figures: StatementFigures, sheet: Worksheet, styles: Styles) {
        self.f = figures
        self.sheet = sheet
        self.s = styles
        self.tr = Translator(locale: figures.user.locale)
    }

    private var c: Currency { f.currency }

    /// The column widths, the book's title and the line naming the user, the period and the currency.
    func writeTitle() throws(XLSXError) {
        try sheet.hideGridlines()
        try sheet.setColumns(0...0, width: 30)
        try sheet.setColumns(1...1, width: 18)
        try sheet.setColumns(2...2, width: 3)
        try sheet.write(tr("{book} — statement {period}", ["book": InlineText.isolated(f.user.bookName), "period": f.period.name]),
                        row: 0, column: 0, format: s.title)
        try sheet.write(tr("{user} · {start} to {end} · as of {date} · amounts in {currency}", [
            "user": InlineText.isolated(f.user.username), "start": f.period.start.description, "end": f.period.end.description,
            "date": f.asOf.description, "currency": c.code,
        ]), row: 1, column: 0, format: s.subtitle)
    }

    /// "Key figures": income, expenses, net, savings rate, the change against the previous
    /// period, the transaction count and, when the user set one, the spending limit.
    mutating func writeKeyFigures() throws(XLSXError) {
        try sheet.write(tr("Key figures"), row: row, column: 0, format: s.section)
        row += 1
        let k = f.kpis
        try money(tr("Income"), k.income)
        try money(tr("Expenses"), k.expenses)
        try money(tr("Net"), k.net)
        try percent(tr("Savings rate"), k.savingsRate)
        try money(tr("Previous period's expenses"), k.previousExpenses)
        try money(tr("Change in expenses"), k.expensesChange.absolute)
        try percent(tr("Change in expenses (%)"), k.expensesChange.percent)
        try sheet.write(tr("Transactions"), row: row, column: 0, format: s.label)
        try sheet.write(integer: k.transactionCount, row: row, column: 1, styles: s)
        row += 1
        if let limit = k.limit { try writeLimit(limit) }
    }

    private mutating func writeLimit(_ limit: LimitStatus) throws(XLSXError) {
        let title: String
        switch (limit.windows > 1, limit.kind) {
        case (true, _): title = tr("Limit for the period")
        case (false, .month): title = tr("Monthly limit")
        case (false, .week): title = tr("Weekly limit")
        case (false, .year): title = tr("Yearly limit")
        }
        try money(title, limit.limit)
        try money(tr("Spent against the limit"), limit.spent)
        try percent(tr("Limit used"), limit.percent)
        try sheet.write(tr("Limit status"), row: row, column: 0, format: s.label)
        // The status in words.
        let status: String
        switch limit.status {
        case .ok: status = tr("Within limit")
        case .warning: status = tr("Close to limit")
        case .over: status = tr("Limit exceeded")
        }
        try sheet.write(status, row: row, column: 1, format: s.status(limit.status.rawValue))
        row += 1
    }

    private mutating func money(_ label: String, _ minor: Int64) throws(XLSXError) {
        try sheet.write(label, row: row, column: 0, format: s.label)
        try sheet.write(money: minor, c, row: row, column: 1, styles: s)
        row += 1
    }

    private mutating func percent(_ label: String, _ p: Percent?) throws(XLSXError) {
        try sheet.write(label, row: row, column: 0, format: s.label)
        if let p { try sheet.write(percentTenths: p.tenths, row: row, column: 1, styles: s) }
        else { try sheet.write("—", row: row, column: 1) }
        row += 1
    }

    /// "Expenses by category": the folded shares (small categories grouped into 'Other'), or a
    /// note when there are none. Returns the rows the shares were written on, for the pie.
    mutating func writeCategoryShares() throws(XLSXError) -> ClosedRange<Int>? {
        row += 1
        try sheet.write(tr("Expenses by category"), row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells([tr("Category"), tr("Amount"), "", tr("Share", context: "of a total")], row: row, styles: s)
        let firstShare = row + 1
        for share in f.categories.folded {
            row += 1
            try sheet.write(chartLabel: tr.categoryName(share.name, folded: share.foldedCategories), row: row, column: 0)
            try sheet.write(money: share.amount, c, row: row, column: 1, styles: s)
            try sheet.write(percentTenths: share.percent.tenths, row: row, column: 3, styles: s)
        }
        if f.categories.folded.isEmpty {
            row += 1
            try sheet.write(tr("No expenses in this period"), row: row, column: 0, format: s.note)
        }
        try sheet.setColumns(3...3, width: 9)
        return f.categories.folded.isEmpty ? nil : firstShare...(firstShare + f.categories.folded.count - 1)
    }

    /// A native pie (or doughnut, the user's chart style) of the shares on `rows`, in the
    /// categories' own colours.
    func insertPie(over rows: ClosedRange<Int>) throws(XLSXError) {
        let pie = try sheet.workbook.addChart(f.user.chartStyle == .doughnut ? .doughnut : .pie)
        try pie.title(tr("Expenses by category, {period}", ["period": f.period.name]))
        try pie.addSeries(name: tr("Expenses"), categories: .column(0, rows: rows, on: sheet.name),
                          values: .column(1, rows: rows, on: sheet.name), percentLabels: true,
                          pointColors: f.categories.folded.map { Styles.rgb($0.color) ?? Styles.grey })
        try sheet.insert(pie, row: 3, column: 5, scale: (1.2, 1.2))
    }

    /// A native line chart of income, expenses, net and the expenses' moving average, read from
    /// the Trends sheet's columns; nothing when the trend has no point.
    func insertTrendChart(from trendSheet: String) throws(XLSXError) {
        let points = f.trend.points.count
        guard points > 0 else { return }
        let line = try sheet.workbook.addChart(.line)
        try line.title(f.trend.bucket == .month ? tr("Income and expenses by month") : tr("Income and expenses by period"))
        let rows = 1...points
        let dates = Chart.Range.column(0, rows: rows, on: trendSheet)
        try line.addSeries(name: tr("Income"), categories: dates, values: .column(2, rows: rows, on: trendSheet), color: Styles.green)
        try line.addSeries(name: tr("Expenses"), categories: dates, values: .column(3, rows: rows, on: trendSheet), color: Styles.orange)
        try line.addSeries(name: tr("Net"), categories: dates, values: .column(4, rows: rows, on: trendSheet), color: Styles.blue)
        try line.addSeries(name: tr("Expenses, 3-bucket average"), categories: dates,
                           values: .column(6, rows: rows, on: trendSheet), color: Styles.grey, dashed: true)
        try line.valueAxisFormat(Styles.moneyCode(c))
        try line.categoryAxisFormat(f.trend.bucket == .month ? "mmm yyyy" : "yyyy-mm-dd")
        try line.legendAtBottom()
        try sheet.insert(line, row: 22, column: 5, scale: (1.2, 1.2))
    }
}
