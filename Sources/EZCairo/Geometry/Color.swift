#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An sRGB colour with alpha, each component in 0…1.
///
/// ```swift
/// let blue = Color(hex: "#0072B2")!
/// let faint = blue.withAlpha(0.3)
/// ```
package struct Color: Hashable, Sendable {
    package var red: Double
    package var green: Double
    package var blue: Double
    package var alpha: Double

    /// A colour from components in 0…1.
    package init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour from 8-bit components.
    package init(r: UInt8, g: UInt8, b: UInt8, alpha: Double = 1) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: alpha)
    }

    /// Parses `#RRGGBB` or `RRGGBB` (case-insensitive); nil for anything else.
    package init?(hex: String) {
        var bytes = Array(hex.utf8)
        if bytes.first == UInt8(ascii: "#") { bytes.removeFirst() }
        guard bytes.count == 6 else { return nil }
        var value: UInt32 = 0
        for b in bytes {
            let d: UInt8
            switch b {
            case 48...57: d = b - 48
            case 65...70: d = b - 55
            case 97...102: d = b - 87
            default: return nil
            }
            value = value << 4 | UInt32(d)
        }
        self.init(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
    }

    /// The same colour with another alpha.
    package func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }

    /// This colour mixed with white by `amount` (0 = unchanged, 1 = white); for tints and fills.
    package func lightened(_ amount: Double) -> Color {
        Color(red: red + (1 - red) * amount, green: green + (1 - green) * amount,
              blue: blue + (1 - blue) * amount, alpha: alpha)
    }

    /// This colour mixed with black by `amount`.
    package func darkened(_ amount: Double) -> Color {
        Color(red: red * (1 - amount), green: green * (1 - amount), blue: blue * (1 - amount), alpha: alpha)
    }

    /// WCAG relative luminance (0 black … 1 white), to choose readable text on a fill.
    package var luminance: Double {
        func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * lin(red) + 0.7152 * lin(green) + 0.0722 * lin(blue)
    }

    /// Black or white, whichever reads better on this colour.
    package var contrastingText: Color { luminance > 0.4 ? Color.ink : Color.white }

    package static let white = Color(red: 1, green: 1, blue: 1)
    package static let black = Color(red: 0, green: 0, blue: 0)
    /// Near-black for text: softer than pure black, still well above WCAG AA on white.
    package static let ink = Color(r: 0x1F, g: 0x23, b: 0x28)
}
