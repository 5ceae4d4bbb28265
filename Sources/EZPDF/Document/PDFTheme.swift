import EZAnalytics
import EZCairo

/// The look shared by every PDF report: colours, fonts and the spacing rhythm.
///
/// Colours keep text at WCAG AA contrast or better on their backgrounds; status colours match the
/// app's (green under the limit, amber close to it, red over it).
enum PDFTheme {
    // MARK: - Colours

    static let ink = Color.ink
    static let muted = Color(r: 0x5B, g: 0x64, b: 0x70)
    static let faint = Color(r: 0x8A, g: 0x93, b: 0x9E)
    static let rule = Color(r: 0xDD, g: 0xE1, b: 0xE6)
    static let zebra = Color(r: 0xF5, g: 0xF7, b: 0xF9)
    static let tile = Color(r: 0xF3, g: 0xF5, b: 0xF8)
    static let accent = Color(r: 0x1F, g: 0x4E, b: 0x79)
    static let positive = Color(r: 0x17, g: 0x7A, b: 0x48)
    static let negative = Color(r: 0xB4, g: 0x23, b: 0x18)
    static let warning = Color(r: 0xB4, g: 0x53, b: 0x09)
    /// The header band when the reader has no monthly limit.
    static let neutralBand = Color(r: 0x25, g: 0x3A, b: 0x52)

    /// The colour of a budget or limit status.
    static func color(for status: BudgetStatus) -> Color {
        switch status {
        case .ok: return positive
        case .warning: return warning
        case .over: return negative
        }
    }

    /// The header band's colour: the limit's status, or neutral without a limit.
    static func band(for limit: LimitStatus?) -> Color {
        guard let limit else { return neutralBand }
        return color(for: limit.status)
    }

    // MARK: - Fonts (Pango descriptions; fontconfig falls back to Noto CJK, Hebrew and Color Emoji)

    static let family = "Noto Sans"
    static func font(_ size: Double, bold: Bool = false) -> String {
        "\(family)\(bold ? " Bold" : "") \(size)"
    }

    /// The cover title's size in points (bold).
    static let titleSize = 22.0
    static let titleFont = font(titleSize, bold: true)
    /// The cover's subtitle size in points.
    static let subtitleSize = 10.5
    static let subtitleFont = font(subtitleSize)
    static let sectionFont = font(14, bold: true)
    static let subsectionFont = font(11, bold: true)
    static let bodyFont = font(9)
    static let smallFont = font(7.5)
    static let tableFont = font(8)
    static let tableHeaderSize = 7.5
    static let tableHeaderFont = font(tableHeaderSize, bold: true)
    static let kpiValueFont = font(14, bold: true)
    static let kpiLabelFont = font(7.5, bold: true)

    // MARK: - Spacing

    /// Space above a section title.
    static let sectionGap: Double = 22
    /// Space between a title and what follows it.
    static let titleGap: Double = 8
}
