import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// Categories: every category, unfolded, with a totals row whose amount is the formula
    /// `=ROUND(SUM(…), exponent)`; its cached result is the engine's total.
    ///
    /// The amounts are doubles (as Excel stores them), so the sum is rounded to the currency's
    /// minor digits: it then equals the engine's exact total to the cent, which this checks
    /// before writing (the rows' minor units must add up to `CategoryShares.total`).
    static func writeCategories(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        let c = f.currency
        try sheet.writeHeader([.init(tr("Category"), 28), .init(tr("Transactions"), 13), .init(tr("Amount"), 16), .init(tr("Share", context: "of a total"), 9)],
                              row: 0, styles: s)
        try sheet.freezePanes(row: 1, column: 0)
        var sum: Int64 = 0
        var count = 0
        for (i, share) in f.categories.rows.enumerated() {
            let r = i + 1
            try sheet.write(share.name, row: r, column: 0)
            try sheet.write(integer: share.count, row: r, column: 1, styles: s)
            try sheet.write(money: share.amount, c, row: r, column: 2, styles: s)
            try sheet.write(percentTenths: share.percent.tenths, row: r, column: 3, styles: s)
            let (next, overflow) = sum.addingReportingOverflow(share.amount)
            guard !overflow else {
                throw XLSXError(operation: "total the categories", context: sheet.reference(r, 2), message: "the sum overflows")
            }
            sum = next
            count += share.count
        }
        guard sum == f.categories.total else {
            throw XLSXError(operation: "total the categories", context: "\(sheet.workbook.path) sheet '\(sheet.name)'",
                            message: "the rows add up to \(MinorUnits.plainDecimal(sum, exponent: c.exponent)) but the "
                                + "total is \(MinorUnits.plainDecimal(f.categories.total, exponent: c.exponent)) \(c.code)")
        }
        let n = f.categories.rows.count
        let totalRow = n + 1
        try sheet.write(tr("Total"), row: totalRow, column: 0, format: s.totalLabel)
        if n > 0 {
            try sheet.writeFormula("=SUM(B2:B\(n + 1))", cachedResult: Double(count), row: totalRow, column: 1, format: s.totalLabel)
            try sheet.writeFormula("=ROUND(SUM(C2:C\(n + 1)),\(c.exponent))", cachedResult: f.categories.total.majorUnits(c),
                                   row: totalRow, column: 2, format: s.totalMoney(c))
            try sheet.write(percentTenths: 1000, row: totalRow, column: 3, styles: s)
        } else {
            try sheet.write(number: 0, row: totalRow, column: 1, format: s.totalLabel)
            try sheet.write(number: 0, row: totalRow, column: 2, format: s.totalMoney(c))
            try sheet.write(tr("No expenses in this period"), row: totalRow + 2, column: 0, format: s.note)
        }
    }
}
