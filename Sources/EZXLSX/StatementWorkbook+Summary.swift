import EZAnalytics
import EZCore

extension StatementWorkbook {
    /// Summary: the headline figures, the folded category shares with a native pie (or
    /// doughnut) chart, and a native line chart of the trend read from the Trends sheet.
    static func writeSummary(_ f: StatementFigures, to sheet: Worksheet, trendSheet: String,
                             styles s: Styles) throws(XLSXError) {
        let c = f.currency
        try sheet.hideGridlines()
        try sheet.setColumns(0...0, width: 30)
        try sheet.setColumns(1...1, width: 18)
        try sheet.setColumns(2...2, width: 3)
        try sheet.write("\(f.user.bookName) — statement \(f.period.name)", row: 0, column: 0, format: s.title)
        try sheet.write("\(f.user.username) · \(f.period.start) to \(f.period.end) · as of \(f.asOf) · amounts in \(c.code)",
                        row: 1, column: 0, format: s.subtitle)

        var row = 3
        try sheet.write("Key figures", row: row, column: 0, format: s.section)
        row += 1
        func money(_ label: String, _ minor: Int64) throws(XLSXError) {
            try sheet.write(label, row: row, column: 0, format: s.label)
            try sheet.write(money: minor, c, row: row, column: 1, styles: s)
            row += 1
        }
        func percent(_ label: String, _ p: Percent?) throws(XLSXError) {
            try sheet.write(label, row: row, column: 0, format: s.label)
            if let p { try sheet.write(percentTenths: p.tenths, row: row, column: 1, styles: s) }
            else { try sheet.write("—", row: row, column: 1) }
            row += 1
        }
        let k = f.kpis
        try money("Income", k.income)
        try money("Expenses", k.expenses)
        try money("Net", k.net)
        try percent("Savings rate", k.savingsRate)
        try money("Previous period's expenses", k.previousExpenses)
        try money("Change in expenses", k.expensesChange.absolute)
        try percent("Change in expenses (%)", k.expensesChange.percent)
        try sheet.write("Transactions", row: row, column: 0, format: s.label)
        try sheet.write(integer: k.transactionCount, row: row, column: 1, styles: s)
        row += 1
        if let limit = k.limit {
            try money("Monthly limit", limit.limit)
            try money("Spent against the limit", limit.spent)
            try percent("Limit used", limit.percent)
            try sheet.write("Limit status", row: row, column: 0, format: s.label)
            try sheet.write(limit.status.rawValue, row: row, column: 1, format: s.status(limit.status.rawValue))
            row += 1
        }

        // The folded shares (small categories grouped into 'Other') feed the pie.
        row += 1
        try sheet.write("Expenses by category", row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells(["Category", "Amount", "", "Share"], row: row, styles: s)
        let firstShare = row + 1
        for share in f.categories.folded {
            row += 1
            try sheet.write(share.name, row: row, column: 0)
            try sheet.write(money: share.amount, c, row: row, column: 1, styles: s)
            try sheet.write(percentTenths: share.percent.tenths, row: row, column: 3, styles: s)
        }
        if f.categories.folded.isEmpty {
            row += 1
            try sheet.write("No expenses in this period", row: row, column: 0, format: s.note)
        }

        try sheet.setColumns(3...3, width: 9)
        if !f.categories.folded.isEmpty {
            let pie = try sheet.workbook.addChart(f.user.chartStyle == .doughnut ? .doughnut : .pie)
            try pie.title("Expenses by category, \(f.period.name)")
            let rows = firstShare...(firstShare + f.categories.folded.count - 1)
            try pie.addSeries(name: "Expenses", categories: .column(0, rows: rows, on: sheet.name),
                              values: .column(1, rows: rows, on: sheet.name), percentLabels: true,
                              pointColors: f.categories.folded.map { Styles.rgb($0.color) ?? Styles.grey })
            try sheet.insert(pie, row: 3, column: 5, scale: (1.2, 1.2))
        }
        let points = f.trend.points.count
        if points > 0 {
            let line = try sheet.workbook.addChart(.line)
            try line.title("Income and expenses by \(f.trend.bucket.rawValue)")
            let rows = 1...points
            let dates = Chart.Range.column(0, rows: rows, on: trendSheet)
            try line.addSeries(name: "Income", categories: dates, values: .column(2, rows: rows, on: trendSheet), color: Styles.green)
            try line.addSeries(name: "Expenses", categories: dates, values: .column(3, rows: rows, on: trendSheet), color: Styles.orange)
            try line.addSeries(name: "Net", categories: dates, values: .column(4, rows: rows, on: trendSheet), color: Styles.blue)
            try line.addSeries(name: "Expenses, 3-bucket average", categories: dates,
                               values: .column(6, rows: rows, on: trendSheet), color: Styles.grey, dashed: true)
            try line.valueAxisFormat(Styles.moneyCode(c))
            try line.categoryAxisFormat(f.trend.bucket == .month ? "mmm yyyy" : "yyyy-mm-dd")
            try line.legendAtBottom()
            try sheet.insert(line, row: 22, column: 5, scale: (1.2, 1.2))
        }
    }
}
