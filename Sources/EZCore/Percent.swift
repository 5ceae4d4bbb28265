/// A percentage held exactly as tenths of a percent: `Percent(tenths: 125)` is 12.5 %.
///
/// Reports show percentages with one decimal; keeping them as integers means they add up
/// exactly (category shares sum to 100.0) and print without floating-point noise.
package struct Percent: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Tenths of a percent.
    package var tenths: Int64
    package init(tenths: Int64) { self.tenths = tenths }

    /// `part / whole` as a percentage rounded half-to-even to one decimal, or nil when `whole` is 0.
    package static func of(_ part: Int64, _ whole: Int64) -> Percent? {
        guard whole != 0 else { return nil }
        let q = MinorUnits.divideRoundingHalfEven(Int128(part) * 1000, Int128(whole))
        return Percent(tenths: Int64(q))
    }

    /// `part / whole` rounded half-to-even, once, to a whole percent (tenths a multiple of 10), or
    /// nil when `whole` is 0: for a whole-percent display, which rounding ``of(_:_:)``'s one
    /// decimal again would get wrong (82.54 → 82.5 → 82).
    package static func roundedToWhole(_ part: Int64, _ whole: Int64) -> Percent? {
        guard whole != 0 else { return nil }
        let q = MinorUnits.divideRoundingHalfEven(Int128(part) * 100, Int128(whole))
        return Percent(tenths: Int64(q) * 10)
    }

    /// One decimal, '.' as separator: `12.5`, `-3.0`, `100.0`.
    package var description: String {
        let sign = tenths < 0 ? "-" : ""
        let m = tenths.magnitude
        return "\(sign)\(m / 10).\(m % 10)"
    }

    /// The value as a fraction (0.125 for 12.5 %), for drawing only — never for money.
    package var fraction: Double { Double(tenths) / 1000 }

    package static func < (a: Percent, b: Percent) -> Bool { a.tenths < b.tenths }
}

/// A change between two amounts: absolute, and relative when the base is not zero.
package struct Change: Hashable, Sendable {
    /// `current − base`, in minor units.
    package var absolute: Int64
    /// `(current − base) / |base|`, or nil when the base is zero.
    package var percent: Percent?
    package init(absolute: Int64, percent: Percent?) { self.absolute = absolute; self.percent = percent }
}
