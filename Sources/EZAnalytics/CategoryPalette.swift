/// The fixed colour-blind-safe palette for categories that have no colour of their own.
///
/// Colours are Okabe & Ito's and Paul Tol's "muted" qualitative schemes (both designed to stay
/// distinguishable under the common colour-vision deficiencies). A name always gets the same
/// colour, in every report and on every run: the colour is picked by a FNV-1a hash of the name's
/// UTF-8 bytes, never by the order categories happen to appear in.
///
/// ```swift
/// CategoryPalette.color(for: "Groceries")   // the same "#RRGGBB" every time
/// ```
package enum CategoryPalette {
    /// The palette, in order.
    package static let colors: [String] = [
        "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
        "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255", "#AA4499",
    ]

    /// The neutral grey used for the folded 'Other (n categories)' slice.
    package static let otherColor = "#BBBBBB"

    /// The palette colour for a category name: stable per name.
    package static func color(for name: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return colors[Int(h % UInt64(colors.count))]
    }
}
