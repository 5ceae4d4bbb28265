import EZCairo

/// The structure elements of the statement's and the admin report's tagged PDF.
enum PDFTag: String {
    case document = "Document", h1 = "H1", h2 = "H2", paragraph = "P"
    case table = "Table", row = "TR", headerCell = "TH", cell = "TD", figure = "Figure"
    /// A long table's parts when its rows are not elements of their own (``PDFAccessibility/rowLimit``).
    case tableHead = "THead", tableBody = "TBody", tableFoot = "TFoot"
    /// Page furniture (footers, a table's repeated header). Cairo 1.16 accepts only the standard
    /// structure types, and Artifact is not one: it is drawn in a `Private` element, which
    /// ``PDFAccessibility`` takes out of the structure tree and re-marks `/Artifact BMC` in the page.
    case artifact = "Private"
}

extension PDFComposer {
    /// The most characters of a chart's text alternative (``addFigureDescription(_:)``).
    static let figureDescriptionCharacters = 4 * CairoText.maximumCharacters

    /// Runs `body` inside the structure element `tag` (only in the drawing pass: the measuring
    /// pass's document is thrown away).
    func tagged<T>(_ tag: PDFTag, _ body: () throws -> T) rethrows -> T {
        guard !isMeasuring else { return try body() }
        context.beginTag(tag.rawValue)
        defer { context.endTag(tag.rawValue) }
        return try body()
    }

    /// Records a chart's text alternative, in document order, for its `Figure` element: at most
    /// ``figureDescriptionCharacters`` of it (it names categories, whose names have no length
    /// limit in the ledger).
    func addFigureDescription(_ text: String) {
        guard !isMeasuring else { return }
        figureDescriptions.append(CairoText.bounded(text, to: Self.figureDescriptionCharacters))
    }
}
