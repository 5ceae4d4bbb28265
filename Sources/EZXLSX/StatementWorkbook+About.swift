import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// About: where the figures came from (the ledger's SHA-256, the period, the as-of date,
    /// the engine's version, the quarantined rows) and what each sheet holds.
    static func writeAbout(_ f: StatementFigures, provenance p: ReportProvenance, transactionSheets: [String],
                           to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        try sheet.setColumns(0...0, width: 24)
        try sheet.setColumns(1...1, width: 70)
        try sheet.setColumns(2...2, width: 50)
        try sheet.write(tr("About this workbook"), row: 0, column: 0, format: s.title)
        let facts: [(String, AboutValue)] = [
            (tr("Statement for"), .text(f.user.username)),
            (tr("Account book"), .text(f.user.bookName)),
            (tr("Period"), .text(f.period.name)),
            (tr("Period start"), .date(f.period.start)),
            (tr("Period end"), .date(f.period.end)),
            (tr("As of"), .date(p.asOf)),
            (tr("Report currency"), .text(f.currency.code)),
            (tr("Time zone"), .text(f.user.timeZone)),
            p.ledgerIsServer ? (tr("Ledger"), .text("PostgreSQL")) : (tr("Ledger SHA-256"), .text(p.ledgerSHA256)),
            p.ledgerIsServer ? (tr("Ledger URL"), .text(p.ledgerPath)) : (tr("Ledger file"), .text(p.ledgerPath)),
            (tr("Engine"), .text("ezreport \(p.engineVersion)")),
            (tr("Quarantined rows"), .count(p.quarantined.count)),
        ]
        var row = try sheet.writeFacts(facts, row: 2, styles: s)

        row += 1
        try sheet.write(tr("Sheets"), row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells([tr("Sheet"), tr("What it holds")], row: row, styles: s)
        let transactions = transactionSheets.count > 1
            ? tr("Every row of transactions.csv (continued on {sheets}): dates are Excel dates, amounts numbers in the row's currency; 'Counted' is what the row adds to income or expenses in the report currency.",
                 ["sheets": transactionSheets.dropFirst().joined(separator: ", ")])
            : tr("Every row of transactions.csv: dates are Excel dates, amounts numbers in the row's currency; 'Counted' is what the row adds to income or expenses in the report currency.")
        let sheets: [(String, String)] = [
            ("Summary", tr("The headline figures, expenses by category with a pie chart, and the trend as a line chart.")),
            ("Transactions", transactions),
            ("Categories", tr("Expenses per category for the period, with a total (a SUM formula equal to the statement's expenses).")),
            ("Trends", tr("Income, expenses and net per bucket, expenses per category per bucket, and each balance at each bucket's end.")),
            ("Budgets", tr("Each budget window: base, transfers, effective budget, spent, remaining, pace and status (red over, amber warning).")),
            ("Groups", tr("Each member's balance in each group, and the transfers that settle them.")),
            ("Savings", tr("Each savings goal's progress and what must be saved each month to reach it.")),
            ("Comparison", tr("Income, expenses, net and each category against the previous period and the same period a year earlier; the changes are formulas.")),
            ("About", tr("This page: where the figures came from.")),
        ]
        for (name, what) in sheets {
            row += 1
            try sheet.write(name, row: row, column: 0, format: s.label)
            try sheet.write(what, row: row, column: 1, format: s.wrapped)
        }

        row += 2
        try sheet.write(tr("Quarantined rows (left out of every figure)"), row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells([tr("Table"), tr("Reason"), tr("Row ID")], row: row, styles: s)
        for q in p.quarantined.sorted() {
            row += 1
            try sheet.write(q.table, row: row, column: 0)
            try sheet.write(q.reason, row: row, column: 1)
            try sheet.write(number: Double(q.id), row: row, column: 2)
        }
        if p.quarantined.isEmpty {
            row += 1
            try sheet.write(tr("None"), row: row, column: 0, format: s.note)
        }
    }
}
