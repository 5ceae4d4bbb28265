import EZAnalytics
import EZCore
import EZLocale

extension StatementWorkbook {
    /// Groups: each member's balance in each group (as groups.csv), the period's settle-up
    /// payments, then the settlement plan (as settlements.csv), amounts in each group's currency.
    static func writeGroups(_ f: StatementFigures, to sheet: Worksheet, styles s: Styles) throws(XLSXError) {
        let tr = Translator(locale: f.user.locale)
        try sheet.write(tr("Balances"), row: 0, column: 0, format: s.section)
        try sheet.writeHeader([
            .init(tr("Group ID"), 10), .init(tr("Group"), 22), .init(tr("Member ID"), 11), .init(tr("Member"), 16), .init(tr("Paid"), 14),
            .init(tr("Share", context: "of a group expense"), 14), .init(tr("Net"), 14), .init(tr("Outstanding"), 14), .init(tr("Currency"), 9),
            .init(tr("Settled"), 14),
        ], row: 1, styles: s)
        var row = 2
        for g in f.groups {
            for m in g.members {
                try sheet.write(number: Double(g.groupId), row: row, column: 0)
                try sheet.write(g.name, row: row, column: 1)
                try sheet.write(number: Double(m.userId), row: row, column: 2)
                try sheet.write(m.username, row: row, column: 3)
                try sheet.write(money: m.paid, g.currency, row: row, column: 4, styles: s)
                try sheet.write(money: m.share, g.currency, row: row, column: 5, styles: s)
                try sheet.write(money: m.net, g.currency, row: row, column: 6, styles: s)
                try sheet.write(money: m.outstanding, g.currency, row: row, column: 7, styles: s)
                try sheet.write(g.currency.code, row: row, column: 8)
                try sheet.write(money: m.settled, g.currency, row: row, column: 9, styles: s)
                row += 1
            }
        }
        if f.groups.isEmpty {
            try sheet.write(tr("Not a member of any group"), row: row, column: 0, format: s.note)
            row += 1
        }

        row += 1
        try sheet.write(tr("Settle-up payments"), row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells([tr("Group ID"), tr("Group"), tr("Date"), tr("From"), tr("To"), tr("Amount"), tr("Currency")],
                                   row: row, styles: s)
        row += 1
        var paidBack = false
        for g in f.groups {
            for p in g.payments {
                paidBack = true
                try sheet.write(number: Double(g.groupId), row: row, column: 0)
                try sheet.write(g.name, row: row, column: 1)
                try sheet.write(date: p.date, row: row, column: 2, styles: s)
                try sheet.write(p.fromUsername, row: row, column: 3)
                try sheet.write(p.toUsername, row: row, column: 4)
                try sheet.write(money: p.amount, g.currency, row: row, column: 5, styles: s)
                try sheet.write(g.currency.code, row: row, column: 6)
                row += 1
            }
        }
        if !paidBack {
            try sheet.write(tr("No settle-up payments in this period"), row: row, column: 0, format: s.note)
            row += 1
        }

        row += 1
        try sheet.write(tr("Settlement plan"), row: row, column: 0, format: s.section)
        row += 1
        try sheet.writeHeaderCells([tr("Group ID"), tr("Group"), tr("From"), tr("To"), tr("Amount"), tr("Currency"), tr("Plan")], row: row, styles: s)
        row += 1
        var any = false
        for g in f.groups {
            for t in g.settlement.transfers {
                any = true
                try sheet.write(number: Double(g.groupId), row: row, column: 0)
                try sheet.write(g.name, row: row, column: 1)
                try sheet.write(t.fromUsername, row: row, column: 2)
                try sheet.write(t.toUsername, row: row, column: 3)
                try sheet.write(money: t.amount, g.currency, row: row, column: 4, styles: s)
                try sheet.write(g.currency.code, row: row, column: 5)
                try sheet.write(g.settlement.method.rawValue, row: row, column: 6)
                row += 1
            }
        }
        if !any { try sheet.write(tr("Nothing to settle"), row: row, column: 0, format: s.note) }
    }
}
