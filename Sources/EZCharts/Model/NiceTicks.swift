#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exact decimal `significand × 10^exponent`, so tick values print without binary noise
/// (0.3, never 0.30000000000000004).
package struct TickValue: Hashable, Sendable, Comparable {
    package var significand: Int64
    package var exponent: Int
    /// The value `significand × 10^exponent`.
    package init(significand: Int64, exponent: Int) { self.significand = significand; self.exponent = exponent }
    /// The value as a Double, for positioning only.
    package var doubleValue: Double { Double(significand) * pow(10, Double(exponent)) }
    /// The value as an integer when `exponent >= 0` (e.g. minor units). 128 bits wide: the nice
    /// tick above data near `Int64.max` is past it (data of 8×10^18 gets an axis up to 10^19).
    package var integerValue: Int128 {
        var v = Int128(significand)
        if exponent >= 0 { for _ in 0..<exponent { v *= 10 } } else { for _ in 0..<(-exponent) { v /= 10 } }
        return v
    }
    package static func < (a: TickValue, b: TickValue) -> Bool { a.doubleValue < b.doubleValue }
}

/// Axis ticks on 'nice' steps of 1, 2 or 5 × 10^k (Heckbert), each tick an integer multiple of the
/// step (as d3 computes them) rather than a running sum.
///
/// ```swift
/// let t = NiceTicks(from: 0, to: 1234, count: 5)
/// t.values.map(\.integerValue)   // [0, 200, 400, …, 1400]
/// ```
package struct NiceTicks: Hashable, Sendable {
    /// The step between ticks.
    package let step: TickValue
    /// The ticks, ascending, covering the data range (the first ≤ lower bound, the last ≥ upper).
    package let values: [TickValue]

    /// Ticks covering `lower…upper` with about `count` intervals; steps never finer than 10^`minimumExponent`
    /// (0 for integer data such as minor units or counts).
    package init(from lower: Double, to upper: Double, count: Int = 5, minimumExponent: Int? = nil) {
        var lo = min(lower, upper), hi = max(lower, upper)
        if !lo.isFinite || !hi.isFinite { lo = 0; hi = 1 }
        if hi == lo { if lo == 0 { hi = 1 } else { lo = min(0, lo); hi = max(0, hi); if hi == lo { hi = lo + 1 } } }
        let raw = (hi - lo) / Double(max(1, count))
        var power = Int(floor(log10(raw)))
        let error = raw / pow(10, Double(power))
        var factor: Int64 = error >= 50.0.squareRoot() ? 10 : error >= 10.0.squareRoot() ? 5 : error >= 2.0.squareRoot() ? 2 : 1
        if factor == 10 { factor = 1; power += 1 }
        if let minimumExponent, power < minimumExponent { power = minimumExponent; factor = 1 }
        let step = TickValue(significand: factor, exponent: power)
        let stepDouble = step.doubleValue
        func snapped(_ q: Double) -> Double { abs(q - q.rounded()) < 1e-9 ? q.rounded() : q }
        let first = Int64(floor(snapped(lo / stepDouble)))
        let last = Int64(ceil(snapped(hi / stepDouble)))
        self.step = step
        self.values = (first...max(first, last)).map { TickValue(significand: $0 * factor, exponent: power) }
    }

    /// The first tick (the nice lower bound).
    package var lower: TickValue { values.first! }
    /// The last tick (the nice upper bound).
    package var upper: TickValue { values.last! }
}
