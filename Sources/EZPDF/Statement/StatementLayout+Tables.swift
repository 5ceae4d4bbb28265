import EZAnalytics
import EZCharts
import EZCore

extension StatementLayout {
    // MARK: - Categories

    /// Expenses per category, every category unfolded, with a share bar.
    func drawCategories(_ c: PDFComposer) throws {
        try c.section(tr("Spending by category"), keepWith: PDFTable.keepHeight(rows: figures.categories.rows.count, footer: true))
        let shares = figures.categories
        guard !shares.rows.isEmpty else { return try c.note(tr("No expenses in this period.")) }
        // Bars in the charts' colours (the pie's and the stacked bars'), not the ledger's own
        // category colours, so that Housing is the same blue in the pie and in this table.
        let rows: [[PDFTable.Cell]] = shares.rows.enumerated().map { i, s in
            [.text(categoryName(s)), .plain(String(s.count)), .text(money(s.amount)),
             .bar(fraction: s.percent.fraction, color: Palette.color(i), label: percent(s.percent))]
        }
        let table = PDFTable(
            columns: [.init(title: tr("Category"), weight: 36), .init(title: tr("Rows"), weight: 8, align: .right, fit: true),
                      .init(title: tr("Amount"), weight: 20, align: .right, fit: true), .init(title: tr("Share", context: "of a total"), weight: 36)],
            rows: rows,
            footer: [.text(tr("Total")), .text(String(shares.rows.reduce(0) { $0 + $1.count })), .text(money(shares.total)),
                     .text("")])
        try c.draw(table, continuation: tr("Spending by category"))
    }

    // MARK: - Budgets

    /// Every budget window overlapping the period: effective budget, spent, remaining, pace and status.
    func drawBudgets(_ c: PDFComposer) throws {
        try c.section(tr("Budgets"), keepWith: PDFTable.keepHeight(rows: figures.budgets.count))
        guard !figures.budgets.isEmpty else { return try c.note(tr("No budgets cover this period.")) }
        let rows: [[PDFTable.Cell]] = figures.budgets.map { b in
            let name = b.categoryName ?? tr("Overall")
            let moved = b.transfersIn - b.transfersOut
            let effective = money(b.effective) + (moved == 0 ? "" : " *")
            let used = b.percent.map { $0.fraction } ?? (b.spent > 0 ? 1 : 0)
            // A window other than the period is named by its dates, the year once when both share
            // it; a label that takes more lines breaks around the dash, never inside a date.
            let window = b.windowStart == figures.period.start && b.windowEnd == figures.period.end ? ""
                : " · " + format.dateRange(b.windowStart, b.windowEnd).replacingOccurrences(of: " ", with: "\u{00A0}")
                    .replacingOccurrences(of: "\u{00A0}–\u{00A0}", with: " – ")
            return [
                // The name and the window's dates are read whole: a long label takes more lines.
                .wrappingText(name + window, bold: b.categoryName == nil),
                .text(effective), .text(money(b.spent)),
                .text(money(b.remaining), color: b.remaining < 0 ? PDFTheme.negative : PDFTheme.ink),
                .bar(fraction: used, color: PDFTheme.color(for: b.status), label: percent(b.percent)),
                .pill(statusLabel(b.status), PDFTheme.color(for: b.status)),
            ]
        }
        let table = PDFTable(columns: [
            .init(title: tr("Budget"), weight: 30, wraps: true), .init(title: tr("Amount"), weight: 21, align: .right, fit: true),
            .init(title: tr("Spent"), weight: 14, align: .right, fit: true), .init(title: tr("Left"), weight: 14, align: .right, fit: true),
            .init(title: tr("Used"), weight: 20), .init(title: tr("Status"), weight: 12, align: .right, fit: true),
        ], rows: rows)
        try c.draw(table, continuation: tr("Budgets"))
        let moved = figures.budgets.contains { $0.transfersIn != 0 || $0.transfersOut != 0 }
        c.y += 4
        try c.note(moved
            ? tr("Amount is the base budget plus budget moved in, minus budget moved out (marked *). Projections assume the pace so far continues.")
            : tr("Amount is the base budget plus budget moved in, minus budget moved out. Projections assume the pace so far continues."))
    }

    func statusLabel(_ s: BudgetStatus) -> String {
        switch s {
        case .ok: return tr("OK")
        case .warning: return tr("WARNING")
        case .over: return tr("OVER")
        }
    }

    // MARK: - Savings

    /// Each savings goal's progress and what it needs per month.
    func drawSavings(_ c: PDFComposer) throws {
        try c.section(tr("Savings goals"), keepWith: PDFTable.keepHeight(rows: figures.savings.count))
        guard !figures.savings.isEmpty else { return try c.note(tr("No savings goals yet.")) }
        let rows: [[PDFTable.Cell]] = figures.savings.map { s in
            let done = s.saved >= s.target
            return [
                .text(s.name), .text(money(s.saved, s.currency)), .text(money(s.target, s.currency)),
                .bar(fraction: s.percent?.fraction ?? 0, color: done ? PDFTheme.positive : PDFTheme.accent,
                     label: percent(s.percent)),
                // No due date is a muted dash, as "Per month" has: "Kein Fälligkeitsdatum" made the
                // fitted column so wide that the goal's name and the progress label were cut.
                .text(s.dueOn.map { format.date($0) } ?? "–", color: s.dueOn == nil ? PDFTheme.muted : PDFTheme.ink),
                .text(done ? tr("Reached") : (s.monthlyNeeded.map { money($0, s.currency) } ?? "–"),
                      color: done ? PDFTheme.positive : PDFTheme.ink),
            ]
        }
        let table = PDFTable(columns: [
            .init(title: tr("Goal"), weight: 27), .init(title: tr("Saved"), weight: 15, align: .right, fit: true),
            .init(title: tr("Target"), weight: 15, align: .right, fit: true), .init(title: tr("Progress"), weight: 21),
            .init(title: tr("Due"), weight: 15, fit: true), .init(title: tr("Per month"), weight: 15, align: .right, fit: true),
        ], rows: rows)
        try c.draw(table, continuation: tr("Savings goals"))
    }
}
