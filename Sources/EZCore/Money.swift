/// An exact amount of money: an integer count of a currency's minor units.
///
/// Arithmetic is overflow-checked: an overflow throws ``MoneyError/overflow(_:)``
/// rather than wrapping or trapping. There is no floating point anywhere in a sum.
///
/// ```swift
/// let lunch = Money(minor: 1250, currency: .eur)      // 12.50 EUR
/// let total = try lunch.adding(Money(minor: 350, currency: .eur))
/// ```
package struct Money: Hashable, Sendable, CustomStringConvertible {
    /// Minor units (cents for EUR, yen for JPY).
    package let minor: Int64
    /// The currency the minor units are counted in.
    package let currency: Currency

    /// Makes an amount of `minor` units of `currency`.
    package init(minor: Int64, currency: Currency) {
        self.minor = minor
        self.currency = currency
    }

    /// Zero in `currency`.
    package static func zero(_ currency: Currency) -> Money { Money(minor: 0, currency: currency) }

    /// The sum, or an error when the currencies differ or the sum overflows.
    package func adding(_ other: Money) throws(MoneyError) -> Money {
        guard other.currency == currency else { throw .currencyMismatch(currency, other.currency) }
        return Money(minor: try MinorUnits.add(minor, other.minor), currency: currency)
    }

    /// The difference, or an error when the currencies differ or it overflows.
    package func subtracting(_ other: Money) throws(MoneyError) -> Money {
        guard other.currency == currency else { throw .currencyMismatch(currency, other.currency) }
        return Money(minor: try MinorUnits.subtract(minor, other.minor), currency: currency)
    }

    /// The amount as a plain decimal with exactly the currency's minor digits: `-12.50`, `1500` (JPY).
    package var plainDecimal: String { MinorUnits.plainDecimal(minor, exponent: currency.exponent) }

    package var description: String { "\(plainDecimal) \(currency.code)" }
}

/// Why a money operation failed.
package enum MoneyError: Error, Equatable, CustomStringConvertible {
    /// The result does not fit in 64 bits of minor units; the payload says which operation.
    case overflow(String)
    /// Two amounts in different currencies were combined without conversion.
    case currencyMismatch(Currency, Currency)

    package var description: String {
        switch self {
        case .overflow(let what): return "money overflow in \(what)"
        case .currencyMismatch(let a, let b): return "cannot combine \(a.code) with \(b.code) without conversion"
        }
    }
}

/// Overflow-checked arithmetic and formatting on raw minor-unit counts, for hot loops that
/// keep the currency implicit.
package enum MinorUnits {
    /// `a + b`, throwing on overflow.
    @inlinable
    package static func add(_ a: Int64, _ b: Int64) throws(MoneyError) -> Int64 {
        let (r, o) = a.addingReportingOverflow(b)
        if o { throw .overflow("\(a) + \(b)") }
        return r
    }

    /// `a - b`, throwing on overflow.
    @inlinable
    package static func subtract(_ a: Int64, _ b: Int64) throws(MoneyError) -> Int64 {
        let (r, o) = a.subtractingReportingOverflow(b)
        if o { throw .overflow("\(a) - \(b)") }
        return r
    }

    /// `a * b`, throwing on overflow.
    @inlinable
    package static func multiply(_ a: Int64, _ b: Int64) throws(MoneyError) -> Int64 {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        if o { throw .overflow("\(a) × \(b)") }
        return r
    }

    /// The sum of a sequence, throwing on overflow.
    package static func sum<S: Sequence>(_ values: S) throws(MoneyError) -> Int64 where S.Element == Int64 {
        var total: Int64 = 0
        for v in values { total = try add(total, v) }
        return total
    }

    /// `minor` as a plain decimal with exactly `exponent` fraction digits and '.' as separator.
    package static func plainDecimal(_ minor: Int64, exponent: Int) -> String {
        let negative = minor < 0
        let magnitude = minor.magnitude
        guard exponent > 0 else { return (negative ? "-" : "") + String(magnitude) }
        var scale: UInt64 = 1
        for _ in 0..<exponent { scale *= 10 }
        let whole = magnitude / scale
        var frac = String(magnitude % scale)
        while frac.count < exponent { frac = "0" + frac }
        return (negative ? "-" : "") + String(whole) + "." + frac
    }

    /// `numerator / denominator` rounded half-to-even (banker's rounding); `denominator` must not be 0.
    ///
    /// The one rounding rule of the engine: conversions, percentages, averages and paces all use it.
    package static func divideRoundingHalfEven(_ numerator: Int128, _ denominator: Int128) -> Int128 {
        precondition(denominator != 0)
        let (numerator, denominator) = denominator < 0 ? (-numerator, -denominator) : (numerator, denominator)
        var q = numerator / denominator
        let r = numerator % denominator
        if r == 0 { return q }
        let twice = r.magnitude * 2
        let d = denominator.magnitude
        let awayFromZero = twice > d || (twice == d && q % 2 != 0)
        if awayFromZero { q += numerator < 0 ? -1 : 1 }
        return q
    }
}
