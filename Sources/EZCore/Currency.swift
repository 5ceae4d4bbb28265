/// An ISO-4217 currency and the number of minor-unit digits it uses.
///
/// Money in the ledger is always an integer count of minor units; the exponent says
/// how many of them make one major unit (EUR 2: cents; JPY 0; BHD 3: fils).
///
/// ```swift
/// let yen = try Currency("JPY")   // exponent 0
/// ```
package struct Currency: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The three-letter upper-case ISO-4217 code.
    package let code: String
    /// Minor-unit digits (0, 2, 3, or 4 for CLF and UYW).
    package let exponent: Int

    /// Makes the currency for a code, or throws when the code is not three upper-case ASCII letters.
    package init(_ code: String) throws(CurrencyError) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }) else {
            throw CurrencyError(code: code)
        }
        self.code = code
        self.exponent = Currency.exponent(of: code)
    }

    /// The code's three letters packed into one integer, "EUR" → 0x455552, ordered as the codes
    /// are: a rate table keys its series by pairs of them, which hash and compare far more
    /// cheaply than pairs of strings (a ledger's thousands of rates are read at every open).
    package var packedCode: UInt32 {
        var packed: UInt32 = 0
        for byte in code.utf8 { packed = packed << 8 | UInt32(byte) }
        return packed
    }

    /// The packed form (``packedCode``) of a code given as UTF-8 bytes, or nil when the bytes are
    /// not three upper-case ASCII letters: the rule of ``init(_:)``, without making a string.
    package static func packedCode(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard bytes.count == 3 else { return nil }
        var packed: UInt32 = 0
        for byte in bytes {
            guard byte >= 65, byte <= 90 else { return nil }
            packed = packed << 8 | UInt32(byte)
        }
        return packed
    }

    /// Euro: the default currency of the admin usage report.
    package static let eur = try! Currency("EUR")

    /// 10^exponent: minor units in one major unit.
    package var minorPerMajor: Int64 {
        var value: Int64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    package var description: String { code }

    package static func < (lhs: Currency, rhs: Currency) -> Bool { lhs.code < rhs.code }

    private static let zeroDigit: Set<String> = [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF",
        "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF",
    ]
    private static let threeDigit: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

    /// ISO 4217's units of account counted to four decimals (Chile's UF, Uruguay's wage index).
    private static let fourDigit: Set<String> = ["CLF", "UYW"]
    private static func exponent(of code: String) -> Int {
        if fourDigit.contains(code) { return 4 }
        if zeroDigit.contains(code) { return 0 }
        if threeDigit.contains(code) { return 3 }
        return 2
    }
}

/// A currency code that is not three upper-case letters.
package struct CurrencyError: Error, Equatable, CustomStringConvertible {
    /// The offending code, as found.
    package let code: String
    package var description: String { "invalid currency code '\(code)' (expected three upper-case letters, e.g. EUR)" }
}
