import EZCore
import Foundation
import Hummingbird

/// Parsing of path and query parameters into engine values; every failure is a 400 problem
/// naming the parameter.
enum RequestParameters {
    /// Today's date in UTC (the default `as_of`, as in `ezreport export`).
    static func today() -> CivilDate {
        CivilDate(dayNumber: Int32((Date().timeIntervalSince1970 / 86400).rounded(.down)))
    }

    /// Splits `name.ext` at the last dot; the extension must be one of `allowed`.
    static func splitExtension(_ text: String, allowed: [String], parameter: String) throws(Problem) -> (stem: String, ext: String) {
        guard let dot = text.lastIndex(of: "."), dot != text.startIndex else {
            throw Problem.badParameter("format", "expected \(parameter).\(allowed.joined(separator: "|"))")
        }
        let ext = String(text[text.index(after: dot)...]).lowercased()
        guard allowed.contains(ext) else {
            throw Problem.badParameter("format", "'\(sanitised(ext))' is not one of \(allowed.joined(separator: ", "))")
        }
        return (String(text[..<dot]), ext)
    }

    /// `?as_of=YYYY-MM-DD`, today when absent.
    static func asOf(_ request: Request) throws(Problem) -> CivilDate {
        try date(request, "as_of") ?? today()
    }

    /// A `YYYY-MM-DD` query parameter, nil when absent.
    static func date(_ request: Request, _ name: String) throws(Problem) -> CivilDate? {
        guard let text = try single(request, name) else { return nil }
        guard let d = CivilDate(iso: text) else { throw Problem.badParameter(name, "expected a date YYYY-MM-DD") }
        guard Period.isSupported(d) else {
            throw Problem.badParameter(name, "years \(Period.supportedYears.lowerBound) to \(Period.supportedYears.upperBound) only")
        }
        return d
    }

    /// A period (`2026-10`, `2026-Q3`, …) resolved against `asOf`.
    static func period(_ text: String, asOf: CivilDate) throws(Problem) -> Period {
        do { return try Period.parse(text, asOf: asOf) } catch {
            // The parser's reason ("the range ends before it starts", "month 13 does not exist") when it has one.
            let why = error.reason.map { ": \($0)" } ?? ""
            throw Problem.badParameter("period", "'\(sanitised(text))' is not a period\(why) (\(Period.acceptedForms))")
        }
    }

    /// The inclusive date range of `from`/`to`: defaults to the month of `to` (today when absent);
    /// `from` after `to` or a range over 10 years is a 400.
    static func range(_ request: Request) throws(Problem) -> Period {
        // Read in the order a person writes them: with both wrong, the problem names `from`.
        let from = try date(request, "from")
        let to = try date(request, "to")
        let end = to ?? today()   // `to` defaults to today: a `from` after it is a 400, not a silent one-day range
        let start = from ?? CivilDate(year: end.year, month: end.month, day: 1)
        guard start <= end else { throw Problem.badParameter("from", "'from' is after 'to'") }
        guard Period.isAtMostTenYears(from: start, to: end) else { throw Problem.badParameter("to", "the range is longer than 10 years") }
        return Period(kind: .range, start: start, end: end)
    }

    /// A decimal amount (`12.50`) as text, validated for shape; converted once the currency is known.
    static func amount(_ request: Request, _ name: String) throws(Problem) -> DecimalText? {
        guard let text = try single(request, name) else { return nil }
        guard let value = DecimalText(text) else {
            throw Problem.badParameter(name, "expected a non-negative decimal amount such as 12.50 "
                                       + "(at most \(DecimalText.maxWholeDigits) digits before the point and \(DecimalText.maxFractionDigits) after)")
        }
        return value
    }

    /// Every value of a repeatable text parameter (at most 50 values of at most 200 characters).
    static func texts(_ request: Request, _ name: String) throws(Problem) -> [String] {
        let values = try formValues(request, name)
        guard values.count <= 50, values.allSatisfy({ $0.count <= 200 }) else {
            throw Problem.badParameter(name, "too many values or a value over 200 characters")
        }
        return values
    }

    /// A parameter given at most once: repeated (`as_of=…&as_of=…`), it is a 400 naming it, not
    /// silently the first value (a client's two values disagreeing is a bug to show it).
    static func single(_ request: Request, _ name: String) throws(Problem) -> String? {
        let values = try formValues(request, name)
        guard values.count <= 1 else { throw Problem.badParameter(name, "given \(values.count) times; give it once") }
        return values.first
    }

    /// Every value of `name` in the query string, decoded as `application/x-www-form-urlencoded`
    /// (WHATWG URL §5.1): `+` is a space, then percent-escapes are decoded. The app's backend
    /// builds its queries with `URLSearchParams` or `urlencode`, which write "Eating out" as
    /// `Eating+out`; read as a literal plus, that category matched nothing. A literal `+` comes
    /// as `%2B`. Hummingbird's query parameters decode the escapes but keep `+`.
    ///
    /// A value of `name` that does not decode (a `%` not followed by two hex digits, or escapes
    /// that are not UTF-8) is a 400 naming it: kept as it was written, `q=caf%C3%A9%` searched
    /// for the text `caf%C3%A9%` and silently found nothing. Other parameters are not read.
    static func formValues(_ request: Request, _ name: String) throws(Problem) -> [String] {
        guard let query = request.uri.query, !query.isEmpty else { return [] }
        func decoded(_ part: Substring) -> String? {
            part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        var values: [String] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard decoded(parts[0]) == name else { continue }
            guard parts.count > 1 else { values.append(""); continue }
            guard let value = decoded(parts[1]) else {
                throw Problem.badParameter(name, "not valid percent-encoded UTF-8 (write a literal % as %25)")
            }
            values.append(value)
        }
        return values
    }

    /// Text from the request echoed in a problem: printable ASCII only, at most 40 characters.
    static func sanitised(_ text: String) -> String {
        String(text.unicodeScalars.prefix(40).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F && $0 != "\"" ? Character($0) : "?" })
    }
}

/// A non-negative decimal amount as the client wrote it (`12`, `12.5`, `12.50`).
struct DecimalText: Sendable, Hashable {
    var whole: Int64
    var fraction: String

    /// The most digits an amount may have before its decimal point, and after it.
    static let maxWholeDigits = 15, maxFractionDigits = 6

    init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let w = parts.first, !w.isEmpty, w.count <= Self.maxWholeDigits, w.allSatisfy(\.isASCIIDigit),
              let whole = Int64(w) else { return nil }
        let f = parts.count == 2 ? String(parts[1]) : ""
        guard parts.count == 1 || (!f.isEmpty && f.count <= Self.maxFractionDigits && f.allSatisfy(\.isASCIIDigit)) else { return nil }
        self.whole = whole
        self.fraction = f
    }

    /// The amount in minor units of a currency with `exponent` decimals; nil when it has more
    /// (non-zero) decimals than the currency.
    func minorUnits(exponent: Int) -> Int64? {
        var digits = fraction
        while digits.count > exponent {
            guard digits.last == "0" else { return nil }
            digits.removeLast()
        }
        while digits.count < exponent { digits.append("0") }
        var scale: Int64 = 1
        for _ in 0..<exponent { scale *= 10 }
        return whole * scale + (Int64(digits) ?? 0)
    }
}

extension Character {
    /// `0`–`9`, nothing else.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
