/// An exchange rate as the exact decimal it was written as: `1 base = rate quote`.
///
/// The ledger stores rates as REAL. The engine reads them as the shortest decimal that
/// reads back as the stored double (`1.609`, not `1.6089999999999999857891452847979962825775146484375`)
/// and converts with exact integer arithmetic, rounding once, half-to-even, to the target's minor unit.
package struct DecimalRate: Hashable, Sendable, CustomStringConvertible {
    /// The decimal digits without the point: 1.609 → 1609.
    package let significand: Int64
    /// Digits after the point: 1.609 → 3. Negative for large whole numbers written with an exponent.
    package let scale: Int

    /// Parses the shortest round-trip decimal of `value`, or returns nil for non-positive, non-finite
    /// or unrepresentably precise values.
    package init?(_ value: Double) {
        guard value.isFinite, value > 0 else { return nil }
        self.init(decimalString: value.description)
    }

    /// Parses a plain or exponent-form decimal string such as `1.609`, `150`, `1.2e-05`.
    package init?(decimalString text: String) {
        var text = text
        guard let parsed = text.withUTF8({ DecimalRate.parse($0) }) else { return nil }
        self = parsed
    }

    private init(significand: Int64, scale: Int) {
        self.significand = significand
        self.scale = scale
    }

    /// Reads UTF-8 bytes as a decimal: ASCII digits with at most one point, then optionally `e` or
    /// `E` and a whole exponent (an optional sign, then digits). Bytes, not Characters: a
    /// Character's comparisons and `wholeNumberValue` (Unicode property lookups) made loading a
    /// ledger's thousands of rates slow, and only ASCII is accepted anyway.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> DecimalRate? {
        var mantissa = bytes[...]
        var exponent = 0
        if let e = bytes.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            // Beyond any double's exponent: refused rather than overflowing the scale below.
            guard let exp = wholeNumber(bytes[(e + 1)...]), exp > -1_000_000, exp < 1_000_000 else { return nil }
            exponent = exp
            mantissa = bytes[..<e]
        }
        var digits: Int64 = 0
        var fraction = 0
        var seenPoint = false
        var any = false
        for byte in mantissa {
            if byte == UInt8(ascii: ".") { if seenPoint { return nil }; seenPoint = true; continue }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (m, o1) = digits.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            digits = s
            any = true
            if seenPoint { fraction += 1 }
        }
        guard any, digits > 0 else { return nil }
        // Drop trailing zeros so equal rates compare equal.
        var scale = fraction - exponent
        while digits % 10 == 0 { digits /= 10; scale -= 1 }
        return DecimalRate(significand: digits, scale: scale)
    }

    /// An exponent as `Int(_: String)` reads it: an optional `+` or `-`, then at least one ASCII
    /// digit; nil when it overflows.
    private static func wholeNumber(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var rest = bytes
        var negative = false
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty else { return nil }
        var value = 0
        for byte in rest {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(byte &- UInt8(ascii: "0"))
            let (s, o2) = negative ? m.subtractingReportingOverflow(digit) : m.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = s
        }
        return value
    }

    package var description: String {
        if scale <= 0 {
            var s = String(significand)
            for _ in 0..<(-scale) { s += "0" }
            return s
        }
        var s = String(significand)
        while s.count <= scale { s = "0" + s }
        let cut = s.index(s.endIndex, offsetBy: -scale)
        return s[..<cut] + "." + s[cut...]
    }

    /// Converts `minor` units of a currency with exponent `from` into minor units of a currency
    /// with exponent `to`, multiplying by this rate (or dividing by it when `inverse`), rounding half-to-even.
    package func convert(_ minor: Int64, fromExponent from: Int, toExponent to: Int, inverse: Bool) throws(MoneyError) -> Int64 {
        let amount = Int128(minor)
        let sig = Int128(significand)
        var numerator: Int128
        var denominator: Int128
        // result = minor × rate × 10^(to − from), rate = sig × 10^−scale (or its inverse).
        let power = inverse ? (to - from + scale) : (to - from - scale)
        if inverse {
            numerator = amount
            denominator = sig
        } else {
            numerator = amount * sig
            denominator = 1
        }
        if power >= 0 {
            guard let p = Self.pow10(power) else { throw .overflow("conversion of \(minor) at rate \(self)") }
            let (n, o) = numerator.multipliedReportingOverflow(by: p)
            if o { throw .overflow("conversion of \(minor) at rate \(self)") }
            numerator = n
        } else {
            guard let p = Self.pow10(-power) else { return 0 }
            let (d, o) = denominator.multipliedReportingOverflow(by: p)
            if o { return 0 }
            denominator = d
        }
        let result = MinorUnits.divideRoundingHalfEven(numerator, denominator)
        guard let exact = Int64(exactly: result) else { throw .overflow("conversion of \(minor) at rate \(self)") }
        return exact
    }

    private static func pow10(_ n: Int) -> Int128? {
        guard n <= 36 else { return nil }
        var v: Int128 = 1
        for _ in 0..<n { v *= 10 }
        return v
    }
}
