import EZAnalytics
import EZCairo
import EZCore
import EZLocale

/// Composes a statement's pages from its figures (one instance per render; see ``StatementPDF``).
struct StatementLayout {
    let figures: StatementFigures
    let provenance: ReportProvenance
    let format: LocaleFormat
    /// Every word of the statement, in the user's language.
    let tr: Translator
    let geometry: PageGeometry

    init(figures: StatementFigures, provenance: ReportProvenance) {
        self.figures = figures
        self.provenance = provenance
        tr = Translator(locale: figures.user.locale)
        format = tr.format
        geometry = PageGeometry(paper: PaperSize.for(locale: figures.user.locale))
    }

    /// The statement's name on the cover, in the metadata and in footers: "Statement October 2025"-like.
    var periodLabel: String { PDFPeriodLabel.label(figures.period, format: format) }

    /// Lays out every section; in the drawing pass also returns the drawn document, not yet completed.
    func compose(measuring: Bool, totalPages: Int?, metrics: PDFTextMetrics) throws -> (pages: Int, drawn: DrawnPDF?, shortened: [String]) {
        let c = try PDFComposer(geometry: geometry, isMeasuring: measuring, totalPages: totalPages,
                                footerTitle: tr("{book} · Statement {period}", ["book": InlineText.isolated(figures.user.bookName), "period": periodLabel]),
                                tr: tr, metrics: metrics)
        if !measuring {
            try c.surface.setMetadata(PDFMetadata(
                title: tr("{book} — Statement {period}", ["book": InlineText.isolated(figures.user.bookName), "period": periodLabel]),
                author: "ezreport",
                subject: tr("Statement for {user}, {period}", ["user": InlineText.isolated(figures.user.username), "period": figures.period.name]),
                keywords: "EZWallet, statement, \(figures.period.name)",
                creator: "ezreport \(provenance.engineVersion)",
                createDate: PDFDate.iso(figures.asOf)))
        }
        try drawCover(c)
        try drawCharts(c)
        try drawCategories(c)
        try drawComparison(c)
        try drawBudgets(c)
        try drawGroups(c)
        try drawFamily(c)
        try drawSavings(c)
        try drawTransactions(c)
        try drawProvenance(c)
        let pages = c.page
        return (pages, try c.drawn(), c.shortenedTexts)
    }

    // MARK: - Shared formatting

    func money(_ minor: Int64) -> String { format.money(minor, figures.currency) }
    /// A category's name; the folded 'Other' slice is named in the reader's language.
    func categoryName(_ share: CategoryShare) -> String { tr.categoryName(share.name, folded: share.foldedCategories) }
    func money(_ minor: Int64, _ currency: Currency) -> String { format.money(minor, currency) }
    /// A signed amount with an explicit '+' for gains.
    func signedMoney(_ minor: Int64, _ currency: Currency? = nil) -> String {
        (minor > 0 ? "+" : "") + format.money(minor, currency ?? figures.currency)
    }
    func percent(_ p: Percent?) -> String { p.map { format.percent($0) } ?? "–" }
    func signedPercent(_ p: Percent) -> String { (p.tenths > 0 ? "+" : "") + format.percent(p) }
}

/// The creation date written into a PDF: the as-of date at midnight UTC, never the clock.
enum PDFDate {
    /// `YYYY-MM-DDT00:00:00Z`, the form `cairo_pdf_surface_set_metadata` accepts.
    static func iso(_ date: CivilDate) -> String { "\(date)T00:00:00Z" }
}

/// How a report names its period on the page.
enum PDFPeriodLabel {
    /// "Oct 2025" for a month ("25 Sep – 24 Oct 2025" for a month starting on the 25th), "2025"
    /// for a year, else "1 Oct 2025 – 31 Dec 2025" in the locale.
    static func label(_ period: Period, format: LocaleFormat) -> String {
        switch period.kind {
        case .month: return format.monthPeriodLabel(period)
        case .year: return period.name
        case .quarter: return "\(format.periodLabel(period)) (\(format.dateRange(period.start, period.end)))"
        case .day: return format.date(period.start)
        case .week, .range: return "\(format.date(period.start)) – \(format.date(period.end))"
        }
    }
}
