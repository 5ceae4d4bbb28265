import EZAnalytics
import EZCore
import EZLocale

/// The admin usage workbook (`usage.xlsx`): a sheet per table of ``UsageFigures`` with native
/// charts. Suppressed cells (fewer than five users) hold the text `<5`; nothing identifies a person.
///
/// ```swift
/// try UsageWorkbook.write(usage, provenance: provenance, to: "out/admin/usage.xlsx")
/// ```
package enum UsageWorkbook {
    /// What a suppressed cell shows.
    static let suppressedMark = "<" + String(UsageFigures.minimumUsers)

    /// Writes the workbook for `usage` to `path`, replacing any file there; labels and titles in
    /// `locale`'s language (sheet names stay English: scripts read them).
    package static func write(_ usage: UsageFigures, provenance: ReportProvenance, to path: String, locale: String = "en") throws {
        try writeWorkbook(usage, provenance: provenance, to: path, tr: Translator(locale: locale))
    }

    static func writeWorkbook(_ u: UsageFigures, provenance p: ReportProvenance, to path: String, tr: Translator) throws(XLSXError) {
        let properties = DocumentProperties(
            title: tr("EZWallet usage {period}", ["period": u.period.name]),
            subject: tr("Aggregate usage of the EZWallet ledger, {period}", ["period": u.period.name]),
            keywords: "ezreport, usage, \(u.period.name)",
            comments: (p.ledgerIsServer ? "Ledger PostgreSQL" : "Ledger SHA-256 \(p.ledgerSHA256)") + "; ezreport \(p.engineVersion)",
            created: p.asOf)
        let book = try Workbook(path: path, properties: properties)
        let s = try Styles(book)
        try writeMonths(u, to: book.addWorksheet("Months"), styles: s, tr: tr)
        try writeCategories(u, to: book.addWorksheet("Top categories"), styles: s, tr: tr)
        try writeSizes(u.groupSizes, noun: tr("Groups"), to: book.addWorksheet("Group sizes"), styles: s, tr: tr)
        try writeSizes(u.familySizes, noun: tr("Families"), to: book.addWorksheet("Family sizes"), styles: s, tr: tr)
        try writeCohorts(u, to: book.addWorksheet("Cohorts"), styles: s, tr: tr)
        try writeAbout(u, provenance: p, to: book.addWorksheet("About"), styles: s, tr: tr)
        try book.close()
    }

    // MARK: - Cells

    static func write(_ v: Guarded<Int>, _ sheet: Worksheet, _ r: Int, _ c: Int, _ s: Styles) throws(XLSXError) {
        switch v {
        case .shown(let n): try sheet.write(integer: n, row: r, column: c, styles: s)
        case .suppressed: try sheet.write(suppressedMark, row: r, column: c)
        }
    }

    static func write(_ v: Guarded<Int64>, _ currency: Currency, _ sheet: Worksheet, _ r: Int, _ c: Int, _ s: Styles) throws(XLSXError) {
        switch v {
        case .shown(let m): try sheet.write(money: m, currency, row: r, column: c, styles: s)
        case .suppressed: try sheet.write(suppressedMark, row: r, column: c)
        }
    }

    static func write(_ v: Guarded<Percent>, _ sheet: Worksheet, _ r: Int, _ c: Int, _ s: Styles) throws(XLSXError) {
        switch v {
        case .shown(let p): try sheet.write(percentTenths: p.tenths, row: r, column: c, styles: s)
        case .suppressed: try sheet.write(suppressedMark, row: r, column: c)
        }
    }

    // MARK: - Sheets

    /// Months: the columns of usage.csv, with users as lines and transactions and volume as columns.
    static func writeMonths(_ u: UsageFigures, to sheet: Worksheet, styles s: Styles, tr: Translator) throws(XLSXError) {
        try sheet.writeHeader([
            .init(tr("Month"), 11), .init(tr("Users"), 9), .init(tr("New"), 8), .init(tr("Deleted"), 9), .init(tr("Active"), 9),
            .init(tr("Monthly active (sign-ins)"), 12), .init(tr("Transactions"), 13), .init(tr("Volume"), 16),
            .init(tr("Budgets over"), 10), .init(tr("Spend p50"), 14), .init(tr("Spend p90"), 14),
        ], row: 0, styles: s)
        try sheet.freezePanes(row: 1, column: 1)
        for (i, m) in u.months.enumerated() {
            let r = i + 1
            try sheet.write(date: m.month, row: r, column: 0, styles: s)
            try write(m.usersTotal, sheet, r, 1, s)
            try write(m.usersNew, sheet, r, 2, s)
            try write(m.usersDeleted, sheet, r, 3, s)
            try write(m.usersActive, sheet, r, 4, s)
            try write(m.mau, sheet, r, 5, s)
            try write(m.transactions, sheet, r, 6, s)
            try write(m.volume, u.currency, sheet, r, 7, s)
            try write(m.budgetsOverShare, sheet, r, 8, s)
            try write(m.spendP50, u.currency, sheet, r, 9, s)
            try write(m.spendP90, u.currency, sheet, r, 10, s)
        }
        let n = u.months.count
        guard n > 0 else {
            try sheet.write(tr("No months in this report"), row: 2, column: 0, format: s.note)
            return
        }
        let rows = 1...n
        let months = Chart.Range.column(0, rows: rows, on: sheet.name)
        let users = try sheet.workbook.addChart(.line)
        try users.title(tr("Users per month"))
        try users.addSeries(name: tr("Total"), categories: months, values: .column(1, rows: rows, on: sheet.name), color: Styles.blue)
        try users.addSeries(name: tr("New"), categories: months, values: .column(2, rows: rows, on: sheet.name), color: Styles.green)
        try users.addSeries(name: tr("Active"), categories: months, values: .column(4, rows: rows, on: sheet.name), color: Styles.orange)
        try users.addSeries(name: tr("Deleted"), categories: months, values: .column(3, rows: rows, on: sheet.name), color: Styles.grey)
        try users.legendAtBottom()
        try users.categoryAxisFormat("mmm yyyy")
        try sheet.insert(users, row: n + 3, column: 0, scale: (1.3, 1.1))
        let transactions = try sheet.workbook.addChart(.column)
        try transactions.title(tr("Transactions per month"))
        try transactions.addSeries(name: tr("Transactions"), categories: months, values: .column(6, rows: rows, on: sheet.name))
        try transactions.categoryAxisFormat("mmm yyyy")
        try sheet.insert(transactions, row: n + 3, column: 7, scale: (1.1, 1.1))
        let volume = try sheet.workbook.addChart(.column)
        try volume.title(tr("Expense volume per month ({currency})", ["currency": u.currency.code]))
        try volume.addSeries(name: tr("Volume"), categories: months, values: .column(7, rows: rows, on: sheet.name))
        try volume.valueAxisFormat(Styles.moneyCode(u.currency))
        try volume.categoryAxisFormat("mmm yyyy")
        try sheet.insert(volume, row: n + 21, column: 0, scale: (1.3, 1.1))
    }

    /// Top categories: the ten names with the largest expense volume, with a bar chart.
    static func writeCategories(_ u: UsageFigures, to sheet: Worksheet, styles s: Styles, tr: Translator) throws(XLSXError) {
        try sheet.writeHeader([.init(tr("Category"), 24), .init(tr("Volume"), 16), .init(tr("Users"), 9)], row: 0, styles: s)
        for (i, c) in u.topCategories.enumerated() {
            try sheet.write(chartLabel: c.name, row: i + 1, column: 0)
            try write(c.volume, u.currency, sheet, i + 1, 1, s)
            try write(c.users, sheet, i + 1, 2, s)
        }
        // Names held back so that the spend outside the list is never a few users': said, so
        // that a short list is not read as all of them.
        let heldBack = tr("Smaller categories are left out so that the spend outside the list is always that of five users or more.")
        guard !u.topCategories.isEmpty else {
            try sheet.write(u.topCategoriesHeldBack > 0 ? heldBack : tr("No category name was used by five users or more in this period"),
                            row: 2, column: 0, format: s.note)
            return
        }
        if u.topCategoriesHeldBack > 0 { try sheet.write(heldBack, row: u.topCategories.count + 2, column: 0, format: s.note) }
        let rows = 1...u.topCategories.count
        let chart = try sheet.workbook.addChart(.bar)
        try chart.title(tr("Top categories by volume ({currency})", ["currency": u.currency.code]))
        try chart.addSeries(name: tr("Volume"), categories: .column(0, rows: rows, on: sheet.name), values: .column(1, rows: rows, on: sheet.name))
        try chart.valueAxisFormat(Styles.moneyCode(u.currency))
        try sheet.insert(chart, row: 1, column: 4, scale: (1.3, 1.2))
    }

    /// Group or family sizes: how many have n members, with a column chart.
    static func writeSizes(_ sizes: [SizeCount], noun: String, to sheet: Worksheet, styles s: Styles, tr: Translator) throws(XLSXError) {
        try sheet.writeHeader([.init(tr("Members"), 10), .init(noun, 10)], row: 0, styles: s)
        for (i, size) in sizes.enumerated() {
            try sheet.write(integer: size.size, row: i + 1, column: 0, styles: s)
            try write(size.count, sheet, i + 1, 1, s)
        }
        guard !sizes.isEmpty else {
            try sheet.write(tr("None"), row: 2, column: 0, format: s.note)
            return
        }
        let rows = 1...sizes.count
        let chart = try sheet.workbook.addChart(.column)
        try chart.title("\(noun) by number of members")
        try chart.addSeries(name: noun, categories: .column(0, rows: rows, on: sheet.name), values: .column(1, rows: rows, on: sheet.name))
        try sheet.insert(chart, row: 1, column: 3)
    }

    /// Cohorts: each sign-up month's size and retention, shaded as a heat map.
    static func writeCohorts(_ u: UsageFigures, to sheet: Worksheet, styles s: Styles, tr: Translator) throws(XLSXError) {
        let width = u.cohorts.map(\.retention.count).max() ?? 0
        try sheet.writeHeader([.init(tr("Cohort"), 11), .init(tr("Users"), 9)], row: 0, styles: s)
        try sheet.writeHeaderCells((0..<width).map { tr("Month +{count}", ["count": String($0)]) }, row: 0, column: 2, styles: s)
        if width > 0 { try sheet.setColumns(2...(1 + width), width: 10) }
        try sheet.freezePanes(row: 1, column: 2)
        for (i, c) in u.cohorts.enumerated() {
            try sheet.write(date: c.month, row: i + 1, column: 0, styles: s)
            try write(c.size, sheet, i + 1, 1, s)
            for (k, share) in c.retention.enumerated() { try write(share, sheet, i + 1, 2 + k, s) }
        }
        guard !u.cohorts.isEmpty, width > 0 else {
            try sheet.write(tr("No cohorts"), row: 2, column: 0, format: s.note)
            return
        }
        try sheet.colorScale(firstRow: 1, firstColumn: 2, lastRow: u.cohorts.count, lastColumn: 1 + width,
                             low: 0xF7FBFF, middle: 0x6BAED6, high: 0x08306B)
    }

    /// About: the period, the as-of date, the suppression rule and the provenance.
    static func writeAbout(_ u: UsageFigures, provenance p: ReportProvenance, to sheet: Worksheet, styles s: Styles, tr: Translator) throws(XLSXError) {
        try sheet.setColumns(0...0, width: 24)
        try sheet.setColumns(1...1, width: 80)
        try sheet.write(tr("About this workbook"), row: 0, column: 0, format: s.title)
        let facts: [(String, AboutValue)] = [
            (tr("Report"), .text(tr("EZWallet usage (aggregate; nothing here identifies a person)"))),
            (tr("Period"), .text(u.period.name)),
            (tr("As of"), .date(u.asOf)),
            (tr("Currency"), .text(tr("{currency}: volumes and spend are converted to it", ["currency": u.currency.code]))),
            (tr("Suppression"), .text(tr("Any figure about fewer than {count} users shows '{mark}'.",
                                   ["count": String(UsageFigures.minimumUsers), "mark": suppressedMark])
                + " " + tr("A spend percentile is one user's own amount: it is shown only when at least {count} users spent as much or less and {count} as much or more.", ["count": String(UsageFigures.minimumUsers)]))),
            p.ledgerIsServer ? (tr("Ledger"), .text("PostgreSQL")) : (tr("Ledger SHA-256"), .text(p.ledgerSHA256)),
            (tr("Engine"), .text("ezreport \(p.engineVersion)")),
            (tr("Quarantined rows"), .count(u.rowsQuarantined)),
            // Sheet names stay as scripts know them; what they hold is in the reader's language.
            ("Months", .text(tr("Users (total, new, deleted, active, monthly active), transactions, volume, budgets over, spend percentiles per active user."))),
            ("Top categories", .text(tr("The ten category names with the largest expense volume, and how many users spent in each."))),
            ("Group sizes", .text(tr("How many groups have n live members at the period's end."))),
            ("Family sizes", .text(tr("How many families have n members."))),
            ("Cohorts", .text(tr("Users by sign-up month, and the share of each cohort active k months later."))),
        ]
        try sheet.writeFacts(facts, row: 2, styles: s, textFormat: s.wrapped)
    }
}
