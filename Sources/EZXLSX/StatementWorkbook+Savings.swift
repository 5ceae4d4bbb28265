import EZAnalytics
import EZCore

extension StatementWorkbook {
    /// Savings: each goal's progress in the goal's currency.
    static func writeSavings(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        try sheet.writeHeader([
            .init("Goal", 24), .init("Target", 15), .init("Saved", 15), .init("Progress", 10), .init("Due on", 12),
            .init("Months left", 12), .init("Monthly needed", 15), .init("Currency", 9),
        ], row: 0, styles: s)
        for (i, g) in f.savings.enumerated() {
            let r = i + 1
            try sheet.write(g.name, row: r, column: 0)
            try sheet.write(money: g.target, g.currency, row: r, column: 1, styles: s)
            try sheet.write(money: g.saved, g.currency, row: r, column: 2, styles: s)
            try sheet.write(percentTenths: g.percent?.tenths, row: r, column: 3, styles: s)
            try sheet.write(date: g.dueOn, row: r, column: 4, styles: s)
            if let m = g.monthsLeft { try sheet.write(integer: m, row: r, column: 5, styles: s) }
            try sheet.write(money: g.monthlyNeeded, g.currency, row: r, column: 6, styles: s)
            try sheet.write(g.currency.code, row: r, column: 7)
        }
        if f.savings.isEmpty { try sheet.write("No savings goals", row: 2, column: 0, format: s.note) }
    }
}
