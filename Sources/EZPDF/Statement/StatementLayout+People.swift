import EZAnalytics
import EZCairo
import EZCore
import EZLocale

extension StatementLayout {
    // MARK: - Groups

    /// Each group: members' positions and the transfers that settle them. Omitted for users in no group.
    func drawGroups(_ c: PDFComposer) throws {
        guard !figures.groups.isEmpty else { return }
        let sectionId = try c.section(tr("Groups"), keepWith: 120)
        for g in figures.groups {
            try c.subsection(g.name, detail: tr.plural("{count} member · {currency}", "{count} members · {currency}", count: g.members.count,
                                                    ["currency": g.currency.code]), keepWith: 90)
            try c.bookmark(g.name, parent: sectionId)
            let rows: [[PDFTable.Cell]] = g.members.map { m in
                let me = m.userId == figures.user.id
                return [
                    .text(me ? tr("{name} (you)", ["name": InlineText.isolated(m.username)]) : m.username, bold: me),
                    .text(money(m.paid, g.currency)), .text(money(m.share, g.currency)),
                    .text(signedMoney(m.net, g.currency)),
                    .text(signedMoney(m.outstanding, g.currency),
                          color: m.outstanding < 0 ? PDFTheme.negative : (m.outstanding > 0 ? PDFTheme.positive : PDFTheme.ink)),
                ]
            }
            try c.draw(PDFTable(columns: [
                .init(title: tr("Member"), weight: 32), .init(title: tr("Paid"), weight: 17, align: .right, fit: true),
                .init(title: tr("Share", context: "of a group expense"), weight: 17, align: .right, fit: true),
                .init(title: tr("Net (period)"), weight: 17, align: .right, fit: true),
                .init(title: tr("Outstanding"), weight: 22, align: .right, fit: true),
            ], rows: rows), continuation: g.name)
            try c.note(tr("Outstanding is what each member is owed (+) or owes (−) since the group began."))
            if !g.payments.isEmpty {
                c.y += 4
                try c.subsection(tr("Settle-up payments"), keepWith: PDFTable.rowHeight * 2)
                try c.draw(PDFTable(columns: [
                    .init(title: tr("Date"), weight: 22, fit: true), .init(title: tr("From"), weight: 28),
                    .init(title: tr("To"), weight: 28), .init(title: tr("Amount"), weight: 22, align: .right, fit: true),
                ], rows: g.payments.map { p in
                    let mine = p.fromUserId == figures.user.id || p.toUserId == figures.user.id
                    return [.text(format.date(p.date), color: PDFTheme.muted), .text(p.fromUsername, bold: p.fromUserId == figures.user.id),
                            .text(p.toUsername, bold: p.toUserId == figures.user.id), .text(money(p.amount, g.currency), bold: mine)]
                }), continuation: g.name)
            }
            if g.settlement.transfers.isEmpty {
                try c.note(tr("Everyone is settled up."))
            } else {
                let how = g.settlement.method == .exact ? tr("fewest transfers") : tr("a short plan (greedy)")
                try c.ensureSpace(18 + PDFTable.rowHeight * Double(min(3, g.settlement.transfers.count)))
                c.tagged(.h2) { _ = c.text(tr("Settlement plan · {method}", ["method": how]), font: PDFTheme.font(8.5, bold: true),
                       at: Point(x: c.left, y: c.y), width: c.width, color: PDFTheme.muted) }
                c.y += 16
                for t in g.settlement.transfers {
                    try c.ensureSpace(PDFTable.rowHeight)
                    let mine = t.fromUserId == figures.user.id || t.toUserId == figures.user.id
                    c.tagged(.paragraph) {
                    _ = c.text("\(t.fromUsername)  →  \(t.toUsername)", font: mine ? PDFTheme.font(9, bold: true) : PDFTheme.bodyFont,
                           at: Point(x: c.left + 10, y: c.y), width: c.width * 0.65)
                    _ = c.text(money(t.amount, g.currency), font: PDFTheme.font(9, bold: true),
                           at: Point(x: c.left + c.width * 0.65, y: c.y), width: c.width * 0.35 - 5, align: .right)
                    }
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
        let sectionId = try c.section(tr("Family · {name}", ["name": InlineText.isolated(family.familyName)]), keepWith: 100)
        // A child whose account breaks the contract is left out: said, not read as "no children".
        let leftOut = family.childrenLeftOut == 0 ? nil : tr.plural(
            "{count} child's figures are left out: their account breaks the ledger contract (see About this report).",
            "{count} children's figures are left out: their accounts break the ledger contract (see About this report).",
            count: family.childrenLeftOut)
        guard !family.children.isEmpty else { return try c.note(leftOut ?? tr("No children in this family yet.")) }
        let rows: [[PDFTable.Cell]] = family.children.map { child in
            // A no-break space: a line that wraps parts two categories, never a name from its share.
            let top = child.topCategories(3).map { "\(InlineText.isolated($0.name))\u{00A0}\(format.wholePercent($0.wholePercent))" }
            return [
                .text(child.username, bold: true), .text(money(child.income)), .text(money(child.expenses)),
                top.isEmpty ? .text("–", color: PDFTheme.muted) : .wrappingText(top.joined(separator: ", ")),
                child.overBudgets.isEmpty ? .pill(tr("OK"), PDFTheme.positive)
                    : .pill(tr.plural("{count} OVER", "{count} OVER", count: child.overBudgets.count), PDFTheme.negative),
            ]
        }
        try c.bookmark(tr("Children"), parent: sectionId)
        try c.draw(PDFTable(columns: [
            .init(title: tr("Child"), weight: 20, fit: true), .init(title: tr("Income"), weight: 15, align: .right, fit: true),
            .init(title: tr("Expenses"), weight: 15, align: .right, fit: true), .init(title: tr("Top categories"), weight: 45, wraps: true),
            .init(title: tr("Budgets"), weight: 12, align: .right, fit: true),
        ], rows: rows), continuation: tr("Family"))
        if let leftOut {
            c.y += 4
            try c.note(leftOut)
        }
        let over = family.children.flatMap { child in child.overBudgets.map { (child.username, $0, child.budgetCurrency) } }
        if !over.isEmpty {
            c.y += 8
            try c.subsection(tr("Budgets exceeded"), keepWith: PDFTable.rowHeight * 2)
            try c.draw(PDFTable(columns: [
                .init(title: tr("Child"), weight: 18), .init(title: tr("Budget"), weight: 18),
                .init(title: tr("Window"), weight: 32, fit: true), .init(title: tr("Amount"), weight: 13, align: .right, fit: true),
                .init(title: tr("Spent"), weight: 13, align: .right, fit: true), .init(title: tr("Used"), weight: 11, align: .right, fit: true),
            ], rows: over.map { name, b, currency in
                // In the child's currency: the budget and its spending as the child's statement has them.
                [.text(name), .text(b.categoryName ?? tr("Overall")),
                 .text("\(format.date(b.windowStart)) – \(format.date(b.windowEnd))", color: PDFTheme.muted),
                 .text(money(b.effective, currency)), .text(money(b.spent, currency), color: PDFTheme.negative), .text(percent(b.percent))]
            }), continuation: tr("Budgets exceeded"))
        }
    }
}
