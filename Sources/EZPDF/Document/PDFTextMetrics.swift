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

    /// The size stored for `key`, or the one `measure` finds (then stored).
    func size(_ key: Key, measure: () -> Size) -> Size {
        if let s = sizes[key] { return s }
        let s = measure()
        sizes[key] = s
        return s
    }
}
