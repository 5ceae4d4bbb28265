import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// The Transactions sheet's columns, titled in the reader's language.
    static func transactionColumns(_ tr: Translator) -> [Worksheet.Column] { [
        .init(tr("ID"), 10), .init(tr("Date"), 11), .init(tr("Kind"), 9), .init(tr("Category"), 18), .init(tr("Balance"), 16),
        .init(tr("Method"), 12), .init(tr("Description"), 44), .init(tr("Amount"), 15), .init(tr("Currency"), 9),
        .init(tr("Counted"), 15), .init(tr("Report currency"), 9), .init(tr("Group"), 16), .init(tr("Paid by"), 14),
    ] }

    /// One Transactions sheet: the rows of transactions.csv in `rows`, the date as a real
    /// Excel date and amounts as numbers; frozen header, autofilter, no totals row.
    static func writeTransactions(_ f: StatementFigures, rows: Range<Int>, to sheet: Worksheet,
                                  styles s: Styles) throws(XLSXError) {
        try writeTransactions(f.transactions, rows, currency: f.currency, locale: f.user.locale, to: sheet, styles: s)
    }

    /// One Transactions sheet holding `all[rows]`, `counted` in the report currency `currency`,
    /// titles in `locale`'s language (the statement's sheet, and the filtered export's).
    static func writeTransactions(_ all: [StatementRow], _ rows: Range<Int>, currency: Currency, locale: String,
                                  to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: locale)
        let columns = transactionColumns(tr)
        try sheet.writeHeader(columns, row: 0, styles: s)
        try sheet.freezePanes(row: 1, column: 0)
        try sheet.autofilter(firstRow: 0, firstColumn: 0, lastRow: max(rows.count, 1), lastColumn: columns.count - 1)
        let counted = try s.money(currency)
        // The kind in the reader's words, as the PDF names it (transactions.csv keeps income/expense/transfer).
        let kinds: [Transaction.Kind: String] = [.income: tr("Income", context: "a transaction's kind"), .expense: tr("Expense"), .transfer: tr("Transfer")]
        let reportCode = currency.code
        var lastCurrency = currency
        var amountFormat = counted
        var r = 1
        for i in rows {
            let t = all[i]
            if t.currency != lastCurrency {
                lastCurrency = t.currency
                amountFormat = try s.money(t.currency)
            }
            try sheet.write(number: Double(t.id), row: r, column: 0)
            try sheet.write(number: t.date.excelSerial, row: r, column: 1, format: s.date)
            try sheet.write(kinds[t.kind] ?? t.kind.rawValue, row: r, column: 2)
            try sheet.write(t.category, row: r, column: 3)
            try sheet.write(t.balance, row: r, column: 4)
            try sheet.write(t.method, row: r, column: 5)
            try sheet.write(t.description, row: r, column: 6)
            try sheet.write(number: t.amount.majorUnits(t.currency), row: r, column: 7, format: amountFormat)
            try sheet.write(t.currency.code, row: r, column: 8)
            try sheet.write(number: t.counted.majorUnits(currency), row: r, column: 9, format: counted)
            try sheet.write(reportCode, row: r, column: 10)
            try sheet.write(t.group, row: r, column: 11)
            try sheet.write(t.paidBy, row: r, column: 12)
            r += 1
        }
    }
}
