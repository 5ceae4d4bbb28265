import EZAnalytics
import EZCore
import EZLocale

extension StatementLayout {
    /// Every row of the period (as transactions.csv lists them), running over pages with its header repeated.
    func drawTransactions(_ c: PDFComposer) throws {
        // The table reserves room for its totals row on every page it reaches, so the title keeps
        // that too: with less, the first rows went to the next page and left the title alone.
        try c.section(tr("Transactions"), keepWith: PDFTable.keepHeight(rows: figures.transactions.count, footer: true))
        guard !figures.transactions.isEmpty else { return try c.note(tr("No transactions in this period.")) }
        // Each row is made when it is measured or drawn, not held: a shop's 100,000 sales would
        // otherwise be half a million formatted cells in memory at once.
        let rows = PDFTable.Rows(count: figures.transactions.count) { [self] i in transactionCells(figures.transactions[i]) }
        let table = PDFTable(columns: [
            .init(title: tr("Date"), weight: 16, fit: true), .init(title: tr("Description"), weight: 37, wraps: true),
            // Names take what they need up to a fifth of the table each, so that long category and
            // account names cannot squeeze the description (they are cut there instead).
            .init(title: tr("Category"), weight: 17, fit: true, maxShare: 0.2),
            .init(title: tr("Account"), weight: 15, fit: true, maxShare: 0.2),
            .init(title: tr("Amount"), weight: 15, align: .right, fit: true),
        ], rows: rows, footer: [
            .text(tr("Net")), .text(tr.plural("{count} row", "{count} rows", count: figures.transactions.count)), .text(""), .text(""),
            .text(signedMoney(figures.kpis.net), color: figures.kpis.net < 0 ? PDFTheme.negative : PDFTheme.positive, bold: true),
        ])
        try c.draw(table, continuation: tr("Transactions"))
        c.y += 4
        try c.note(tr("Amounts count what each row adds to your income or expenses in {currency}; for a shared group expense that is your share (the full amount in brackets). Transfers are shown in grey and count as zero.",
                      ["currency": figures.currency.code]))
    }

    /// One transaction's row in the statement's table: date, description (with its group and,
    /// for a share or another currency, the full amount), category, account and amount.
    private func transactionCells(_ r: StatementRow) -> [PDFTable.Cell] {
        // When the full amount or the group follows the description, the description is an
        // isolate (on one line): a Hebrew description took the amount after it into its own
        // right-to-left run ("($37.01) ארוחת ערב"), and one with a line break turned the group's
        // name ("group@") (outside standards test).
        let followed = (r.kind != .transfer && (r.amount != r.counted || r.currency != figures.currency)) || !r.group.isEmpty
        var description = followed ? InlineText.isolated(r.description) : r.description
        let amount: PDFTable.Cell
        switch r.kind {
        case .income:
            amount = .text("+" + money(r.counted), color: PDFTheme.positive)
        case .expense:
            amount = .text(money(-r.counted))
        case .transfer:
            amount = .text(money(r.amount, r.currency), color: PDFTheme.muted)
        }
        // A share of a group expense, or a row in another currency, says what the full row was —
        // right after the description, before the group and its payer: a line too long even for
        // six lines is cut at its end, and the footnote points readers at this amount.
        if r.kind != .transfer && (r.amount != r.counted || r.currency != figures.currency) {
            // No-break spaces: a line that wraps never parts a figure from its currency.
            let full = money(r.amount, r.currency).replacingOccurrences(of: " ", with: "\u{00A0}")
            description += (description.isEmpty ? "" : " ") + "(\(full))"
        }
        if !r.group.isEmpty {
            let payer = r.paidByReader ? tr("{name} (you)", ["name": InlineText.isolated(r.paidBy)]) : InlineText.isolated(r.paidBy)
            let group = r.paidBy.isEmpty ? InlineText.isolated(r.group)
                : tr("{group}, paid by {payer}", ["group": InlineText.isolated(r.group), "payer": payer])
            description += (description.isEmpty ? "" : " · ") + group
        }
        let account = r.balance.isEmpty ? (r.group.isEmpty ? "–" : tr("Group share")) : r.balance
        // A group expense's line says who paid at its end: it takes more lines rather than being
        // cut ("Flat rent (€5,612.00) · Apartment …" lost its payer).
        return [
            .text(format.date(r.date), color: PDFTheme.muted), r.group.isEmpty ? .text(description) : .wrappingText(description),
            .text(r.category),
            .text(account, color: PDFTheme.muted), amount,
        ]
    }

    /// Where the figures came from: the ledger's hash, the engine and the as-of date.
    func drawProvenance(_ c: PDFComposer) throws {
        let hash = String(provenance.ledgerSHA256.prefix(16))
        var line = provenance.ledgerIsServer
            ? tr("Computed by ezreport {version} from the PostgreSQL ledger for {period}, as of {date}.", [
                "version": provenance.engineVersion, "period": figures.period.name, "date": format.date(provenance.asOf),
            ])
            : tr("Computed by ezreport {version} from ledger SHA-256 {hash}… for {period}, as of {date}.", [
                "version": provenance.engineVersion, "hash": hash, "period": figures.period.name, "date": format.date(provenance.asOf),
            ])
        let left = provenance.quarantined.count
        if left > 0 {
            line += " " + tr.plural("{count} ledger row was left out because it breaks the ledger contract.",
                                    "{count} ledger rows were left out because they break the ledger contract.", count: left)
        }
        // Kept with just its own lines, so that it does not take a page of its own when it fits.
        try c.section(tr("About this report"), keepWith: c.measure(line, font: PDFTheme.font(8), width: c.width, maxLines: nil).height)
        try c.paragraph(line, font: PDFTheme.font(8), color: PDFTheme.muted)
    }
}
