import EZAnalytics
import EZCairo
import EZCore

extension StatementLayout {
    // MARK: - Groups

    /// Each group: members' positions and the transfers that settle them. Omitted for users in no group.
    func drawGroups(_ c: PDFComposer) throws {
        guard !figures.groups.isEmpty else { return }
        let sectionId = try c.section("Groups", keepWith: 120)
        for g in figures.groups {
            try c.subsection(g.name, detail: "\(g.members.count) members · \(g.currency.code)", keepWith: 90)
            try c.bookmark(g.name, parent: sectionId)
            let rows: [[PDFTable.Cell]] = g.members.map { m in
                let me = m.userId == figures.user.id
                return [
                    .text(m.username + (me ? " (you)" : ""), bold: me),
                    .text(money(m.paid, g.currency)), .text(money(m.share, g.currency)),
                    .text(signedMoney(m.net, g.currency)),
                    .text(signedMoney(m.outstanding, g.currency),
                          color: m.outstanding < 0 ? PDFTheme.negative : (m.outstanding > 0 ? PDFTheme.positive : PDFTheme.ink)),
                ]
            }
            try c.draw(PDFTable(columns: [
                .init(title: "Member", weight: 32), .init(title: "Paid", weight: 17, align: .right, fit: true),
                .init(title: "Share", weight: 17, align: .right, fit: true),
                .init(title: "Net (period)", weight: 17, align: .right, fit: true),
                .init(title: "Outstanding", weight: 22, align: .right, fit: true),
            ], rows: rows), continuation: "\(g.name) (continued)")
            try c.note("Outstanding is what each member is owed (+) or owes (−) since the group began.")
            if g.settlement.transfers.isEmpty {
                try c.note("Everyone is settled up.")
            } else {
                let how = g.settlement.method == .exact ? "fewest transfers" : "a short plan (greedy)"
                try c.ensureSpace(18 + PDFTable.rowHeight * Double(min(3, g.settlement.transfers.count)))
                c.text("Settlement plan · \(how)", font: PDFTheme.font(8.5, bold: true),
                       at: Point(x: c.left, y: c.y), width: c.width, color: PDFTheme.muted)
                c.y += 16
                for t in g.settlement.transfers {
                    try c.ensureSpace(PDFTable.rowHeight)
                    let mine = t.fromUserId == figures.user.id || t.toUserId == figures.user.id
                    c.text("\(t.fromUsername)  →  \(t.toUsername)", font: mine ? PDFTheme.font(9, bold: true) : PDFTheme.bodyFont,
                           at: Point(x: c.left + 10, y: c.y), width: c.width * 0.65)
                    c.text(money(t.amount, g.currency), font: PDFTheme.font(9, bold: true),
                           at: Point(x: c.left + c.width * 0.65, y: c.y), width: c.width * 0.35 - 5, align: .right)
                    c.y += PDFTable.rowHeight
                }
            }
            c.y += 10
        }
    }

    // MARK: - Family

    /// For a parent: each child's income, expenses, top categories and the budgets they went over.
    func drawFamily(_ c: PDFComposer) throws {
        guard let family = figures.family else { return }
        let sectionId = try c.section("Family · \(family.familyName)", keepWith: 100)
        guard !family.children.isEmpty else { return try c.note("No children in this family yet.") }
        let rows: [[PDFTable.Cell]] = family.children.map { child in
            let top = child.categories.prefix(3).map { "\($0.name) \(format.wholePercent($0.percent))" }
            return [
                .text(child.username, bold: true), .text(money(child.income)), .text(money(child.expenses)),
                .text(top.isEmpty ? "–" : top.joined(separator: ", "), color: PDFTheme.muted),
                child.overBudgets.isEmpty ? .pill("OK", PDFTheme.positive)
                    : .pill("\(child.overBudgets.count) OVER", PDFTheme.negative),
            ]
        }
        try c.bookmark("Children", parent: sectionId)
        try c.draw(PDFTable(columns: [
            .init(title: "Child", weight: 20, fit: true), .init(title: "Income", weight: 15, align: .right, fit: true),
            .init(title: "Expenses", weight: 15, align: .right, fit: true), .init(title: "Top categories", weight: 45),
            .init(title: "Budgets", weight: 12, align: .right, fit: true),
        ], rows: rows), continuation: "Family (continued)")
        let over = family.children.flatMap { child in child.overBudgets.map { (child.username, $0) } }
        if !over.isEmpty {
            c.y += 8
            try c.subsection("Budgets exceeded", keepWith: PDFTable.rowHeight * 2)
            try c.draw(PDFTable(columns: [
                .init(title: "Child", weight: 18), .init(title: "Budget", weight: 18),
                .init(title: "Window", weight: 32, fit: true), .init(title: "Amount", weight: 13, align: .right, fit: true),
                .init(title: "Spent", weight: 13, align: .right, fit: true), .init(title: "Used", weight: 11, align: .right, fit: true),
            ], rows: over.map { name, b in
                [.text(name), .text(b.categoryName ?? "Overall"),
                 .text("\(format.date(b.windowStart)) – \(format.date(b.windowEnd))", color: PDFTheme.muted),
                 .text(money(b.effective)), .text(money(b.spent), color: PDFTheme.negative), .text(percent(b.percent))]
            }), continuation: "Budgets exceeded (continued)")
        }
    }
}
