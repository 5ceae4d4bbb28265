import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// Trends: one row per bucket (the Summary's line chart reads columns A and C–G), then the
    /// expenses per category per bucket, then each balance at each bucket's end.
    static func writeTrends(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        let c = f.currency
        let points = f.trend.points
        try sheet.writeHeader([
            .init(tr("Bucket start"), 12), .init(tr("Bucket end"), 12), .init(tr("Income"), 15), .init(tr("Expenses"), 15), .init(tr("Net"), 15),
            .init(tr("Transactions"), 13), .init(tr("Expenses, 3-bucket avg"), 15), .init(tr("Change vs previous"), 12),
            .init(tr("Change vs year ago"), 12), .init(tr("Projected expenses"), 15),
        ], row: 0, styles: s)
        try sheet.freezePanes(row: 1, column: 0)
        for (i, p) in points.enumerated() {
            let r = i + 1
            try sheet.write(date: p.start, row: r, column: 0, styles: s)
            try sheet.write(date: p.end, row: r, column: 1, styles: s)
            try sheet.write(money: p.income, c, row: r, column: 2, styles: s)
            try sheet.write(money: p.expenses, c, row: r, column: 3, styles: s)
            try sheet.write(money: p.net, c, row: r, column: 4, styles: s)
            try sheet.write(integer: p.transactionCount, row: r, column: 5, styles: s)
            try sheet.write(money: p.movingAverageExpenses, c, row: r, column: 6, styles: s)
            try sheet.write(percentTenths: p.vsPrevious?.percent?.tenths, row: r, column: 7, styles: s)
            try sheet.write(percentTenths: p.vsYearAgo?.percent?.tenths, row: r, column: 8, styles: s)
            try sheet.write(money: p.projectedExpenses, c, row: r, column: 9, styles: s)
        }

        var row = points.count + 2
        let names = f.trend.categoryNames
        if !names.isEmpty {
            try sheet.write(tr("Expenses by category ({currency})", ["currency": c.code]), row: row, column: 0, format: s.section)
            row += 1
            try sheet.writeHeaderCells([tr("Bucket start")] + names, row: row, styles: s)
            for p in points {
                row += 1
                try sheet.write(date: p.start, row: row, column: 0, styles: s)
                for (j, name) in names.enumerated() {
                    try sheet.write(money: p.expensesByCategory[name] ?? 0, c, row: row, column: j + 1, styles: s)
                }
            }
            row += 2
        }
        if !f.balances.isEmpty {
            try sheet.write(tr("Balances at each bucket's end (in each balance's currency)"), row: row, column: 0, format: s.section)
            row += 1
            try sheet.writeHeaderCells([tr("Bucket end")] + f.balances.map(\.name), row: row, styles: s)
            for (i, p) in points.enumerated() {
                row += 1
                try sheet.write(date: p.end, row: row, column: 0, styles: s)
                for (j, b) in f.balances.enumerated() where i < b.values.count {
                    try sheet.write(money: b.values[i], b.currency, row: row, column: j + 1, styles: s)
                }
            }
        }
    }
}
