import EZAnalytics
import EZCairo
import EZCore

extension StatementLayout {
    // MARK: - Compared with earlier periods

    /// Income, expenses, net and each category in this period, the previous period of the same
    /// length and the same period a year earlier, with the changes in money and percent.
    func drawComparison(_ c: PDFComposer) throws {
        let cmp = figures.comparison
        let title = tr("Compared with earlier periods")
        try c.section(title, keepWith: 18 + PDFTable.keepHeight(rows: 3))
        try c.note(tr("Previous period: {previous}  ·  A year earlier: {yearAgo}",
                      ["previous": dates(cmp.previous), "yearAgo": dates(cmp.yearAgo)]))
        let rows = [
            comparedRow(tr("Income"), cmp.income, moreIsBetter: true),
            comparedRow(tr("Expenses"), cmp.expenses, moreIsBetter: false),
            comparedRow(tr("Net"), cmp.net, moreIsBetter: true, bold: true),
        ]
        try c.draw(PDFTable(columns: comparisonColumns(first: tr("Measure")), rows: rows), continuation: title)

        let byCategory = tr("Expenses by category")
        if cmp.categories.isEmpty {
            try c.note(tr("No expenses in any of these periods"))
        } else {
            c.y += 4
            try c.subsection(byCategory, keepWith: PDFTable.keepHeight(rows: cmp.categories.count))
            try c.draw(PDFTable(columns: comparisonColumns(first: tr("Category")),
                                rows: cmp.categories.map { comparedRow($0.name, $0.amounts, moreIsBetter: false) }),
                       continuation: byCategory)
        }
        c.y += 2
        try c.note(tr("A change in percent is against the earlier amount; there is none where that amount was 0."))
    }

    /// "1 Sep 2026 – 30 Sep 2026" in the reader's locale.
    private func dates(_ p: Period) -> String { "\(format.date(p.start)) – \(format.date(p.end))" }

    private func comparisonColumns(first: String) -> [PDFTable.Column] {
        [
            .init(title: first, weight: 28),
            .init(title: tr("This period"), weight: 14, align: .right, fit: true),
            .init(title: tr("Previous period"), weight: 14, align: .right, fit: true),
            .init(title: tr("Change vs previous"), weight: 15, align: .right, fit: true),
            .init(title: tr("A year earlier"), weight: 14, align: .right, fit: true),
            .init(title: tr("Change vs year ago"), weight: 15, align: .right, fit: true),
        ]
    }

    /// A row of the comparison: the amounts, and each change coloured by whether it is good news
    /// (more income, less spending).
    private func comparedRow(_ name: String, _ a: ComparedAmount, moreIsBetter: Bool, bold: Bool = false) -> [PDFTable.Cell] {
        func change(_ ch: Change) -> PDFTable.Cell {
            let text = signedMoney(ch.absolute) + (ch.percent.map { " (\(signedPercent($0)))" } ?? "")
            let good = moreIsBetter ? ch.absolute > 0 : ch.absolute < 0
            let color = ch.absolute == 0 ? PDFTheme.ink : (good ? PDFTheme.positive : PDFTheme.negative)
            return .text(text, color: color, bold: bold)
        }
        return [
            .text(name, bold: bold), .text(money(a.current), bold: bold), .text(money(a.previous), bold: bold), change(a.vsPrevious),
            .text(money(a.yearAgo), bold: bold), change(a.vsYearAgo),
        ]
    }
}
