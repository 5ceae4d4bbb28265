import Foundation
import Synchronization

/// How a locale outside ``LocaleFormat/knownLanguages`` writes numbers, money, percentages and
/// dates, read from CLDR (through Foundation's ICU formatters) once per locale.
///
/// Its statement is in English words, but a Swede reads `123 456,78 kr` and `1 okt. 2026`, a Pole
/// `1234,50 zł`, a Turk `%12,5`. Only the conventions come from ICU: the figures are still written
/// with ``LocaleFormat``'s integer arithmetic, in Latin digits (CLDR's `latn` numbering, so that an
/// Arabic or Persian locale's figures read like the English words around them), with plain ASCII
/// spaces, and the bidirectional marks CLDR puts around Hebrew and Arabic symbols left out.
struct CLDRConventions: Hashable, Sendable {
    /// The locale read (`sv_SE`), where ``LocaleFormat/locale`` names its words' (`en_SE`).
    var identifier: String
    var decimalSeparator: String
    var groupingSeparator: String
    /// 2 where CLDR leaves four-digit numbers ungrouped (Polish `1234`, but `12 345`).
    var minimumGroupingDigits: Int
    /// 2 where CLDR groups in lakhs and crores past the first three digits (Hindi's `12,34,567`), else 3.
    var secondaryGroupingSize: Int
    var symbolFirst: Bool
    var spaceAfterLeadingSymbol: Bool
    var spaceBeforeTrailingSymbol: Bool
    var percentFirst: Bool
    var spaceBeforePercent: Bool
    /// CLDR's medium date pattern (template `yMMMd`): `d MMM y`, `d. MMM y`, `d MMM y 'г'.`.
    var datePattern: String
    /// CLDR's month-and-year pattern (template `yMMM`): `MMM y`, `LLL y`, `MMM 'de' y`.
    var monthYearPattern: String
    /// Abbreviated month names as a date writes them (`MMM`), and standing alone (`LLL`).
    var shortMonths: [String]
    var shortStandaloneMonths: [String]
    /// CLDR's short compact forms for thousands, millions and billions, as they follow the
    /// number (` tys.`, ` mln`, ` mld` in Polish; ` هزار`, ` میلیون` in Persian), largest first;
    /// nil where CLDR's units are not these three (Hindi's lakhs) or cannot be read. An English
    /// `M` after a Persian rial read "ریال 128M", a figure a Persian reader takes for 128 rials
    /// (outside languages test).
    var compactSuffixes: [String]?

    /// The conventions of `identifier` (a POSIX name such as `sv_SE`), or nil when ICU has no
    /// data for its language (a made-up `xx_YY`): that locale is then written as English.
    static func of(_ identifier: String) -> CLDRConventions? {
        if let known = cache.withLock({ $0[identifier] }) { return known }
        let read = load(identifier)
        // Bounded: the locales come from the ledger's rows.
        cache.withLock { if $0.count < 1_024 { $0[identifier] = read } }
        return read
    }

    private static let cache = Mutex<[String: CLDRConventions?]>([:])

    private static func load(_ identifier: String) -> CLDRConventions? {
        let language = String(identifier.prefix { $0 != "_" })
        guard Locale.availableIdentifiers.contains(where: { $0 == language || $0.hasPrefix(language + "_") }) else { return nil }
        let locale = Locale(identifier: identifier + "@calendar=gregorian;numbers=latn")
        let decimal = NumberFormatter()
        decimal.locale = locale
        decimal.numberStyle = .decimal
        let currency = NumberFormatter()
        currency.locale = locale
        currency.numberStyle = .currency
        let percent = NumberFormatter()
        percent.locale = locale
        percent.numberStyle = .percent
        let dates = DateFormatter()
        dates.locale = locale
        // Statements are dated in the Gregorian calendar whatever the language: fa_IR's default
        // calendar (Persian) named October 2026 "دی", ar_SA's (Islamic) "شوال", beside the
        // Gregorian day and year.
        dates.calendar = Calendar(identifier: .gregorian)
        let months = dates.shortMonthSymbols ?? [], standalone = dates.shortStandaloneMonthSymbols ?? []
        guard months.count == 12, standalone.count == 12 else { return nil }

        let currencyPattern = plain(currency.positiveFormat ?? "¤#,##0.00")
        let percentPattern = plain(percent.positiveFormat ?? "#,##0%")
        let symbolFirst = currencyPattern.first == "¤"
        let ungroupedFour = plain(decimal.string(from: 1234) ?? "1,234") == "1234"
        return CLDRConventions(
            identifier: identifier,
            decimalSeparator: ascii(decimal.decimalSeparator ?? "."),
            groupingSeparator: ascii(decimal.groupingSeparator ?? ","),
            minimumGroupingDigits: ungroupedFour ? 2 : 1,
            secondaryGroupingSize: secondaryGroupingSize(locale),
            symbolFirst: symbolFirst,
            spaceAfterLeadingSymbol: symbolFirst && currencyPattern.dropFirst().first == " ",
            spaceBeforeTrailingSymbol: !symbolFirst && currencyPattern.dropLast().last == " ",
            percentFirst: percentPattern.first == "%",
            spaceBeforePercent: percentPattern.last == "%" && percentPattern.dropLast().last == " ",
            datePattern: plain(DateFormatter.dateFormat(fromTemplate: "yMMMd", options: 0, locale: locale) ?? "d MMM y"),
            monthYearPattern: plain(DateFormatter.dateFormat(fromTemplate: "yMMM", options: 0, locale: locale) ?? "MMM y"),
            shortMonths: months.map(plain), shortStandaloneMonths: standalone.map(plain),
            compactSuffixes: compactSuffixes(locale))
    }

    /// What follows 20 thousand, 20 million and 20 billion in CLDR's short compact notation, or
    /// nil when one of them is not written as 20 and a suffix.
    private static func compactSuffixes(_ locale: Locale) -> [String]? {
        var suffixes: [String] = []
        for power in [9, 6, 3] {
            var value = 20
            for _ in 0..<power { value *= 10 }
            let written = plain(value.formatted(.number.notation(.compactName).locale(locale)))
            guard written.hasPrefix("20"), written.count > 2 else { return nil }
            let suffix = String(written.dropFirst(2))
            guard !suffix.contains(where: { $0.isNumber }) else { return nil }
            suffixes.append(suffix)
        }
        return suffixes
    }

    /// The currency symbol this locale writes for `code` (`kr` for SEK in Swedish, `zł` for PLN in
    /// Polish), or the code itself.
    func symbol(for code: String) -> String {
        let key = identifier + "|" + code
        if let known = Self.symbols.withLock({ $0[key] }) { return known }
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: identifier + "@calendar=gregorian;numbers=latn")
        formatter.numberStyle = .currency
        formatter.currencyCode = code
        let symbol = Self.plain(formatter.currencySymbol ?? code)
        let read = symbol.isEmpty ? code : symbol
        Self.symbols.withLock { if $0.count < 4_096 { $0[key] = read } }
        return read
    }

    private static let symbols = Mutex<[String: String]>([:])

    /// A date written by `pattern` (ICU's date pattern letters `d`, `M`/`L`, `y`, quoted text; any
    /// other letter is left out with its run).
    func write(_ pattern: String, year: Int, month: Int, day: Int) -> String {
        var out = ""
        var chars = Array(pattern)[...]
        while let c = chars.first {
            if c == "'" {
                chars = chars.dropFirst()
                if chars.first == "'" { out.append("'"); chars = chars.dropFirst(); continue }
                while let q = chars.first {
                    chars = chars.dropFirst()
                    if q == "'" {
                        if chars.first == "'" { out.append("'"); chars = chars.dropFirst(); continue }
                        break
                    }
                    out.append(q)
                }
                continue
            }
            guard c.isASCII && c.isLetter else { out.append(c); chars = chars.dropFirst(); continue }
            let run = chars.prefix { $0 == c }.count
            chars = chars.dropFirst(run)
            switch c {
            case "d": out += run >= 2 ? LocaleFormat.two(day) : String(day)
            case "M", "L":
                let names = c == "M" ? shortMonths : shortStandaloneMonths
                out += run >= 3 ? names[max(1, min(12, month)) - 1] : run == 2 ? LocaleFormat.two(month) : String(month)
            case "y": out += run == 2 ? LocaleFormat.two(year % 100) : String(year)
            default: break
            }
        }
        return out.trimmingCharacters(in: .whitespaces)
    }

    /// `text` without bidirectional marks, its no-break and narrow spaces as ASCII spaces.
    private static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.compactMap { s -> Unicode.Scalar? in
            switch s.value {
            case 0x200E, 0x200F, 0x061C: return nil
            case 0x00A0, 0x202F, 0x2009: return " "
            default: return s
            }
        }))
    }

    /// A separator as ASCII: a space of any width is a space.
    private static func ascii(_ separator: String) -> String { plain(separator) }

    /// The size of the groups past the first three digits, read from how ICU writes 1234567:
    /// `1,234,567` → 3, `12,34,567` → 2. (NumberFormatter's own `secondaryGroupingSize` reads 0 for
    /// every locale here, and its pattern `#,##0.###` drops CLDR's `#,##,##0.###`; the format style
    /// keeps it.)
    private static func secondaryGroupingSize(_ locale: Locale) -> Int {
        let written = 1_234_567.formatted(.number.locale(locale))
        let runs = written.split { !("0"..."9").contains($0) }
        return runs.count == 3 && runs[1].count == 2 ? 2 : 3
    }
}
