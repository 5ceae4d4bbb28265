import EZCore
import Foundation
import Synchronization

/// Numbers, money, percentages and dates written the way a locale writes them, with integer
/// arithmetic only (money never passes through `Double`).
///
/// Covers the locales EZWallet ships (en, it, de, fr, es, pt, nl, ja, zh, ko, with regional variants
/// such as en_GB, de_CH, fr_CA) by its own rules; any other language CLDR knows (`sv_SE`, `pl_PL`,
/// `tr_TR`) by that locale's CLDR conventions (``CLDRConventions``) with English words, and a
/// language CLDR does not know as English. Spaces are plain ASCII spaces, so extracted PDF text and
/// tests see exactly what is printed.
///
/// ```swift
/// let it = LocaleFormat(locale: "it_IT")
/// it.money(123450, .eur)             // "1.234,50 €"
/// LocaleFormat(locale: "en_US").money(123450, try! Currency("USD"))   // "$1,234.50"
/// it.compactMoney(123450, .eur)      // "1,2k €"
/// it.monthLabel(CivilDate(year: 2026, month: 5, day: 1))  // "mag"
/// ```
package struct LocaleFormat: Hashable, Sendable {
    /// The normalised POSIX locale, e.g. `it_IT`.
    package let locale: String
    /// The language part, e.g. `it`.
    package let language: String
    /// The locale whose CLDR data formats this locale's dates and numbers when it has no
    /// conventions of its own (`tr_TR`, while ``locale`` says `en_TR`), for ``uppercased(_:)``;
    /// empty otherwise.
    let casingLocale: String
    /// The region part, e.g. `IT` (empty when none).
    package let region: String
    /// The decimal separator.
    package let decimalSeparator: String
    /// The grouping (thousands) separator.
    package let groupingSeparator: String
    /// Numbers below 10^minimumGroupingDigits+2 are not grouped (Spanish writes 1234 but 12.345).
    let minimumGroupingDigits: Int
    /// The size of every group left of the first three digits: 3, or 2 where numbers are grouped
    /// in lakhs and crores (India's `12,34,567`).
    let secondaryGroupingSize: Int
    /// Whether the currency symbol comes before the amount ("$1.00") or after it ("1,00 €").
    let symbolFirst: Bool
    /// Whether a space separates a leading symbol from the amount ("CHF 1.00", "€ 1,00").
    let spaceAfterLeadingSymbol: Bool
    /// Whether a space precedes the percent sign ("12,5 %").
    let spaceBeforePercent: Bool
    /// A language outside ``knownLanguages``: its CLDR conventions (its words are English).
    let cldr: CLDRConventions?

    /// A locale name's part after the language (`Hant_TW`, `TW`, `Latn`): its script subtag (four
    /// letters, capitalised) and its region (upper-cased), either empty when absent.
    static func scriptAndRegion(_ rest: String) -> (script: String, region: String) {
        let subtags = rest.split(separator: "_").map(String.init)
        guard let first = subtags.first, first.count == 4, first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            return ("", rest.uppercased())
        }
        return (first.prefix(1).uppercased() + first.dropFirst().lowercased(), subtags.dropFirst().joined(separator: "_").uppercased())
    }

    /// Formatting for a POSIX or BCP-47 locale name (`it_IT`, `it-IT`, `zh-Hant-TW`, `fr_FR.UTF-8`); unknown → English.
    package init(locale: String) {
        var name = locale
        if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = String(name[..<cut]) }
        name = String(name.map { $0 == "-" ? "_" : $0 })
        let parts = name.split(separator: "_", maxSplits: 1).map(String.init)
        var lang = parts.first?.lowercased() ?? "en"
        // A BCP-47 script subtag (`zh-Hant-TW`, `sr-Latn`) is read apart from the region: it was
        // taken for the region `HANT_TW`, and Taiwan's Chinese got Simplified 万 (outside
        // languages test). Traditional Chinese without a region is Taiwan's.
        let (script, regionPart) = Self.scriptAndRegion(parts.count > 1 ? parts[1] : "")
        var reg = regionPart
        if lang == "zh" && script == "Hant" && reg.isEmpty { reg = "TW" }
        let cldrName = [lang, script, reg].filter { !$0.isEmpty }.joined(separator: "_")
        let conventions = LocaleFormat.knownLanguages.contains(lang) || lang.isEmpty || !lang.allSatisfy({ $0.isASCII && $0.isLetter })
            ? nil : CLDRConventions.of(cldrName)
        cldr = conventions
        casingLocale = conventions == nil ? "" : cldrName
        if !LocaleFormat.knownLanguages.contains(lang) { lang = "en" }
        self.locale = reg.isEmpty ? lang : lang + "_" + reg
        self.language = lang
        self.region = reg

        var dec: String, grp: String
        switch lang {
        case "it", "de", "es", "pt", "nl": dec = ","; grp = "."
        case "fr": dec = ","; grp = " "
        default: dec = "."; grp = ","
        }
        if (reg == "CH" || (reg == "LI" && lang == "de")) && lang != "fr" { dec = "."; grp = "’" }
        if lang == "pt" && reg == "PT" { grp = " " }
        // Spanish as Mexico, the United States, Central America, the Caribbean and Peru write it
        // (CLDR): `US$2,990.51`, not Spain's `2990,51 US$`.
        let spanishWithDecimalPoint = lang == "es" && LocaleFormat.spanishDecimalPointRegions.contains(reg)
        if spanishWithDecimalPoint { dec = "."; grp = "," }
        // South America and Costa Rica keep Spain's decimal comma but group every number of four
        // digits and put the symbol first (CLDR): `US$ 2.990,51`, `$ 1.234,50`.
        let spanishSymbolFirstWithComma = lang == "es" && LocaleFormat.spanishSymbolFirstCommaRegions.contains(reg)
        var minimumGrouping = ((lang == "es" && !spanishWithDecimalPoint && !spanishSymbolFirstWithComma)
                               || (lang == "pt" && reg == "PT")) ? 2 : 1
        var first: Bool, space: Bool
        switch lang {
        case "es" where spanishWithDecimalPoint: first = true; space = false
        case "es" where spanishSymbolFirstWithComma: first = true; space = reg != "CL"
        case "en", "ja", "zh", "ko": first = true; space = false
        case "nl": first = true; space = true
        // CLDR: `CHF 1’234.50`, Austria's `€ 1.234,50`, Brazil's `R$ 1.234,50` (Portugal's `1234,50 €`).
        case "de", "it": first = reg == "CH" || (lang == "de" && (reg == "AT" || reg == "LI")); space = true
        case "pt": first = reg != "PT"; space = true
        default: first = false; space = true
        }
        // A space before the percent sign, as CLDR has it (`12,5 %` in Germany, France and Spain;
        // `12.5%` in Switzerland, Liechtenstein and Latin America; never in Dutch or Portuguese).
        var percentSpace: Bool
        switch lang {
        case "de": percentSpace = reg != "CH" && reg != "LI"
        case "fr": percentSpace = reg != "CH"
        case "es": percentSpace = reg.isEmpty || LocaleFormat.spanishPercentSpaceRegions.contains(reg)
        default: percentSpace = false
        }
        if let conventions {
            dec = conventions.decimalSeparator; grp = conventions.groupingSeparator
            minimumGrouping = conventions.minimumGroupingDigits
            first = conventions.symbolFirst; space = conventions.spaceAfterLeadingSymbol
            percentSpace = conventions.spaceBeforePercent
        }
        decimalSeparator = dec; groupingSeparator = grp
        minimumGroupingDigits = minimumGrouping
        // English as India writes it (CLDR's en_IN): `₹12,34,567.50`; other languages of India
        // come from CLDR with the rest of their conventions.
        secondaryGroupingSize = conventions?.secondaryGroupingSize ?? (lang == "en" && reg == "IN" ? 2 : 3)
        symbolFirst = first; spaceAfterLeadingSymbol = space
        spaceBeforePercent = percentSpace
    }

    static let knownLanguages: Set<String> = ["en", "it", "de", "fr", "es", "pt", "nl", "ja", "zh", "ko"]

    /// Where Spanish writes a decimal point and groups with commas (CLDR's es_MX, es_US, es_419's
    /// Central American and Caribbean members, es_PE); elsewhere it writes Spain's comma.
    static let spanishDecimalPointRegions: Set<String> = ["MX", "US", "419", "GT", "HN", "NI", "PA", "PR", "SV", "DO", "PE", "CU"]

    /// Where Spanish writes a decimal comma as Spain does, but the symbol first and every
    /// four-digit number grouped (CLDR's es_AR, es_BO, es_CL, es_CO, es_CR, es_EC, es_PY, es_UY,
    /// es_VE).
    static let spanishSymbolFirstCommaRegions: Set<String> = ["AR", "BO", "CL", "CO", "CR", "EC", "PY", "UY", "VE"]

    /// Where Spanish writes a space before the percent sign (CLDR: Spain and its African regions,
    /// Equatorial Guinea, the Philippines); Latin America writes `12,5%` or `12.5%`.
    static let spanishPercentSpaceRegions: Set<String> = ["ES", "EA", "IC", "GQ", "PH"]

    // MARK: - Numbers

    /// An integer with grouping separators: `1.234.567` (it), `1,234,567` (en), `12,34,567` (en_IN).
    package func integer(_ value: Int64) -> String {
        (value < 0 ? "-" : "") + grouped(value.magnitude)
    }

    /// `scaled / 10^fractionDigits` written with exactly `fractionDigits` decimals: `decimal(12345, 2)` → "123,45".
    package func decimal(_ scaled: Int64, fractionDigits: Int) -> String {
        (scaled < 0 ? "-" : "") + unsignedDecimal(scaled.magnitude, fractionDigits: fractionDigits)
    }

    func unsignedDecimal<Magnitude: UnsignedInteger>(_ magnitude: Magnitude, fractionDigits: Int) -> String {
        guard fractionDigits > 0 else { return grouped(magnitude) }
        let divisor = Magnitude(LocaleFormat.pow10(fractionDigits))
        var frac = String(magnitude % divisor)
        while frac.count < fractionDigits { frac = "0" + frac }
        return grouped(magnitude / divisor) + decimalSeparator + frac
    }

    func grouped<Magnitude: UnsignedInteger>(_ v: Magnitude) -> String {
        let digits = String(v)
        if digits.count < 4 + minimumGroupingDigits - 1 { return digits }
        var out = ""
        out.reserveCapacity(digits.count + digits.count / 2 * groupingSeparator.utf8.count)
        for (i, ch) in digits.enumerated() {
            // Digits left of position i: a separator after the first three, then every group's size.
            let right = digits.count - i
            if i > 0 && right >= 3 && (right - 3) % secondaryGroupingSize == 0 { out += groupingSeparator }
            out.append(ch)
        }
        return out
    }

    static func pow10(_ n: Int) -> UInt64 {
        var v: UInt64 = 1
        for _ in 0..<n { v *= 10 }
        return v
    }

    // MARK: - Money

    /// An amount of minor units in full: `1.234,50 €` (it_IT), `$1,234.50` (en_US), `¥1,500` (ja_JP),
    /// `1 234,50 €` (fr_FR), `CHF 1’234.50` (de_CH). Negative amounts lead with '-'.
    package func money(_ minor: Int64, _ currency: Currency) -> String {
        let number = unsignedDecimal(minor.magnitude, fractionDigits: currency.exponent)
        return attach(number, negative: minor < 0, currency)
    }

    /// A short amount for axis labels and tight spaces: `1,2k €`, `$1.2k`, `$3.5M`.
    ///
    /// The unit (none, k, M, B) is chosen from `scaleReference` (default: the amount itself), so every
    /// label of an axis uses the same unit; `fractionDigits` decimals of that unit are kept (default:
    /// up to one, dropped when zero). Rounds half-to-even with integer arithmetic. An amount
    /// given alone (no reference, no digits) that would round to 0 is written in full instead.
    package func compactMoney(_ minor: Int64, _ currency: Currency, scaleReference: Int64? = nil,
                             fractionDigits: Int? = nil) -> String {
        compactMoney(wide: Int128(minor), currency, scaleReference: scaleReference.map { Int128($0) }, fractionDigits: fractionDigits)
    }

    /// ``compactMoney(_:_:scaleReference:fractionDigits:)`` in 128 bits, for an axis's tick, which may lie past
    /// the 64-bit range (the nice tick above money near `Int64.max`).
    package func compactMoney(wide minor: Int128, _ currency: Currency, scaleReference: Int128? = nil,
                             fractionDigits: Int? = nil) -> String {
        if minor == 0 { return attach("0", negative: false, currency) }
        let ref = (scaleReference ?? minor).magnitude / UInt128(currency.minorPerMajor)
        let unit = compactUnit(forMajor: ref)
        let (divisorMajor, suffix) = (unit?.major ?? 1, unit?.suffix ?? "")
        let divisor = divisorMajor * UInt128(currency.minorPerMajor)
        var digits = fractionDigits ?? (suffix.isEmpty ? 0 : 1)
        digits = max(0, min(digits, 6))
        let scaled = LocaleFormat.divideHalfEven(minor.magnitude * UInt128(LocaleFormat.pow10(digits)), divisor)
        // An amount standing alone is never shown as 0 when it is not: under half a unit
        // (KWD 0.250, €0.30), the short form is the full amount.
        if scaled == 0 && scaleReference == nil && fractionDigits == nil { return money(Int64(minor), currency) }
        var number = unsignedDecimal(scaled, fractionDigits: digits)
        if fractionDigits == nil && digits > 0 && scaled % UInt128(LocaleFormat.pow10(digits)) == 0 {
            number = grouped(scaled / UInt128(LocaleFormat.pow10(digits)))
        }
        return attach(number + suffix, negative: minor < 0 && scaled != 0, currency)
    }

    /// One unit of the short forms: how many major units it stands for, and what follows the number.
    struct CompactUnit: Sendable {
        let major: UInt128
        let suffix: String
    }

    /// The compact units in the locale's language, largest first, after CLDR's short compact
    /// decimal formats: `1,2 Tsd. €` and `3,5 Mio. €` in German, `1,2 k €` and `3,5 Md €` in
    /// French, `1,2 mil €` in Spanish and Portuguese, `3,5 Mln €` in Italian (which keeps `k` for
    /// thousands, where CLDR has no abbreviation), `1,5K` and `3,5 mln.` in Dutch. Japanese,
    /// Chinese and Korean count in myriads: `¥2.5万`, `¥3億` (Japanese writes thousands in full),
    /// `2.5亿` in Simplified and `2.5萬` in Traditional Chinese, `₩15만`, `1.5천` in Korean. English
    /// keeps `k`, `M`, `B` (as do Hong Kong's and Macao's Chinese, as CLDR has them); English in
    /// India counts in lakhs and crores (`₹2.5L`, `₹3.5Cr`), as do the languages of India; every
    /// other language CLDR knows takes CLDR's own short forms (``CLDRConventions/compactSuffixes``:
    /// `2,5 mln zł` in Polish, `ریال 128 میلیون` in Persian), and `k`, `M`, `B` where it has none.
    var compactScale: [CompactUnit] {
        func units(_ list: (UInt128, String)...) -> [CompactUnit] { list.map { CompactUnit(major: $0.0, suffix: $0.1) } }
        let k: UInt128 = 1_000, myriad: UInt128 = 10_000
        switch language {
        case "de": return units((1_000_000_000, " Mrd."), (1_000_000, " Mio."), (k, " Tsd."))
        case "fr": return units((1_000_000_000, " Md"), (1_000_000, " M"), (k, " k"))
        case "es": return units((1_000_000_000, " mil M"), (1_000_000, " M"), (k, " mil"))
        case "it": return units((1_000_000_000, " Mrd"), (1_000_000, " Mln"), (k, "k"))
        case "pt" where region == "PT": return units((1_000_000_000, " mM"), (1_000_000, " M"), (k, " mil"))
        case "pt": return units((1_000_000_000, " bi"), (1_000_000, " mi"), (k, " mil"))
        case "nl": return units((1_000_000_000, " mld."), (1_000_000, " mln."), (k, "K"))
        case "ja": return units((myriad * myriad * myriad, "兆"), (myriad * myriad, "億"), (myriad, "万"))
        case "zh" where region == "TW": return units((myriad * myriad * myriad, "兆"), (myriad * myriad, "億"), (myriad, "萬"))
        case "zh" where region != "HK" && region != "MO":
            return units((myriad * myriad * myriad, "万亿"), (myriad * myriad, "亿"), (myriad, "万"))
        case "ko": return units((myriad * myriad * myriad, "조"), (myriad * myriad, "억"), (myriad, "만"), (k, "천"))
        case "en" where region == "IN": return units((10_000_000, "Cr"), (100_000, "L"), (k, "k"))
        default:
            // Another language CLDR knows: its own short forms (Polish ` tys.`, Persian ` میلیون`).
            if let s = cldr?.compactSuffixes, s.count == 3 { return units((1_000_000_000, s[0]), (1_000_000, s[1]), (k, s[2])) }
            return units((1_000_000_000, "B"), (1_000_000, "M"), (k, "k"))
        }
    }

    /// The largest compact unit that `major` (a magnitude in major units) reaches; nil below the
    /// smallest, where amounts are written in full.
    func compactUnit(forMajor major: UInt128) -> CompactUnit? {
        compactScale.first { major >= $0.major }
    }

    /// The divisor in minor units of the compact unit (none, k, M, B; 万, 億…) chosen for
    /// `reference` in this locale: an axis's labels all use it.
    package func compactDivisor(forMinor reference: Int128, _ currency: Currency) -> Int128 {
        let major = reference.magnitude / UInt128(currency.minorPerMajor)
        return Int128(compactUnit(forMajor: major)?.major ?? 1) * Int128(currency.minorPerMajor)
    }

    static func divideHalfEven(_ n: UInt128, _ d: UInt128) -> UInt128 {
        var q = n / d
        let r = n % d
        if r * 2 > d || (r * 2 == d && q % 2 == 1) { q += 1 }
        return q
    }

    /// Puts the currency symbol and sign around an already formatted number.
    func attach(_ number: String, negative: Bool, _ currency: Currency) -> String {
        let symbol = self.symbol(for: currency)
        let sign = negative ? "-" : ""
        let isCode = symbol.count == 3 && symbol.allSatisfy { $0.isASCII && $0.isUppercase }
        if symbolFirst {
            let space = spaceAfterLeadingSymbol || isCode ? " " : ""
            return sign + symbol + space + number
        }
        return sign + number + (cldr?.spaceBeforeTrailingSymbol == false && !isCode ? "" : " ") + symbol
    }

    /// The symbol written for `currency` in this locale ("€", "$", "US$", "CHF", or the ISO code).
    package func symbol(for currency: Currency) -> String {
        if let cldr { return cldr.symbol(for: currency.code) }
        switch currency.code {
        case "EUR": return "€"
        case "GBP": return "£"
        case "JPY": return language == "ja" || language == "en" ? "¥" : "JPY"
        case "CNY": return language == "zh" ? "¥" : "CN¥"
        case "KRW": return "₩"
        case "INR": return "₹"
        case "USD":
            if region == "US" || (region.isEmpty && language == "en") { return "$" }
            return ["en", "es", "pt", "zh", "ja", "ko"].contains(language) ? "US$" : "USD"
        case "CAD": return region == "CA" ? "$" : (language == "en" ? "CA$" : "CAD")
        case "AUD": return region == "AU" ? "$" : (language == "en" ? "A$" : "AUD")
        case "BRL": return "R$"
        case "MXN": return region == "MX" ? "$" : (language == "en" ? "MX$" : "MXN")
        // CLDR's: Taiwan writes its dollar `$` (it read `TWD 97,803.56`: outside languages test).
        case "TWD": return region == "TW" ? "$" : (language == "en" || language == "zh" ? "NT$" : "TWD")
        case "HKD": return region == "HK" ? "HK$" : (language == "en" || language == "zh" ? "HK$" : "HKD")
        default: return currency.code
        }
    }

    // MARK: - Percent

    /// A percentage with one decimal: `12.5%` (en), `12,5%` (it), `12,5 %` (de, fr).
    package func percent(_ p: Percent) -> String {
        withPercentSign(decimal(p.tenths, fractionDigits: 1))
    }

    /// `number` with the locale's percent sign: `12,5 %`, `12.5%`, or before it in Turkish (`%12,5`).
    private func withPercentSign(_ number: String) -> String {
        if cldr?.percentFirst == true {
            return number.hasPrefix("-") ? "-%" + number.dropFirst() : "%" + number
        }
        return number + (spaceBeforePercent ? " %" : "%")
    }

    /// A whole percentage (rounded half-to-even): `13%`, `13 %`; for tight chart labels.
    package func wholePercent(_ p: Percent) -> String {
        let whole = Int64(LocaleFormat.divideHalfEven(UInt128(p.tenths.magnitude), 10))
        return withPercentSign((p.tenths < 0 && whole != 0 ? "-" : "") + String(whole))
    }

    // MARK: - Dates

    /// A date in the locale's medium form: `Mar 31, 2026` (en_US), `31 Mar 2026` (en_GB),
    /// `31 mar 2026` (it), `31.03.2026` (de), `31 mars 2026` (fr), `2026/03/31` (ja).
    ///
    /// A date with right-to-left month names (Arabic, Persian, Hebrew) is a bidirectional isolate
    /// (``InlineText/isolated(_:)``): set in a left-to-right English line, its numbers were
    /// reordered around the month ("1 2026 ،31 أكتوبر، 2026 – أكتوبر،"), and no reader could tell
    /// which day went with which month.
    package func date(_ d: CivilDate) -> String {
        let (y, m, day) = d.components
        if let cldr { return InlineText.isolated(cldr.write(cldr.datePattern, year: y, month: m, day: day)) }
        let mon = monthAbbreviation(m)
        switch language {
        case "en":
            return region == "US" || region.isEmpty ? "\(mon) \(day), \(y)" : "\(day) \(mon) \(y)"
        case "de": return "\(LocaleFormat.two(day)).\(LocaleFormat.two(m)).\(y)"
        case "pt": return "\(LocaleFormat.two(day))/\(LocaleFormat.two(m))/\(y)"
        case "ja": return "\(y)/\(LocaleFormat.two(m))/\(LocaleFormat.two(day))"
        case "zh": return "\(y)年\(m)月\(day)日"
        case "ko": return "\(y). \(m). \(day)."
        default: return "\(day) \(mon) \(y)"
        }
    }

    /// An inclusive range of dates, the year written once when both dates share it:
    /// `25 Sep – 24 Oct 2026` (en_GB, it, fr, es), `Sep 25 – Oct 24, 2026` (en_US),
    /// `25.09. – 24.10.2026` (de); both dates in full otherwise (and in ja, zh, ko, pt).
    package func dateRange(_ start: CivilDate, _ end: CivilDate) -> String {
        let (y1, m1, d1) = start.components
        guard y1 == end.year, cldr == nil else { return date(start) + " – " + date(end) }
        switch language {
        case "en" where region == "US" || region.isEmpty: return "\(monthAbbreviation(m1)) \(d1) – " + date(end)
        case "de": return "\(LocaleFormat.two(d1)).\(LocaleFormat.two(m1)). – " + date(end)
        case "ja", "zh", "ko", "pt": return date(start) + " – " + date(end)
        default: return "\(d1) \(monthAbbreviation(m1)) – " + date(end)
        }
    }

    /// How a month period is named on a page: `Oct 2026` for a calendar month; for a month that
    /// starts on another day (a user paid on the 25th) its dates, `25 Sep – 24 Oct 2026`, since
    /// "Oct 2026" alone would say the wrong days.
    package func monthPeriodLabel(_ period: Period) -> String {
        period.monthStartDay == 1 ? monthYearLabel(period.start) : dateRange(period.start, period.end)
    }

    /// How any report period is named for a person, in the locale's words: a month as
    /// ``monthPeriodLabel(_:)``; a year as `2026`; a quarter with CLDR's quarter names (through
    /// Foundation's `DateFormatter`): `3rd quarter 2026`, `3. Quartal 2026`, `3e trimestre 2026`,
    /// `2026年第3四半期`; a day as its date; a week or a range of dates as its dates
    /// (`28 Sep – 4 Oct 2026`). Never the machine's name (`2026-Q3`, `2026-W40`).
    package func periodLabel(_ period: Period) -> String {
        switch period.kind {
        case .month: return monthPeriodLabel(period)
        case .year: return String(period.start.year)
        case .day: return date(period.start)
        case .week, .range: return dateRange(period.start, period.end)
        case .quarter: return quarterName(period, template: "QQQQy")
        }
    }

    /// A quarter's short name for a crowded column header, in CLDR's abbreviated form: `Q3 2026`,
    /// `T3 2026` (fr, it, es), `2026/Q3` (ja).
    package func quarterShortLabel(_ period: Period) -> String { quarterName(period, template: "QQQy") }

    /// A quarter named by CLDR through Foundation's `DateFormatter`, from a date template.
    private func quarterName(_ period: Period, template: String) -> String {
        let formatter = DateFormatter()
        // Gregorian, as every date of a statement: Iran's region named 2026's third quarter "2nd
        // quarter 1405 AP" (and with only the calendar set, "3rd quarter 2026 AD").
        formatter.locale = Locale(identifier: locale + "@calendar=gregorian")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.setLocalizedDateFormatFromTemplate(template)
        return InlineText.isolated(formatter.string(from: Date(timeIntervalSince1970: Double(period.start.dayNumber) * 86_400 + 43_200)))
    }

    /// Whether ``periodLabel(_:)`` already gives the period's dates (a week, a range, a day, a
    /// month from payday), so that a sentence need not repeat them.
    package func periodLabelShowsDates(_ period: Period) -> Bool {
        switch period.kind {
        case .week, .range, .day: return true
        case .month: return period.monthStartDay != 1
        case .year, .quarter: return false
        }
    }

    /// A month's short name for axis labels: `Mar` (en), `mar` (it), `Mär` (de), `mars` (fr), `3月` (ja).
    package func monthLabel(_ d: CivilDate) -> String { monthAbbreviation(d.month) }

    /// A month with its year: `Mar 2026`, `mar 2026`, `2026年3月`.
    package func monthYearLabel(_ d: CivilDate) -> String {
        if let cldr { return InlineText.isolated(cldr.write(cldr.monthYearPattern, year: d.year, month: d.month, day: d.day)) }
        switch language {
        case "ja", "zh": return "\(d.year)年\(d.month)月"
        case "ko": return "\(d.year)년 \(d.month)월"
        default: return "\(monthAbbreviation(d.month)) \(d.year)"
        }
    }

    /// The abbreviated stand-alone name of month `m` (1…12), from the locale data (CLDR, through
    /// Foundation's `DateFormatter`): `Mar`, `mar`, `Mär`, `mars`, `3月`.
    package func monthAbbreviation(_ m: Int) -> String {
        let i = max(1, min(12, m)) - 1
        if let cldr { return cldr.shortStandaloneMonths[i] }
        return LocaleFormat.monthNames(language)[i]
    }

    /// CLDR's short stand-alone month names of `language` (one of ``knownLanguages``), read from
    /// ICU the first time a language is asked for: a statement needs one language, and creating
    /// ICU's date formatter for all ten cost ~4 ms of every export's start.
    static func monthNames(_ language: String) -> [String] {
        if let known = monthNameCache.withLock({ $0[language] }) { return known }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: language)
        let read: [String] = formatter.shortStandaloneMonthSymbols
        let names = read.count == 12 ? read : englishMonths
        monthNameCache.withLock { $0[language] = names }
        return names
    }

    private static let monthNameCache = Mutex<[String: [String]]>([:])
    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : String(v) }
}

extension LocaleFormat {
    /// `text`, formatted in this locale (a month name, a date), in capitals by this locale's
    /// rules: Turkish and Azerbaijani capitalise `i` as `İ` ("eki 2026" is "EKİ 2026", not "EKI").
    /// Not for the catalog's words, which are in the catalog's language (English for a locale
    /// without one, whose "categories" must not become "CATEGORİES").
    package func uppercased(_ text: String) -> String {
        text.uppercased(with: Locale(identifier: casingLocale.isEmpty ? locale : casingLocale))
    }
}
