import EZCairo
/// Colour-blind-safe colours: the Okabe–Ito palette (without its yellow, too light for lines on
/// white), continued with Paul Tol's distinct colours; plus status and neutral colours.
package enum Palette {
    /// Categorical colours in order; distinguishable with the common colour-vision deficiencies.
    package static let categorical: [Color] = [
        "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
        "#332288", "#B8A23A", "#882255", "#44AA99", "#7A5C2E",
    ].map { Color(hex: $0)! }

    /// The `index`-th categorical colour (cycling).
    package static func color(_ index: Int) -> Color { categorical[((index % categorical.count) + categorical.count) % categorical.count] }

    /// The colour of folded 'Other' slices.
    package static let other = Color(hex: "#A3ACB9")!
    /// Status colours: ok (bluish green), warning (orange), over (vermillion).
    package static let ok = Color(hex: "#009E73")!
    package static let warning = Color(hex: "#E69F00")!
    package static let over = Color(hex: "#D55E00")!
    /// Positive / negative amounts (blue / vermillion: safe for red–green deficiencies).
    package static let positive = Color(hex: "#0072B2")!
    package static let negative = Color(hex: "#D55E00")!
    /// Secondary text, grid lines, tracks.
    package static let mutedText = Color(hex: "#5B6573")!
    package static let grid = Color(hex: "#E3E7EC")!
    package static let axis = Color(hex: "#9AA4B1")!
    package static let track = Color(hex: "#EDF0F3")!
}
