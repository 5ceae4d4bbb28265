/// A document Cairo has drawn (its bytes), before the pass that completes its tags
/// (``PDFAccessibility``).
///
/// A renderer hands this on once it has drawn every page, so that its caller can let go of the
/// figures the document was drawn from before qpdf builds its objects: a batch renders a
/// 100,000-row statement's workbook and CSV files, drops the figures (~23 MB), and only then
/// finishes the PDF.
package final class DrawnPDF {
    private var bytes: [UInt8]?
    /// The reader's language (`/Lang`).
    let language: String
    /// Each chart's description (`/Alt`), in the order the charts were drawn.
    let figureDescriptions: [String]
    /// Whether the document gets the completing pass (it is skipped past ``PDFAccessibility/elementLimit``).
    let completes: Bool

    init(_ bytes: consuming [UInt8], language: String, figureDescriptions: [String], completes: Bool) {
        self.bytes = bytes
        self.language = language
        self.figureDescriptions = figureDescriptions
        self.completes = completes
    }

    /// What Cairo wrote, until the document is finished (for tests that finish it in other ways).
    var cairoBytes: [UInt8] { bytes ?? [] }

    /// Completes the document and returns its bytes, or writes it to the file `output` names
    /// (then returns none). A drawn document is finished once: its bytes are released on the way.
    ///
    /// - Throws: ``QPDFError`` when qpdf cannot complete it, ``PDFOutputError`` when it cannot be
    ///   written.
    package func finish(to output: PDFOutput = .bytes) throws -> [UInt8] {
        guard let bytes else { preconditionFailure("a drawn PDF is finished once") }
        self.bytes = nil
        guard completes else { return try output.deliver(bytes) }
        return try PDFAccessibility.complete(bytes, language: language, figureDescriptions: figureDescriptions, to: output)
    }
}
