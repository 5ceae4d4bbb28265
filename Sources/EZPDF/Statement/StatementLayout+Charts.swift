import EZAnalytics
import EZCharts

extension StatementLayout {
    /// The statement's charts, drawn as vectors.
    func drawCharts(_ c: PDFComposer) throws {
    }
}
