import EZAnalytics
import EZCairo
import EZCharts
import EZCore
import EZLocale

/// The admin usage report as a PDF: users, activity and volume per month, top categories, budget
/// adherence, spend percentiles, group and family sizes and cohort retention.
///
/// Only aggregates: nothing in it identifies a person, and every figure about fewer than five
/// users prints as `<5`.
///
/// ```swift
/// let bytes = try UsagePDF.render(usage, provenance: provenance)
/// ```
package enum UsagePDF {
    /// Renders the usage report in `locale`'s language (`en`, the default, writes English with
    /// en_GB numbers, as the report always had) and returns the PDF's bytes (A4, deterministic).
    ///
    /// - Throws: ``CairoError`` when Cairo fails to draw or write the document.
    package static func render(_ usage: UsageFigures, provenance: ReportProvenance, locale: String = "en") throws -> [UInt8] {
        let layout = UsageLayout(usage: usage, provenance: provenance, locale: locale)
        let metrics = PDFTextMetrics()
        let pages = try layout.compose(measuring: true, totalPages: nil, metrics: metrics).pages
        return try layout.compose(measuring: false, totalPages: pages, metrics: metrics).bytes
    }

    /// The texts ``render(_:provenance:locale:)`` draws shortened with an ellipsis (for tests: a
    /// figure never appears here).
    static func shortenedTexts(_ usage: UsageFigures, provenance: ReportProvenance, locale: String = "en") throws -> [String] {
        let layout = UsageLayout(usage: usage, provenance: provenance, locale: locale)
        let metrics = PDFTextMetrics()
        let pages = try layout.compose(measuring: true, totalPages: nil, metrics: metrics).pages
        return try layout.compose(measuring: false, totalPages: pages, metrics: metrics).shortened
    }
}

/// Composes the usage report's pages (see ``UsagePDF``).
struct UsageLayout {
    let usage: UsageFigures
    let provenance: ReportProvenance
    /// The report's language (the admin's `--locale`).
    let tr: Translator
    /// Numbers and dates: English admin reports keep the en_GB style they always had.
    let format: LocaleFormat
    let geometry = PageGeometry(paper: .a4)

    init(usage: UsageFigures, provenance: ReportProvenance, locale: String) {
        self.usage = usage
        self.provenance = provenance
        tr = Translator(locale: locale == "en" ? "en_GB" : locale)
        format = tr.format
    }

    /// `<5` for a withheld figure.
    static let suppressed = "<5"

    func count(_ g: Guarded<Int>) -> String { g.value.map { format.integer(Int64($0)) } ?? Self.suppressed }
    func money(_ g: Guarded<Int64>) -> String { g.value.map { format.money($0, usage.currency) } ?? Self.suppressed }
    /// A short amount for a crowded table: `€235.1k`.
    func compact(_ g: Guarded<Int64>) -> String { g.value.map { format.compactMoney($0, usage.currency) } ?? Self.suppressed }
    /// Whole currency units: `€1,107`.
    func whole(_ g: Guarded<Int64>) -> String {
        g.value.map { format.compactMoney($0, usage.currency, scaleReference: 0, fractionDigits: 0) } ?? Self.suppressed
    }
    /// The sum of the months' figures, withheld when any of them is (or when it would overflow).
    static func total<V: FixedWidthInteger & Sendable>(_ values: [Guarded<V>]) -> Guarded<V> {
        var sum: V = 0
        for g in values {
            guard let v = g.value else { return .suppressed }
            let (s, overflow) = sum.addingReportingOverflow(v)
            if overflow { return .suppressed }
            sum = s
        }
        return .shown(sum)
    }
    func percent(_ g: Guarded<Percent>) -> String { g.value.map { format.percent($0) } ?? Self.suppressed }

    func compose(measuring: Bool, totalPages: Int?, metrics: PDFTextMetrics) throws -> (pages: Int, bytes: [UInt8], shortened: [String]) {
        let periodLabel = PDFPeriodLabel.label(usage.period, format: format)
        let c = try PDFComposer(geometry: geometry, isMeasuring: measuring, totalPages: totalPages,
                                footerTitle: tr("EZWallet usage report · {period} · aggregates only", ["period": periodLabel]),
                                tr: tr, metrics: metrics)
        if !measuring {
            try c.surface.setMetadata(PDFMetadata(
                title: tr("EZWallet usage report — {period}", ["period": periodLabel]), author: "ezreport",
                subject: tr("Aggregate usage for {period}; no personal data", ["period": usage.period.name]),
                keywords: "EZWallet, usage, admin, \(usage.period.name)",
                creator: "ezreport \(provenance.engineVersion)", createDate: PDFDate.iso(usage.asOf)))
        }
        try drawCover(c, periodLabel: periodLabel)
        let charts = UsageCharts.charts(for: usage, locale: format.locale).map(\.chart).filter { !$0.isEmpty }
        try c.section(tr("Charts"), keepWith: charts.first.map { c.chartHeight(for: $0) } ?? 20)
        try c.drawCharts(charts, format: format)
        try drawMonths(c)
        try drawTopCategories(c)
        try drawSizes(c)
        try drawCohorts(c)
        try c.section(tr("About this report"), keepWith: 50)
        let source = provenance.ledgerIsServer
            ? tr("Computed by ezreport {version} from the PostgreSQL ledger for {period}, as of {date}.", [
                "version": provenance.engineVersion, "period": usage.period.name, "date": format.date(usage.asOf),
            ])
            : tr("Computed by ezreport {version} from ledger SHA-256 {hash}… for {period}, as of {date}.", [
                "version": provenance.engineVersion, "hash": String(provenance.ledgerSHA256.prefix(16)), "period": usage.period.name,
                "date": format.date(usage.asOf),
            ])
        try c.paragraph(source + " " + tr("Figures about fewer than {count} users are withheld and shown as {mark}. Amounts are converted to {currency}.", [
            "count": String(UsageFigures.minimumUsers), "mark": Self.suppressed, "currency": usage.currency.code,
        ]) + " " + tr("A spend percentile is one user's own amount: it is shown only when at least {count} users spent as much or less and {count} as much or more.", ["count": String(UsageFigures.minimumUsers)]), font: PDFTheme.font(8), color: PDFTheme.muted)
        if usage.usersLeftOut > 0 {
            try c.paragraph(tr("Incomplete: {count} users are left out of every figure, because their rows could not be read or converted into {currency}.", [
                "count": String(usage.usersLeftOut), "currency": usage.currency.code,
            ]), font: PDFTheme.font(8, bold: true), color: PDFTheme.negative)
        }
        let shortened = c.shortenedTexts
        return (c.page, try c.finish(), shortened)
    }

    private func drawCover(_ c: PDFComposer, periodLabel: String) throws {
        try c.bookmark(tr("Overview"))
        c.fill(Rect(x: 0, y: 0, width: geometry.width, height: 112), PDFTheme.neutralBand)
        c.tagged(.paragraph) {
            _ = c.text(tr("ADMIN · USAGE REPORT"), font: PDFTheme.font(8, bold: true), at: Point(x: c.left, y: 34), width: c.width,
                       color: Color.white.withAlpha(0.82))
        }
        c.tagged(.paragraph) {
            // A quarter's or a range's label is long in some languages: the title shrinks to fit.
            let title = tr("EZWallet usage · {period}", ["period": periodLabel])
            let size = c.fittingSize(title, bold: true, size: PDFTheme.titleSize, minimum: 14, width: c.width)
            _ = c.text(title, font: PDFTheme.font(size, bold: true), at: Point(x: c.left, y: 48 + (PDFTheme.titleSize - size) / 2),
                       width: c.width, color: .white)
        }
        c.tagged(.paragraph) {
            _ = c.text(tr("12 months to {end} · as of {date} · {currency}", [
                "end": format.date(usage.period.end), "date": format.date(usage.asOf), "currency": usage.currency.code,
            ]), font: PDFTheme.subtitleFont, at: Point(x: c.left, y: 82), width: c.width, color: Color.white.withAlpha(0.9))
        }
        c.y = 132
        let span = usage.periodMonths
        guard let first = span.first, let last = span.last else { return try c.note(tr("No usage recorded for this period.")) }
        // The tiles cover the period's months: users at its end, the distinct users active in
        // it, and the months' new users, transactions and volume added up. A sum is shown only
        // when every month in it is: otherwise it would reveal the withheld month's figure.
        let volume = Self.total(span.map(\.volume))
        let tiles: [(String, String, String?)] = [
            (tr("USERS"), count(last.usersTotal), nil), (tr("ACTIVE"), count(usage.activeInPeriod), nil),
            (tr("NEW"), count(Self.total(span.map(\.usersNew))), nil), (tr("TRANSACTIONS"), count(Self.total(span.map(\.transactions))), nil),
            (tr("VOLUME"), money(volume), compact(volume))]
        let gap = 8.0, height = 54.0
        let w = (c.width - gap * 4) / 5
        for (i, t) in tiles.enumerated() { c.tagged(.paragraph) {
            let x = c.left + Double(i) * (w + gap)
            c.fill(Rect(x: x, y: c.y, width: w, height: height), PDFTheme.tile, radius: 5)
            // 'TRANSACTIONS' shrinks a little to fit its tile rather than being cut.
            let labelSize = c.fittingSize(t.0, bold: true, size: 7.5, minimum: 5, width: w - 20)
            c.text(t.0, font: PDFTheme.font(labelSize, bold: true), at: Point(x: x + 10, y: c.y + 10 + (7.5 - labelSize) / 2),
                   width: w - 20, color: PDFTheme.muted)
            // The figure shrinks, then takes its compact form (€152.9M), rather than being cut:
            // "€152,912,41…" read as a thousandth of the volume (outside standards test).
            let value = c.fittedFigure(t.1, short: t.2, size: 14, minimum: 8, width: w - 20)
            c.text(value.text, font: PDFTheme.font(value.size, bold: true), at: Point(x: x + 10, y: c.y + 25 + (14 - value.size) / 2),
                   width: w - 20)
        } }
        c.y += height + 6
        let months = first.month == last.month
            ? format.monthYearLabel(last.month) : "\(format.monthYearLabel(first.month)) – \(format.monthYearLabel(last.month))"
        try c.note(tr("{month}; nothing in this report identifies a person.", ["month": months]))
    }

    private func drawMonths(_ c: PDFComposer) throws {
        try c.section(tr("Month by month"), keepWith: PDFTable.keepHeight(rows: usage.months.count))
        guard !usage.months.isEmpty else { return try c.note(tr("No months to show.")) }
        let rows: [[PDFTable.Cell]] = usage.months.map { m in
            [.text(format.monthYearLabel(m.month)), .text(count(m.usersTotal)), .text(count(m.usersNew)),
             .text(count(m.usersDeleted)), .text(count(m.usersActive)), .text(count(m.mau)),
             .text(count(m.transactions)), .text(compact(m.volume)), .text(percent(m.budgetsOverShare)),
             .text(whole(m.spendP50)), .text(whole(m.spendP90))]
        }
        try c.draw(PDFTable(columns: [
            // Every column is as wide as its widest cell or title needs ("Nov 2026", "1.898 €",
            // "NUTZER"), the table's width shared in proportion: nothing is cut in any language.
            .init(title: tr("Month"), weight: 11, fit: true), .init(title: tr("Users"), weight: 9, align: .right, fit: true),
            .init(title: tr("New"), weight: 7, align: .right, fit: true),
            .init(title: tr("Left", context: "users who left"), weight: 7, align: .right, fit: true),
            .init(title: tr("Active"), weight: 9, align: .right, fit: true), .init(title: tr("MAU"), weight: 8, align: .right, fit: true),
            .init(title: tr("Tx"), weight: 9, align: .right, fit: true), .init(title: tr("Volume"), weight: 11, align: .right, fit: true),
            .init(title: tr("Over"), weight: 9, align: .right, fit: true),
            .init(title: "p50", weight: 9, align: .right, fit: true), .init(title: "p90", weight: 9, align: .right, fit: true),
        ], rows: rows), continuation: tr("Month by month"))
        c.y += 4
        try c.note(tr("Volume: expense volume in {currency}. Over: share of budget windows ending in the month that went over. p50/p90: median and 90th percentile of monthly spend per active user.",
                      ["currency": usage.currency.code]))
    }

    private func drawTopCategories(_ c: PDFComposer) throws {
        try c.section(tr("Top categories"), keepWith: PDFTable.keepHeight(rows: usage.topCategories.count))
        // Expenses a rarer name holds are not listed (a name could identify its user): say so,
        // rather than that there were none.
        // Names held back so that the spend outside the list is never a few users' (see
        // ``UsageFigures/topCategoriesHeldBack``): said, so that a short list is not read as all.
        let heldBack = tr("Smaller categories are left out so that the spend outside the list is always that of five users or more.")
        guard !usage.topCategories.isEmpty else {
            return try c.note(usage.topCategoriesHeldBack > 0 ? heldBack : tr("No category name was used by five users or more in this period."))
        }
        let top = usage.topCategories.compactMap { $0.volume.value }.max() ?? 0
        try c.draw(PDFTable(columns: [
            .init(title: tr("Category"), weight: 34), .init(title: tr("Users"), weight: 12, align: .right),
            .init(title: tr("Volume"), weight: 20, align: .right), .init(title: tr("Relative"), weight: 34),
        ], rows: usage.topCategories.map { cat in
            let f = top > 0 ? Double(cat.volume.value ?? 0) / Double(top) : 0
            return [.text(cat.name), .text(count(cat.users)), .text(money(cat.volume)),
                    .bar(fraction: f, color: PDFTheme.accent, label: "")]
        }), continuation: tr("Top categories"))
        if usage.topCategoriesHeldBack > 0 {
            c.y += 4
            try c.note(heldBack)
        }
    }

    private func drawSizes(_ c: PDFComposer) throws {
        try c.section(tr("Groups and families"))
        if usage.groupSizes.isEmpty && usage.familySizes.isEmpty { return try c.note(tr("No groups or families yet.")) }
        let sizes = Set(usage.groupSizes.map(\.size) + usage.familySizes.map(\.size)).sorted()
        let groups = Dictionary(usage.groupSizes.map { ($0.size, $0.count) }, uniquingKeysWith: { a, _ in a })
        let families = Dictionary(usage.familySizes.map { ($0.size, $0.count) }, uniquingKeysWith: { a, _ in a })
        try c.draw(PDFTable(columns: [
            .init(title: tr("Members"), weight: 20), .init(title: tr("Groups"), weight: 20, align: .right),
            .init(title: tr("Families"), weight: 20, align: .right), .init(title: "", weight: 40),
        ], rows: sizes.map { s in
            [.text("\(s)"), .text(groups[s].map(count) ?? "0"), .text(families[s].map(count) ?? "0"), .text("")]
        }), continuation: tr("Groups and families"))
    }

    /// Cohort retention as a table shaded like a heat map (darker is more retained).
    private func drawCohorts(_ c: PDFComposer) throws {
        try c.section(tr("Cohort retention"), keepWith: 16 * Double(usage.cohorts.count + 1))
        guard !usage.cohorts.isEmpty else { return try c.note(tr("No sign-up cohorts in this period.")) }
        let months = usage.cohorts.map(\.retention.count).max() ?? 0
        let cellCount = min(months, 12)
        let labelWidth = 70.0, sizeWidth = 36.0
        let cellWidth = (c.width - labelWidth - sizeWidth) / Double(max(1, cellCount))
        let rowH = 16.0
        try c.ensureSpace(rowH * Double(usage.cohorts.count + 1))
        // A table drawn as a heat map: tagged as one, row by row.
        if !c.isMeasuring { c.context.beginTag(PDFTag.table.rawValue) }
        defer { if !c.isMeasuring { c.context.endTag(PDFTag.table.rawValue) } }
        c.tagged(.row) {
        // Header labels shrink to their narrow columns rather than being cut ('GRÖSSE', 'DIMENSIONE').
        func header(_ label: String, _ width: Double) -> String {
            PDFTheme.font(c.fittingSize(label, bold: true, size: 7.5, minimum: 5, width: width), bold: true)
        }
        c.tagged(.headerCell) { _ = c.text(tr("COHORT"), font: header(tr("COHORT"), labelWidth), at: Point(x: c.left, y: c.y + 3), width: labelWidth, color: PDFTheme.muted) }
        c.tagged(.headerCell) { _ = c.text(tr("SIZE"), font: header(tr("SIZE"), sizeWidth - 4), at: Point(x: c.left + labelWidth, y: c.y + 3), width: sizeWidth - 4,
               align: .right, color: PDFTheme.muted) }
        for k in 0..<cellCount { c.tagged(.headerCell) {
            _ = c.text("+\(k)", font: PDFTheme.tableHeaderFont, at: Point(x: c.left + labelWidth + sizeWidth + Double(k) * cellWidth, y: c.y + 3),
                   width: cellWidth, align: .center, color: PDFTheme.muted)
        } }
        }
        c.y += rowH
        for row in usage.cohorts {
            try c.ensureSpace(rowH)
            c.tagged(.row) {
            c.tagged(.cell) {
                _ = c.text(format.monthYearLabel(row.month), font: PDFTheme.tableFont, at: Point(x: c.left, y: c.y + 3), width: labelWidth)
            }
            c.tagged(.cell) {
                _ = c.text(count(row.size), font: PDFTheme.tableFont, at: Point(x: c.left + labelWidth, y: c.y + 3),
                           width: sizeWidth - 4, align: .right)
            }
            for (k, cell) in row.retention.prefix(cellCount).enumerated() { c.tagged(.cell) {
                let rect = Rect(x: c.left + labelWidth + sizeWidth + Double(k) * cellWidth + 1, y: c.y + 1,
                                width: cellWidth - 2, height: rowH - 2)
                let fill: Color
                if let p = cell.value {
                    fill = PDFTheme.accent.lightened(0.92 - 0.85 * min(1, max(0, p.fraction)))
                } else {
                    fill = PDFTheme.zebra
                }
                c.fill(rect, fill, radius: 2)
                c.text(cell.value.map { format.wholePercent($0) } ?? Self.suppressed, font: PDFTheme.font(7),
                       at: Point(x: rect.x, y: rect.y + 2.5), width: rect.width, align: .center,
                       color: cell.value == nil ? PDFTheme.muted : fill.contrastingText)
            } }
            }
            c.y += rowH
        }
        c.y += 4
        try c.note(tr("Share of each sign-up month's users active k months later; {mark} where the cohort is too small to show, or where one to four of it were active, or inactive.",
                      ["mark": Self.suppressed]))
    }
}
