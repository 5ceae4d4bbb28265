import EZAnalytics
import EZCore

/// The user's PDF statement: a cover with the KPIs under a header band coloured by the monthly
/// limit's status, the charts, budgets, groups, family, savings goals, every transaction of the
/// period, and a provenance note.
///
/// ```swift
/// let bytes = try StatementPDF.render(figures, provenance: provenance)
/// // write `bytes` to statement.pdf (atomically)
/// ```
///
/// The paper is A4, or US Letter for US and Canadian locales. Money, percentages and dates follow
/// the user's locale. Output is deterministic: the document's dates come from the as-of date, so
/// the same figures always give the same bytes.
package enum StatementPDF {
    /// Renders the statement and returns the PDF's bytes.
    ///
    /// - Throws: ``CairoError`` when Cairo fails to draw or write the document.
    package static func render(_ figures: StatementFigures, provenance: ReportProvenance) throws -> [UInt8] {
        try compose(figures, provenance: provenance).drawn.finish(to: .bytes)
    }

    /// Renders the statement into the file at `path` (created or truncated): the same bytes as
    /// ``render(_:provenance:)``, without holding the finished document in memory while it is
    /// written. The caller makes the file appear whole (it passes a temporary path and renames it).
    ///
    /// - Throws: ``CairoError``, ``QPDFError`` or ``PDFOutputError`` when the document cannot be
    ///   drawn, completed or written.
    package static func write(_ figures: StatementFigures, provenance: ReportProvenance, to path: String) throws {
        _ = try compose(figures, provenance: provenance).drawn.finish(to: .file(path: path))
    }

    /// Draws the statement and hands it on before it is completed: the result holds nothing of
    /// `figures`, so that the caller can release them before ``DrawnPDF/finish(to:)`` runs qpdf.
    /// Finishing it gives the bytes ``render(_:provenance:)`` gives.
    ///
    /// - Throws: ``CairoError`` when Cairo fails to draw the document.
    package static func draw(_ figures: StatementFigures, provenance: ReportProvenance) throws -> DrawnPDF {
        try compose(figures, provenance: provenance).drawn
    }

    /// The texts ``render(_:provenance:)`` draws shortened with an ellipsis (for tests: a label
    /// the layout must fit never appears here).
    static func shortenedTexts(_ figures: StatementFigures, provenance: ReportProvenance) throws -> [String] {
        try compose(figures, provenance: provenance).shortened
    }

    /// Both passes: the first counts the pages so that the second can print 'Page n of N'; the
    /// second reuses the first's text sizes and draws.
    private static func compose(_ figures: StatementFigures, provenance: ReportProvenance) throws -> (drawn: DrawnPDF, shortened: [String]) {
        let layout = StatementLayout(figures: figures, provenance: provenance)
        let metrics = PDFTextMetrics()
        let pages = try layout.compose(measuring: true, totalPages: nil, metrics: metrics).pages
        let result = try layout.compose(measuring: false, totalPages: pages, metrics: metrics)
        guard let drawn = result.drawn else { preconditionFailure("the drawing pass hands on its document") }
        return (drawn, result.shortened)
    }
}
