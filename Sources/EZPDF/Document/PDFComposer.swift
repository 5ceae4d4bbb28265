import EZCairo
import EZLocale

/// Lays a report out top to bottom on pages of one size: a cursor, page breaks, footers and bookmarks.
///
/// A report is composed twice with the same code: a measuring pass that draws nothing and only
/// counts pages, then the drawing pass, which then knows N for its 'Page n of N' footers. Both
/// passes measure text on a PDF surface so that line breaks, and hence page breaks, are identical,
/// and share one ``PDFTextMetrics``, so that a text is measured once for both. The measuring pass
/// lays out only texts whose size moves the cursor (not table cells, whose rows have a fixed height).
final class PDFComposer {
    /// The texts drawn shortened with an ellipsis, in drawing order: expected for free text in
    /// narrow table columns (descriptions, names), never for labels the layout must fit
    /// (tests read this; the PDF's extracted text cannot show it, as Cairo keeps the whole text
    /// as the ellipsis's /ActualText).
    private(set) var shortenedTexts: [String] = []

    /// The page layout.
    let geometry: PageGeometry
    let surface: CairoSurface
    let context: CairoContext
    /// True in the measuring pass: layout happens, drawing does not.
    let isMeasuring: Bool
    /// The page count found by the measuring pass (nil while measuring).
    let totalPages: Int?
    /// The text on the left of every footer.
    var footerTitle: String
    /// The report's language (the footer's 'Page n of N', tables' '(continued)').
    let tr: Translator

    /// The 1-based number of the page being composed.
    private(set) var page = 1
    /// The top of the free space on the current page.
    var y: Double
    /// Layouts by font description, reused for every string in that font.
    private var layouts: [String: TextLayout] = [:]
    /// Text sizes, shared with the other pass.
    let metrics: PDFTextMetrics
    /// Each chart's text alternative, in the order the charts are drawn (their `Figure`s' `/Alt`).
    var figureDescriptions: [String] = []
    /// Tables laid out so far in this pass (their column widths are found once, see ``PDFTextMetrics/tableWidths``).
    var tablesLaidOut = 0
    /// Tables whose taller rows were found so far in this pass (see ``PDFTextMetrics/tableTallRows``).
    var tablesWrapped = 0
    /// The document's title, shown by viewers instead of the file name.
    var documentTitle: String = ""

    init(geometry: PageGeometry, isMeasuring: Bool, totalPages: Int?, footerTitle: String, tr: Translator,
         metrics: PDFTextMetrics = PDFTextMetrics()) throws(CairoError) {
        self.geometry = geometry
        self.tr = tr
        self.metrics = metrics
        self.isMeasuring = isMeasuring
        self.totalPages = totalPages
        self.footerTitle = footerTitle
        surface = try CairoSurface(pdfInMemoryWidth: geometry.width, height: geometry.height)
        context = try CairoContext(surface: surface)
        y = geometry.contentTop
        // Everything drawn belongs to the tagged PDF's one Document element.
        if !isMeasuring { context.beginTag(PDFTag.document.rawValue) }
    }

    // MARK: - Space and pages

    /// The content area's left edge and width.
    var left: Double { geometry.contentLeft }
    var width: Double { geometry.contentWidth }
    /// The height left on the current page.
    var remaining: Double { geometry.contentBottom - y }
    /// Whether nothing has been placed on the current page yet.
    var atPageTop: Bool { y <= geometry.contentTop + 0.5 }

    /// Starts a new page unless `height` still fits on this one.
    func ensureSpace(_ height: Double) throws(CairoError) {
        if height > remaining && !atPageTop { try newPage() }
    }

    /// Ends the current page (drawing its footer) and starts the next.
    func newPage() throws(CairoError) {
        drawFooter()
        try context.showPage()
        page += 1
        y = geometry.contentTop
    }

    /// Adds a top-level bookmark to the current page; returns its id for sub-entries.
    @discardableResult
    func bookmark(_ title: String, parent: Int = CairoSurface.outlineRoot) throws(CairoError) -> Int {
        try surface.addOutline(parent: parent, name: title, page: page)
    }

    /// Ends the last page and returns the document's bytes, or writes them as `output` says (then,
    /// as in the measuring pass, it returns none).
    func finish(to output: PDFOutput = .bytes) throws -> [UInt8] {
        try drawn()?.finish(to: output) ?? []
    }

    /// Ends the last page and hands on the drawn document, not yet completed (nil in the
    /// measuring pass).
    func drawn() throws -> DrawnPDF? {
        drawFooter()
        if !isMeasuring { context.endTag(PDFTag.document.rawValue) }
        try context.showPage()
        try context.checkStatus("composing the PDF")
        if isMeasuring { return nil }
        try surface.finish()
        var bytes = try surface.takePDFData()
        PDFResourceCleanup.removeDuplicateXObjectNames(&bytes)
        return DrawnPDF(bytes, language: tr.language, figureDescriptions: figureDescriptions,
                        completes: context.structureElements <= PDFAccessibility.elementLimit)
    }

    private func drawFooter() {
        guard !isMeasuring else { return }
        // Page furniture: an artifact, not part of what a screen reader reads.
        context.beginTag(PDFTag.artifact.rawValue)
        defer { context.endTag(PDFTag.artifact.rawValue) }
        let baseline = geometry.height - geometry.footerOffset
        context.strokeLine(from: Point(x: left, y: baseline - 8), to: Point(x: left + width, y: baseline - 8),
                           color: PDFTheme.rule, width: 0.5)
        let pageText = tr("Page {page} of {pages}", ["page": String(page), "pages": String(totalPages ?? page)])
        let pageWidth = measure(pageText, font: PDFTheme.smallFont).width
        text(pageText, font: PDFTheme.smallFont, at: Point(x: left + width - pageWidth, y: baseline - 4),
             color: PDFTheme.muted)
        text(footerTitle, font: PDFTheme.smallFont, at: Point(x: left, y: baseline - 4),
             width: width - pageWidth - 24, color: PDFTheme.muted)
    }

    // MARK: - Text

    /// The layout for `font`, with its per-call settings reset.
    func layout(_ font: String) -> TextLayout {
        if let l = layouts[font] { return l }
        let l = TextLayout(context: context, font: font)
        layouts[font] = l
        return l
    }

    private func configured(_ string: String, font: String, width: Double?, maxLines: Int?,
                            align: TextLayout.Alignment) -> TextLayout {
        let l = layout(font)
        let oneLine = maxLines == 1 || width == nil
        l.text = PDFComposer.leftToRightBase(oneLine ? InlineText.onOneLine(string) : string)
        l.width = width
        l.alignment = align
        l.wrap = .wordChar
        if let maxLines {
            l.ellipsize = .end
            l.maxLines = maxLines
        } else {
            l.ellipsize = .none
            l.maxLines = nil
        }
        return l
    }

    /// The size `string` takes in `font` (one line, ellipsized, when `maxLines` is 1).
    func measure(_ string: String, font: String, width: Double? = nil, maxLines: Int? = 1,
                 align: TextLayout.Alignment = .left) -> Size {
        let lines = width == nil ? nil : maxLines
        let key = PDFTextMetrics.Key(string: string, font: font, width: width, maxLines: lines, align: align)
        return metrics.size(key) { configured(string, font: font, width: width, maxLines: lines, align: align).size }
    }

    /// The width of `string` on one unbounded line in `font` (as ``measure(_:font:width:maxLines:align:)``
    /// gives it), laid out now and not remembered: for texts measured once, such as table cells.
    func unrememberedWidth(_ string: String, font: String) -> Double {
        configured(string, font: font, width: nil, maxLines: nil, align: .left).size.width
    }

    /// Draws `string` with its box's top-left at `point` and returns the box's size.
    ///
    /// With a `width` the text is aligned in it and cut with '…' after `maxLines` lines
    /// (nil: wrap freely); without one it is a single unbounded line.
    @discardableResult
    func text(_ string: String, font: String, at point: Point, width: Double? = nil, maxLines: Int? = 1,
              align: TextLayout.Alignment = .left, color: Color = PDFTheme.ink) -> Size {
        if isMeasuring { return measure(string, font: font, width: width, maxLines: maxLines, align: align) }
        let l = configured(string, font: font, width: width, maxLines: width == nil ? nil : maxLines, align: align)
        if l.isEllipsized { shortenedTexts.append(string) }
        l.draw(at: point, color: color)
        return l.size
    }

    /// Draws `string` and then `keep` on one line at `point`: as one text when they fit `width`,
    /// else `string` cut with '…' to the room `keep` leaves and `keep` whole right after the
    /// ellipsis (a name before the dates that must be read whole). Skipped while measuring.
    func text(_ string: String, keeping keep: String, font: String, at point: Point, width: Double,
              align: TextLayout.Alignment = .left, color: Color = PDFTheme.ink) {
        guard !isMeasuring else { return }
        let keepWidth = keep.isEmpty ? 0 : measure(keep, font: font).width
        guard keepWidth > 0, keepWidth < width, measure(string + keep, font: font).width > width else {
            text(string + keep, font: font, at: point, width: width, align: align, color: color)
            return
        }
        let cut = configured(string, font: font, width: width - keepWidth, maxLines: 1, align: .left)
        if cut.isEllipsized { shortenedTexts.append(string) }
        cut.draw(at: point, color: color)
        text(keep, font: font, at: Point(x: point.x + cut.firstLineInkEnd, y: point.y), width: keepWidth, align: .left, color: color)
    }

    /// `string` with a left-to-right mark in front when it holds right-to-left letters or an
    /// explicit embedding, override or mark (``InlineText/canTurnRightToLeft(_:)``), so that a
    /// Hebrew or Arabic name keeps its own order but sits in its column like every other row, and
    /// a line is never laid out right to left (Pango would otherwise align a right-to-left
    /// paragraph to the other edge, and order a line's parts from the right).
    static func leftToRightBase(_ string: String) -> String {
        InlineText.canTurnRightToLeft(string) ? "\u{200E}" + string : string
    }

    // MARK: - Shapes

    /// Fills a rectangle (skipped while measuring).
    func fill(_ rect: Rect, _ color: Color, radius: Double = 0) {
        guard !isMeasuring else { return }
        if radius > 0 { context.fillRoundedRectangle(rect, radius: radius, color) } else { context.fill(rect, color) }
    }

    /// Draws a horizontal rule across `x…x+w` at `y`.
    func rule(y: Double, x: Double? = nil, width w: Double? = nil, color: Color = PDFTheme.rule, lineWidth: Double = 0.5) {
        guard !isMeasuring else { return }
        let x0 = x ?? left
        context.strokeLine(from: Point(x: x0, y: y), to: Point(x: x0 + (w ?? width), y: y), color: color, width: lineWidth)
    }

    /// Runs drawing code only in the drawing pass.
    func draw(_ body: (CairoContext) throws -> Void) rethrows {
        guard !isMeasuring else { return }
        try context.withSavedState { try body(context) }
    }
}
