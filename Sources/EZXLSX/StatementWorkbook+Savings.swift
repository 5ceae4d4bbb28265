import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// Savings: each goal's progress in the goal's currency.
    static func writeSavings(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        try sheet.writeHeader([
            .init(tr("Goal"), 24), .init(tr("Target"), 15), .init(tr("Saved"), 15), .init(tr("Progress"), 10), .init(tr("Due on"), 12),
            .init(tr("Months left"), 12), .init(tr("Monthly needed"), 15), .init(tr("Currency"), 9),
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
        if f.savings.isEmpty { try sheet.write(tr("No savings goals"), row: 2, column: 0, format: s.note) }
    }
}
