import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// The Comparison sheet's columns: the name, this period, the previous period, the change
    /// against it (money, percent), a year earlier, the change against it (money, percent).
    enum ComparisonColumn {
        static let name = 0, current = 1, previous = 2, vsPrevious = 3, vsPreviousPercent = 4
        static let yearAgo = 5, vsYearAgo = 6, vsYearAgoPercent = 7
    }

    /// Comparison: the period against the previous period of the same length and the same period
    /// a year earlier. Rows 2–3 give each period's first and last day; then income, expenses and
    /// net; then every category with expenses in any of the three periods.
    ///
    /// The amounts are values; each change is a formula over them, so that a reader who edits an
    /// amount sees the change follow: `=ROUND(B6-C6,2)` for the money (rounded to the currency's
    /// minor digits, as the amounts are doubles) and `=IF(C6=0,"",(B6-C6)/ABS(C6))` for the
    /// percentage (empty when the earlier value is 0). Each formula is cached with the engine's
    /// value, so readers that do not recalculate show the same figures as the PDF.
    static func writeComparison(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        let c = f.currency
        let cmp = f.comparison
        typealias Col = ComparisonColumn
        try sheet.writeHeader([
            .init(tr("Compared with earlier periods"), 28), .init(tr("This period"), 15), .init(tr("Previous period"), 15),
            .init(tr("Change vs previous"), 15), .init(tr("% vs previous"), 12), .init(tr("A year earlier"), 15),
            .init(tr("Change vs year ago"), 15), .init(tr("% vs year ago"), 12),
        ], row: 0, styles: s)
        try sheet.freezePanes(row: 1, column: 1)
        let periods = [(Col.current, cmp.period), (Col.previous, cmp.previous), (Col.yearAgo, cmp.yearAgo)]
        // Row by row, top to bottom, as the constant-memory mode of a large workbook requires.
        try sheet.write(tr("First day"), row: 1, column: Col.name, format: s.label)
        for (column, p) in periods { try sheet.write(date: p.start, row: 1, column: column, styles: s) }
        try sheet.write(tr("Last day"), row: 2, column: Col.name, format: s.label)
        for (column, p) in periods { try sheet.write(date: p.end, row: 2, column: column, styles: s) }

        var row = 4
        for (label, amounts) in [(tr("Income"), cmp.income), (tr("Expenses"), cmp.expenses), (tr("Net"), cmp.net)] {
            try writeComparedRow(label, amounts, row: row, currency: c, sheet: sheet, styles: s)
            row += 1
        }
        row += 1
        try sheet.write(tr("Expenses by category ({currency})", ["currency": c.code]), row: row, column: Col.name, format: s.section)
        row += 1
        try sheet.writeHeaderCells([tr("Category"), tr("This period"), tr("Previous period"), tr("Change vs previous"),
                                    tr("% vs previous"), tr("A year earlier"), tr("Change vs year ago"), tr("% vs year ago")],
                                   row: row, styles: s)
        for category in cmp.categories {
            row += 1
            try writeComparedRow(category.name, category.amounts, row: row, currency: c, sheet: sheet, styles: s)
        }
        if cmp.categories.isEmpty {
            try sheet.write(tr("No expenses in any of these periods"), row: row + 1, column: Col.name, format: s.note)
        }
    }

    /// One row: the label, the three amounts, and the four change formulas with cached results.
    private static func writeComparedRow(_ label: String, _ a: ComparedAmount, row: Int, currency c: Currency,
                                         sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        typealias Col = ComparisonColumn
        try sheet.write(label, row: row, column: Col.name)
        try sheet.write(money: a.current, c, row: row, column: Col.current, styles: s)
        try sheet.write(money: a.previous, c, row: row, column: Col.previous, styles: s)
        try sheet.write(money: a.yearAgo, c, row: row, column: Col.yearAgo, styles: s)
        let current = Worksheet.cellName(row, Col.current)
        for (base, change, percent, value, earlier) in [
            (Col.previous, Col.vsPrevious, Col.vsPreviousPercent, a.vsPrevious, a.previous),
            (Col.yearAgo, Col.vsYearAgo, Col.vsYearAgoPercent, a.vsYearAgo, a.yearAgo),
        ] {
            let ref = Worksheet.cellName(row, base)
            try sheet.writeFormula("=ROUND(\(current)-\(ref),\(c.exponent))", cachedResult: value.absolute.majorUnits(c),
                                   row: row, column: change, format: s.money(c))
            let formula = "=IF(\(ref)=0,\"\",(\(current)-\(ref))/ABS(\(ref)))"
            if earlier == 0 {
                try sheet.writeFormula(formula, cachedText: "", row: row, column: percent, format: s.percent)
            } else {
                // The unrounded ratio, as a recalculating reader computes it; its format shows one decimal.
                try sheet.writeFormula(formula, cachedResult: Double(value.absolute) / Double(earlier.magnitude),
                                       row: row, column: percent, format: s.percent)
            }
        }
    }
}
