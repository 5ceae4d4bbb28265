import EZAnalytics
import EZCairo
import EZCore

extension StatementLayout {
    /// The header band's height from the page's top edge.
    static let bandHeight: Double = 138

    /// The first page's top: the band (coloured by the monthly limit's status) and the KPI tiles.
    func drawCover(_ c: PDFComposer) throws {
        try c.bookmark("Overview")
        let k = figures.kpis
        let band = PDFTheme.band(for: k.limit)
        let onBand = Color.white
        c.fill(Rect(x: 0, y: 0, width: geometry.width, height: Self.bandHeight), band)

        let left = c.left
        let limitWidth: Double = k.limit == nil ? 0 : 180
        let textWidth = c.width - limitWidth - (limitWidth > 0 ? 20 : 0)
        c.text("MONTHLY STATEMENT · \(periodLabel.uppercased())", font: PDFTheme.font(8, bold: true),
               at: Point(x: left, y: 34), width: textWidth, color: onBand.withAlpha(0.82))
        // The book's name shrinks to fit one line before it is cut.
        var titleSize = 22.0
        while titleSize > 14 && c.measure(figures.user.bookName, font: PDFTheme.font(titleSize, bold: true)).width > textWidth {
            titleSize -= 1
        }
        c.text(figures.user.bookName, font: PDFTheme.font(titleSize, bold: true),
               at: Point(x: left, y: 48 + (22 - titleSize) * 0.6), width: textWidth, color: onBand)
        c.text("\(figures.user.username)  ·  \(format.date(figures.period.start)) – \(format.date(figures.period.end))",
               font: PDFTheme.subtitleFont, at: Point(x: left, y: 84), width: textWidth, color: onBand.withAlpha(0.9))
        c.text("As of \(format.date(figures.asOf))  ·  \(figures.currency.code)", font: PDFTheme.font(8),
               at: Point(x: left, y: 102), width: textWidth, color: onBand.withAlpha(0.75))

        if let limit = k.limit {
            drawLimitBox(c, limit, rect: Rect(x: left + c.width - limitWidth, y: 30, width: limitWidth, height: 84))
        }
        c.y = Self.bandHeight + 20
        try drawKPITiles(c)
        try drawHighlights(c)
    }

    private func drawLimitBox(_ c: PDFComposer, _ limit: LimitStatus, rect: Rect) {
        c.fill(rect, Color.white.withAlpha(0.14), radius: 6)
        let x = rect.x + 12, w = rect.width - 24
        c.text("MONTHLY LIMIT", font: PDFTheme.font(7, bold: true), at: Point(x: x, y: rect.y + 10), width: w,
               color: Color.white.withAlpha(0.82))
        c.text(money(limit.limit), font: PDFTheme.font(13, bold: true), at: Point(x: x, y: rect.y + 22), width: w,
               color: .white)
        let status: String
        switch limit.status {
        case .ok: status = "Within limit"
        case .warning: status = "Close to limit"
        case .over: status = "Limit exceeded"
        }
        c.text("\(percent(limit.percent)) used", font: PDFTheme.font(8, bold: true),
               at: Point(x: x, y: rect.y + 44), width: w * 0.5, color: .white)
        c.text(status.uppercased(), font: PDFTheme.font(7, bold: true), at: Point(x: x + w * 0.4, y: rect.y + 45),
               width: w * 0.6, align: .right, color: .white)
        // A progress track: full width is the limit; a tick marks 100 % when over.
        let track = Rect(x: x, y: rect.y + 63, width: w, height: 5)
        c.fill(track, Color.white.withAlpha(0.3), radius: 2.5)
        let used = limit.percent.map { min(1, max(0, $0.fraction)) } ?? (limit.spent > 0 ? 1 : 0)
        if used > 0 { c.fill(Rect(x: x, y: track.y, width: max(5, w * used), height: 5), .white, radius: 2.5) }
    }

    /// Five tiles: income, expenses, net, savings rate, and the change against the previous period.
    private func drawKPITiles(_ c: PDFComposer) throws {
        let k = figures.kpis
        let previousName = figures.period.kind == .month ? "LAST MONTH" : "LAST PERIOD"
        var changeValue = "–"
        var changeColor = PDFTheme.ink
        if let p = k.expensesChange.percent {
            changeValue = signedPercent(p)
            changeColor = p.tenths > 0 ? PDFTheme.negative : (p.tenths < 0 ? PDFTheme.positive : PDFTheme.ink)
        } else if k.expensesChange.absolute != 0 {
            changeValue = signedMoney(k.expensesChange.absolute)
        }
        let tiles: [(label: String, value: String, color: Color, detail: String)] = [
            ("INCOME", money(k.income), PDFTheme.positive, "\(k.transactionCount) transactions"),
            ("EXPENSES", money(k.expenses), PDFTheme.ink, "\(figures.categories.rows.count) categories"),
            ("NET", signedMoney(k.net), k.net < 0 ? PDFTheme.negative : PDFTheme.positive, "after expenses"),
            ("SAVINGS RATE", percent(k.savingsRate), PDFTheme.ink, k.savingsRate == nil ? "no income" : "of income"),
            // "EXPENSE CHANGE" did not fit a tile: the label says against what, the detail says what.
            ("VS \(previousName)", changeValue, changeColor, "change in expenses"),
        ]
        let gap = 8.0, height = 66.0
        let w = (c.width - gap * Double(tiles.count - 1)) / Double(tiles.count)
        for (i, t) in tiles.enumerated() {
            let x = c.left + Double(i) * (w + gap)
            c.fill(Rect(x: x, y: c.y, width: w, height: height), PDFTheme.tile, radius: 5)
            // Labels shrink a little rather than being cut ('SAVINGS RATE' in a narrow tile).
            let labelSize = c.fittingSize(t.label, bold: true, size: 7.5, minimum: 6.5, width: w - 20)
            c.text(t.label, font: PDFTheme.font(labelSize, bold: true), at: Point(x: x + 10, y: c.y + 10 + (7.5 - labelSize) / 2),
                   width: w - 20, color: PDFTheme.muted)
            // The value shrinks to fit its tile rather than being cut.
            var size = 14.0
            while size > 8 && c.measure(t.value, font: PDFTheme.font(size, bold: true)).width > w - 20 { size -= 1 }
            c.text(t.value, font: PDFTheme.font(size, bold: true), at: Point(x: x + 10, y: c.y + 24 + (14 - size) / 2),
                   width: w - 20, color: t.color)
            let detailSize = c.fittingSize(t.detail, bold: false, size: 7, minimum: 6, width: w - 20)
            c.text(t.detail, font: PDFTheme.font(detailSize), at: Point(x: x + 10, y: c.y + 48 + (7 - detailSize) / 2),
                   width: w - 20, color: PDFTheme.muted)
        }
        c.y += height + 12
    }

    /// One line of plain-language highlights under the tiles.
    private func drawHighlights(_ c: PDFComposer) throws {
        var parts: [String] = []
        if let top = figures.categories.rows.first {
            parts.append("Largest category: \(top.name) (\(percent(top.percent)) of expenses)")
        }
        let over = figures.budgets.filter { $0.status == .over }.count
        let warn = figures.budgets.filter { $0.status == .warning }.count
        if over + warn > 0 {
            parts.append("\(over) budget\(over == 1 ? "" : "s") over, \(warn) close to the limit")
        }
        if figures.kpis.transactionCount == 0 { parts.append("No transactions in this period") }
        guard !parts.isEmpty else { return }
        try c.paragraph(parts.joined(separator: "  ·  "), color: PDFTheme.muted)
    }
}
