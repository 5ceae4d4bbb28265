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
        // The amounts go without their currency, named once here, so that six columns fit a
        // portrait page in every locale ("CHF 4’172.10" in each cell did not).
        let note = tr("Amounts in {currency}  ·  Previous period: {previous}  ·  A year earlier: {yearAgo}",
                      ["currency": figures.currency.code, "previous": dates(cmp.previous), "yearAgo": dates(cmp.yearAgo)])
        // The title stays with the note and the whole first table (which is never split).
        let noteHeight = c.measure(note, font: PDFTheme.bodyFont, width: c.width, maxLines: 3).height + 6
        try c.section(title, keepWith: noteHeight + PDFTable.keepHeight(rows: 3))
        try c.note(note)
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

    /// A period as a column header: short enough for six columns on a portrait page.
    ///
    /// A month is named by its last day's month ("Oct 2026"), so that a month starting on another
    /// day (25 September … 24 October, the statement's "2026-10") is named as the statement names
    /// it; a quarter by its abbreviated name ("Q3 2026", "T3 2026"), a year by its number, an ISO
    /// week by its number and year ("Week 39, 2026", "KW 39/2026"), a day by its date; a range, whose dates
    /// would not fit, by a short word (`words`: "Previous"), its dates being in the note above the table.
    ///
    /// Headers are set in capitals (``PDFTable``), by rules that know no language: a label in the
    /// reader's locale is put in capitals here by its own (Turkish "Eki 2026" is "EKİ 2026", not
    /// "EKI 2026"), which the table's capitals then leave as they are.
    private func columnLabel(_ p: Period, words: String) -> String {
        switch p.kind {
        case .month: return format.uppercased(format.monthYearLabel(p.end))
        case .quarter: return format.uppercased(format.quarterShortLabel(p))
        case .year: return String(p.start.year)
        case .week:
            let w = p.start.isoWeek
            return tr("Week {week}, {year}", context: "an ISO week, as a column header", ["week": String(w.week), "year": String(w.year)])
        case .day: return format.uppercased(format.date(p.start))
        case .range: return words
        }
    }

    /// The name, then each period's amount, each earlier one followed by the change against it.
    private func comparisonColumns(first: String) -> [PDFTable.Column] {
        let cmp = figures.comparison
        let previous = columnLabel(cmp.previous, words: tr("Previous", context: "a period, as a column header"))
        let yearAgo = columnLabel(cmp.yearAgo, words: tr("Year earlier", context: "a period, as a column header"))
        return [
            // Every column as wide as it needs (the name too, so that it is not the one squeezed);
            // the table then shares the page's width in proportion to those needs.
            .init(title: first, weight: 1, fit: true),
            .init(title: columnLabel(cmp.period, words: tr("Current", context: "a period, as a column header")), weight: 1,
                  align: .right, fit: true),
            .init(title: previous, weight: 1, align: .right, fit: true),
            .init(title: tr("vs {period}", ["period": previous]), weight: 1, align: .right, fit: true),
            .init(title: yearAgo, weight: 1, align: .right, fit: true),
            .init(title: tr("vs {period}", ["period": yearAgo]), weight: 1, align: .right, fit: true),
        ]
    }

    /// A row of the comparison: the amounts, and each change coloured by whether it is good news
    /// (more income, less spending).
    private func comparedRow(_ name: String, _ a: ComparedAmount, moreIsBetter: Bool, bold: Bool = false) -> [PDFTable.Cell] {
        func amount(_ minor: Int64) -> String { format.decimal(minor, fractionDigits: figures.currency.exponent) }
        func change(_ ch: Change) -> PDFTable.Cell {
            let text = (ch.absolute > 0 ? "+" : "") + amount(ch.absolute) + (ch.percent.map { " (\(signedPercent($0)))" } ?? "")
            let good = moreIsBetter ? ch.absolute > 0 : ch.absolute < 0
            let color = ch.absolute == 0 ? PDFTheme.ink : (good ? PDFTheme.positive : PDFTheme.negative)
            return .text(text, color: color, bold: bold)
        }
        return [
            .text(name, bold: bold), .text(amount(a.current), bold: bold), .text(amount(a.previous), bold: bold), change(a.vsPrevious),
            .text(amount(a.yearAgo), bold: bold), change(a.vsYearAgo),
        ]
    }
}
