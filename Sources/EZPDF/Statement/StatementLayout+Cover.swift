import EZAnalytics
import EZCairo
import EZCore
import EZLocale

extension StatementLayout {
    /// The header band's height from the page's top edge.
    static let bandHeight: Double = 138

    /// The first page's top: the band (coloured by the monthly limit's status) and the KPI tiles.
    /// The cover's first line: the kind of statement and its period (a quarter's statement used
    /// to say "MONTHLY STATEMENT").
    var coverHeading: String {
        let period = ["period": format.uppercased(periodLabel)]
        switch figures.period.kind {
        case .month: return tr("MONTHLY STATEMENT · {period}", period)
        case .quarter: return tr("QUARTERLY STATEMENT · {period}", period)
        case .year: return tr("ANNUAL STATEMENT · {period}", period)
        case .week, .range, .day: return tr("STATEMENT · {period}", period)
        }
    }

    func drawCover(_ c: PDFComposer) throws {
        try c.bookmark(tr("Overview"))
        let k = figures.kpis
        let band = PDFTheme.band(for: k.limit)
        let onBand = Color.white
        c.fill(Rect(x: 0, y: 0, width: geometry.width, height: Self.bandHeight), band)

        let left = c.left
        let limitWidth: Double = k.limit == nil ? 0 : 180
        let textWidth = c.width - limitWidth - (limitWidth > 0 ? 20 : 0)
        c.tagged(.paragraph) {
            // A quarter's heading with its dates beside the limit box shrinks to 6 pt before it is cut.
            var size = 8.0
            while size > 6 && c.measure(coverHeading, font: PDFTheme.font(size, bold: true)).width > textWidth { size -= 0.5 }
            _ = c.text(coverHeading, font: PDFTheme.font(size, bold: true),
                       at: Point(x: left, y: 34), width: textWidth, color: onBand.withAlpha(0.82))
        }
        // The book's name shrinks to fit one line before it is cut.
        var titleSize = 22.0
        while titleSize > 14 && c.measure(figures.user.bookName, font: PDFTheme.font(titleSize, bold: true)).width > textWidth {
            titleSize -= 1
        }
        c.tagged(.paragraph) {
            _ = c.text(figures.user.bookName, font: PDFTheme.font(titleSize, bold: true),
                       at: Point(x: left, y: 48 + (22 - titleSize) * 0.6), width: textWidth, color: onBand)
        }
        c.tagged(.paragraph) {
            // The period is read whole beside the limit box: a long username takes smaller type
            // (down to 8.5 pt), then is cut ("benjamin.macdonald18 · 1 Oct 2026 – 31 Oct …" was).
            let name = InlineText.isolated(figures.user.username)
            let dates = "  ·  \(format.date(figures.period.start)) – \(format.date(figures.period.end))"
            let font = c.shrunkFont(name + dates, font: PDFTheme.subtitleFont, size: PDFTheme.subtitleSize, bold: false,
                                    minimum: 8.5, width: textWidth)
            c.text(name, keeping: dates, font: font, at: Point(x: left, y: 84), width: textWidth, color: onBand.withAlpha(0.9))
            _ = c.text(tr("As of {date}  ·  {currency}", ["date": format.date(figures.asOf), "currency": figures.currency.code]),
                       font: PDFTheme.font(8), at: Point(x: left, y: 102), width: textWidth, color: onBand.withAlpha(0.75))
        }

        if let limit = k.limit {
            c.tagged(.paragraph) { drawLimitBox(c, limit, rect: Rect(x: left + c.width - limitWidth, y: 30, width: limitWidth, height: 84)) }
        }
        c.y = Self.bandHeight + 20
        try drawKPITiles(c)
        try drawHighlights(c)
    }

    /// The limit box's title: the kind of window, or the period's windows summed.
    func limitTitle(_ limit: LimitStatus) -> String {
        if limit.windows > 1 { return tr("LIMIT FOR THE PERIOD") }
        switch limit.kind {
        case .month: return tr("MONTHLY LIMIT")
        case .week: return tr("WEEKLY LIMIT")
        case .year: return tr("YEARLY LIMIT")
        }
    }

    private func drawLimitBox(_ c: PDFComposer, _ limit: LimitStatus, rect: Rect) {
        c.fill(rect, Color.white.withAlpha(0.14), radius: 6)
        let x = rect.x + 12, w = rect.width - 24
        c.text(limitTitle(limit), font: PDFTheme.font(7, bold: true), at: Point(x: x, y: rect.y + 10), width: w,
               color: Color.white.withAlpha(0.82))
        // The limit shrinks, then takes its compact form, rather than being cut mid-number.
        let amount = c.fittedFigure(money(limit.limit), short: format.compactMoney(limit.limit, figures.currency, fractionDigits: 2),
                                    size: 13, minimum: 6, width: w)
        c.text(amount.text, font: PDFTheme.font(amount.size, bold: true), at: Point(x: x, y: rect.y + 22 + (13 - amount.size) / 2), width: w,
               color: .white)
        let status: String
        switch limit.status {
        case .ok: status = tr("Within limit")
        case .warning: status = tr("Close to limit")
        case .over: status = tr("Limit exceeded")
        }
        // The status takes what the percentage leaves, shrinking rather than being cut; when even
        // 6 pt does not fit there ("LIMIT ÜBERSCHRITTEN" beside "119,2 % genutzt"), it gets the
        // whole line under the track instead: never cut mid-word.
        // The percentage shrinks too (down to 6 pt) rather than losing its word ('383.481,1 % gen…').
        let usedText = tr("{percent} used", ["percent": percent(limit.percent)])
        let usedSize = c.fittingSize(usedText, bold: true, size: 8, minimum: 6, width: w * 0.6)
        c.text(usedText, font: PDFTheme.font(usedSize, bold: true), at: Point(x: x, y: rect.y + 44 + (8 - usedSize) / 2),
               width: w * 0.6, color: .white)
        let statusText = status.uppercased()
        let besideWidth = w - min(c.measure(usedText, font: PDFTheme.font(usedSize, bold: true)).width, w * 0.6) - 8
        let besideSize = c.fittingSize(statusText, bold: true, size: 7, minimum: 6, width: besideWidth)
        if c.measure(statusText, font: PDFTheme.font(besideSize, bold: true)).width <= besideWidth {
            c.text(statusText, font: PDFTheme.font(besideSize, bold: true), at: Point(x: x + w - besideWidth, y: rect.y + 45 + (7 - besideSize) / 2),
                   width: besideWidth, align: .right, color: .white)
        } else {
            let size = c.fittingSize(statusText, bold: true, size: 7, minimum: 5, width: w)
            c.text(statusText, font: PDFTheme.font(size, bold: true), at: Point(x: x, y: rect.y + 71 + (7 - size) / 2),
                   width: w, align: .right, color: .white)
        }
        // A progress track: full width is the limit; a tick marks 100 % when over.
        let track = Rect(x: x, y: rect.y + 63, width: w, height: 5)
        c.fill(track, Color.white.withAlpha(0.3), radius: 2.5)
        let usedFraction = limit.percent.map { min(1, max(0, $0.fraction)) } ?? (limit.spent > 0 ? 1 : 0)
        if usedFraction > 0 { c.fill(Rect(x: x, y: track.y, width: max(5, w * usedFraction), height: 5), .white, radius: 2.5) }
    }

    /// Five tiles: income, expenses, net, savings rate, and the change against the previous period.
    private func drawKPITiles(_ c: PDFComposer) throws {
        let k = figures.kpis
        let versus = figures.period.kind == .month ? tr("VS LAST MONTH") : tr("VS LAST PERIOD")
        var changeValue = "–"
        var changeColor = PDFTheme.ink
        if let p = k.expensesChange.percent {
            changeValue = signedPercent(p)
            changeColor = p.tenths > 0 ? PDFTheme.negative : (p.tenths < 0 ? PDFTheme.positive : PDFTheme.ink)
        } else if k.expensesChange.absolute != 0 {
            changeValue = signedMoney(k.expensesChange.absolute)
        }
        // A money tile's short form, for an amount too long for its tile even at 6 pt (tens of
        // billions): `$100.00B` reads right, where a cut `$100,000,002,718…` reads as another number.
        // Two decimals first (`$100.27B`), then as few as the amount needs (`$100.3B`): a language's
        // own word for millions can be long ('ریال 127.97 میلیون' was too wide even at 6 pt).
        func short(_ minor: Int64, signed: Bool = false) -> [String] {
            let sign = signed && minor > 0 ? "+" : ""
            return [sign + format.compactMoney(minor, figures.currency, fractionDigits: 2),
                    sign + format.compactMoney(minor, figures.currency)]
        }
        let tiles: [(label: String, value: String, short: [String], color: Color, detail: String)] = [
            (tr("INCOME"), money(k.income), short(k.income), PDFTheme.positive,
             tr.plural("{count} transaction", "{count} transactions", count: k.transactionCount)),
            (tr("EXPENSES"), money(k.expenses), short(k.expenses), PDFTheme.ink,
             tr.plural("{count} category", "{count} categories", count: figures.categories.rows.count)),
            (tr("NET"), signedMoney(k.net), short(k.net, signed: true), k.net < 0 ? PDFTheme.negative : PDFTheme.positive,
             tr("after expenses")),
            (tr("SAVINGS RATE"), percent(k.savingsRate), [], PDFTheme.ink, k.savingsRate == nil ? tr("no income") : tr("of income")),
            // "EXPENSE CHANGE" did not fit a tile: the label says against what, the detail says what.
            (versus, changeValue, k.expensesChange.percent == nil && k.expensesChange.absolute != 0
                ? short(k.expensesChange.absolute, signed: true) : [], changeColor, tr("change in expenses")),
        ]
        let gap = 8.0
        let w = (c.width - gap * Double(tiles.count - 1)) / Double(tiles.count)
        // Details shrink, then take a second line at a word boundary ('Veränderung der / Ausgaben',
        // 'évolution des / dépenses'); when one does, every tile grows by the line, so that the two
        // lines keep the value's distance above them and the tile's margin below.
        let details = tiles.map { t -> (size: Double, twoLines: Bool) in
            let size = c.fittingSize(t.detail, bold: false, size: 7, minimum: 6, width: w - 20)
            return (size, c.measure(t.detail, font: PDFTheme.font(size)).width > w - 20)
        }
        let anyTwoLines = details.contains { $0.twoLines }
        let height = anyTwoLines ? 74.0 : 66.0
        for (i, t) in tiles.enumerated() { c.tagged(.paragraph) {
            let x = c.left + Double(i) * (w + gap)
            c.fill(Rect(x: x, y: c.y, width: w, height: height), PDFTheme.tile, radius: 5)
            // Labels shrink rather than being cut ('SAVINGS RATE', 'RISPETTO AL MESE SCORSO' in a narrow tile).
            let labelSize = c.fittingSize(t.label, bold: true, size: 7.5, minimum: 5, width: w - 20)
            c.text(t.label, font: PDFTheme.font(labelSize, bold: true), at: Point(x: x + 10, y: c.y + 10 + (7.5 - labelSize) / 2),
                   width: w - 20, color: PDFTheme.muted)
            // The value shrinks to fit its tile rather than being cut: down to 6 pt, so that a
            // shop's month ('-4.599.985,14 €' in German) is whole (8 pt cut it).
            var size = 14.0
            while size > 6 && c.measure(t.value, font: PDFTheme.font(size, bold: true)).width > w - 20 { size -= 1 }
            var value = t.value
            for short in t.short where c.measure(value, font: PDFTheme.font(size, bold: true)).width > w - 20 {
                value = short
                size = 14
                while size > 6 && c.measure(value, font: PDFTheme.font(size, bold: true)).width > w - 20 { size -= 1 }
            }
            c.text(value, font: PDFTheme.font(size, bold: true), at: Point(x: x + 10, y: c.y + 24 + (14 - size) / 2),
                   width: w - 20, color: t.color)
            let (detailSize, twoLines) = details[i]
            c.text(t.detail, font: PDFTheme.font(detailSize), at: Point(x: x + 10, y: c.y + (twoLines ? 47 : 48 + (7 - detailSize) / 2)),
                   width: w - 20, maxLines: 2, color: PDFTheme.muted)
        } }
        c.y += height + 12
    }

    /// "1 budget over, 2 close to the limit", each count in its own plural form ("1 vicino al
    /// limite", "0 proche de la limite"): one message counted only the first, and the second read
    /// "1 vicini al limite" (outside review).
    static func budgetHighlight(over: Int, warning: Int, tr: Translator) -> String {
        let overText = tr.plural("{count} budget over", "{count} budgets over", count: over)
        let warnText = tr.plural("{count} close to the limit", "{count} close to the limit", count: warning)
        return tr("{over}, {warning}", context: "budgets over, close to the limit", ["over": overText, "warning": warnText])
    }

    /// The most characters of a name in the highlights under the tiles.
    static let highlightNameCharacters = 60

    /// One line of plain-language highlights under the tiles.
    private func drawHighlights(_ c: PDFComposer) throws {
        var parts: [String] = []
        if let top = figures.categories.rows.first {
            // The name cut to what a line holds: these highlights are one line, and a category's
            // name has no length limit (a 1,000-character one took 18 lines of the cover).
            let name = CairoText.bounded(top.name, to: Self.highlightNameCharacters)
            parts.append(tr("Largest category: {name} ({percent} of expenses)", ["name": InlineText.isolated(name), "percent": percent(top.percent)]))
        }
        let over = figures.budgets.filter { $0.status == .over }.count
        let warn = figures.budgets.filter { $0.status == .warning }.count
        if over + warn > 0 {
            parts.append(Self.budgetHighlight(over: over, warning: warn, tr: tr))
        }
        if figures.kpis.transactionCount == 0 { parts.append(tr("No transactions in this period")) }
        guard !parts.isEmpty else { return }
        try c.paragraph(parts.joined(separator: "  ·  "), color: PDFTheme.muted)
    }
}
