import EZAnalytics
import EZCore

extension StatementWorkbook {
    /// About: where the figures came from (the ledger's SHA-256, the period, the as-of date,
    /// the engine's version, the quarantined rows) and what each sheet holds.
    static func writeAbout(_ f: StatementFigures, provenance p: ReportProvenance, transactionSheets: [String],
                           to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        try sheet.setColumns(0...0, width: 24)
        try sheet.setColumns(1...1, width: 70)
        try sheet.setColumns(2...2, width: 50)
        try sheet.write("About this workbook", row: 0, column: 0, format: s.title)
        let facts: [(String, String)] = [
            ("Statement for", f.user.username),
            ("Account book", f.user.bookName),
            ("Period", p.period.name),
            ("Period start", p.period.start.description),
            ("Period end", p.period.end.description),
            ("As of", p.asOf.description),
            ("Report currency", f.currency.code),
            ("Time zone", f.user.timeZone),
            ("Ledger SHA-256", p.ledgerSHA256),
            ("Ledger file", p.ledgerPath),
            ("Engine", "ezreport \(p.engineVersion)"),
            ("Quarantined rows", String(p.quarantined.count)),
        ]
        var row = 2
        for (label, value) in facts {
            try sheet.write(label, row: row, column: 0, format: s.label)
            try sheet.write(value, row: row, column: 1)
            row += 1
        }

        row += 1
        try sheet.write("Sheets", row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells(["Sheet", "What it holds"], row: row, styles: s)
        let continued = transactionSheets.count > 1 ? " (continued on \(transactionSheets.dropFirst().joined(separator: ", ")))" : ""
        let sheets: [(String, String)] = [
            ("Summary", "The headline figures, expenses by category with a pie chart, and the trend as a line chart."),
            ("Transactions", "Every row of transactions.csv\(continued): dates are Excel dates, amounts numbers in the row's currency; 'Counted' is what the row adds to income or expenses in the report currency."),
            ("Categories", "Expenses per category for the period, with a total (a SUM formula equal to the statement's expenses)."),
            ("Trends", "Income, expenses and net per bucket, expenses per category per bucket, and each balance at each bucket's end."),
            ("Budgets", "Each budget window: base, transfers, effective budget, spent, remaining, pace and status (red over, amber warning)."),
            ("Groups", "Each member's balance in each group, and the transfers that settle them."),
            ("Savings", "Each savings goal's progress and what must be saved each month to reach it."),
            ("About", "This page: where the figures came from."),
        ]
        for (name, what) in sheets {
            row += 1
            try sheet.write(name, row: row, column: 0, format: s.label)
            try sheet.write(what, row: row, column: 1, format: s.wrapped)
        }

        row += 2
        try sheet.write("Quarantined rows (left out of every figure)", row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells(["Table", "Reason", "Row ID"], row: row, styles: s)
        for q in p.quarantined.sorted() {
            row += 1
            try sheet.write(q.table, row: row, column: 0)
            try sheet.write(q.reason, row: row, column: 1)
            try sheet.write(number: Double(q.id), row: row, column: 2)
        }
        if p.quarantined.isEmpty {
            row += 1
            try sheet.write("None", row: row, column: 0, format: s.note)
        }
    }
}
