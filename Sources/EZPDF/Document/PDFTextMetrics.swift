import EZCairo

/// The sizes of the texts a document measured, kept from the measuring pass for the drawing pass.
///
/// Both passes lay text out on the same kind of surface with the same fonts, so a size found once
/// is the size the other pass would find: the drawing pass then only lays out what it draws
/// (column widths and row heights were already measured), and the measuring pass measures each
/// distinct text once.
final class PDFTextMetrics {
    /// What a size depends on.
    struct Key: Hashable {
        var string: String
        var font: String
        var width: Double?
        var maxLines: Int?
        var align: TextLayout.Alignment
    }

    private var sizes: [Key: Size] = [:]

    /// Table rows (headers, data and footers) the measuring pass laid out in the whole document:
    /// the drawing pass tags rows and cells only when there are at most
    /// ``PDFAccessibility/rowLimit`` of them.
    var tableRows = 0

    /// Each table's column widths (and type size), in the order the measuring pass laid the tables out: found from
    /// every cell once, and not kept cell by cell (a shop's 100,000 rows would hold them all).
    var tableWidths: [PDFTable.Layout] = []

    /// Each table's rows taller than one line (a wrapping cell too long for one), by row index,
    /// with their heights, in the same order: found by the measuring pass, so that both passes
    /// break pages alike.
    var tableTallRows: [[Int: Double]] = []

    /// The size stored for `key`, or the one `measure` finds (then stored).
    func size(_ key: Key, measure: () -> Size) -> Size {
        if let s = sizes[key] { return s }
        let s = measure()
        sizes[key] = s
        return s
    }
}
