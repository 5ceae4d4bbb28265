import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// Budgets: one row per budget window; rows over budget are shaded red and rows in the
    /// warning band amber by conditional formatting on the Status column.
    static func writeBudgets(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        let c = f.currency
        let columns: [Worksheet.Column] = [
            .init(tr("Category"), 22), .init(tr("Window start"), 12), .init(tr("Window end"), 12), .init(tr("Base"), 14),
            .init(tr("Transfers in"), 14), .init(tr("Transfers out"), 14), .init(tr("Effective"), 14), .init(tr("Spent"), 14),
            .init(tr("Remaining"), 14), .init(tr("Used"), 8), .init(tr("Expected"), 9), .init(tr("Projected"), 14), .init(tr("Status"), 9),
        ]
        // The status in the reader's words, as the PDF's pills name it (budgets.csv keeps ok/warning/over);
        // the conditional formats below test the same words.
        let words: [BudgetStatus: String] = [.ok: tr("OK"), .warning: tr("WARNING"), .over: tr("OVER")]
        try sheet.writeHeader(columns, row: 0, styles: s)
        try sheet.freezePanes(row: 1, column: 1)
        for (i, b) in f.budgets.enumerated() {
            let r = i + 1
            if let name = b.categoryName { try sheet.write(name, row: r, column: 0) }
            else { try sheet.write(tr("Overall"), row: r, column: 0, format: s.label) }
            try sheet.write(date: b.windowStart, row: r, column: 1, styles: s)
            try sheet.write(date: b.windowEnd, row: r, column: 2, styles: s)
            try sheet.write(money: b.base, c, row: r, column: 3, styles: s)
            try sheet.write(money: b.transfersIn, c, row: r, column: 4, styles: s)
            try sheet.write(money: b.transfersOut, c, row: r, column: 5, styles: s)
            try sheet.write(money: b.effective, c, row: r, column: 6, styles: s)
            try sheet.write(money: b.spent, c, row: r, column: 7, styles: s)
            try sheet.write(money: b.remaining, c, row: r, column: 8, styles: s)
            try sheet.write(percentTenths: b.percent?.tenths, row: r, column: 9, styles: s)
            try sheet.write(percentTenths: b.expectedPercent?.tenths, row: r, column: 10, styles: s)
            try sheet.write(money: b.projected, c, row: r, column: 11, styles: s)
            try sheet.write(words[b.status] ?? b.status.rawValue, row: r, column: 12)
        }
        if f.budgets.isEmpty {
            try sheet.write(tr("No budgets in this period"), row: 2, column: 0, format: s.note)
            return
        }
        let last = f.budgets.count
        let statusColumn = Worksheet.columnLetters(12)
        try sheet.conditionalFormat(firstRow: 1, firstColumn: 0, lastRow: last, lastColumn: columns.count - 1,
                                    when: "=$\(statusColumn)2=\(Self.formulaText(words[.over]!))", format: s.over)
        try sheet.conditionalFormat(firstRow: 1, firstColumn: 0, lastRow: last, lastColumn: columns.count - 1,
                                    when: "=$\(statusColumn)2=\(Self.formulaText(words[.warning]!))", format: s.warning)
    }

    /// `text` as a string literal in a formula (a double quote doubled).
    static func formulaText(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
