import EZCore
@testable import EZLocale
import XCTest

/// Money, percent and date text per locale.
final class LocaleFormatTests: XCTestCase {
    let usd = try! Currency("USD"), jpy = try! Currency("JPY"), gbp = try! Currency("GBP"), chf = try! Currency("CHF")

    func testMoneyIsWrittenAsEachLocaleWritesIt() {
        XCTAssertEqual(LocaleFormat(locale: "it_IT").money(123450, .eur), "1.234,50 €")
        XCTAssertEqual(LocaleFormat(locale: "en_US").money(123450, usd), "$1,234.50")
        XCTAssertEqual(LocaleFormat(locale: "ja_JP").money(1500, jpy), "¥1,500")
        XCTAssertEqual(LocaleFormat(locale: "fr_FR").money(123450, .eur), "1 234,50 €")
        XCTAssertEqual(LocaleFormat(locale: "en_GB").money(123450, gbp), "£1,234.50")
        XCTAssertEqual(LocaleFormat(locale: "de_DE").money(-123450, .eur), "-1.234,50 €")
        XCTAssertEqual(LocaleFormat(locale: "de_CH").money(123450, chf), "CHF 1’234.50")
        XCTAssertEqual(LocaleFormat(locale: "en_US").money(-5, usd), "-$0.05")
        XCTAssertEqual(LocaleFormat(locale: "es_ES").money(123450, .eur), "1234,50 €", "Spanish groups from five digits")
        XCTAssertEqual(LocaleFormat(locale: "es_ES").money(1234550, .eur), "12.345,50 €")
        XCTAssertEqual(LocaleFormat(locale: "it-IT").money(100, .eur), "1,00 €", "BCP-47 names are accepted")
        XCTAssertEqual(LocaleFormat(locale: "en_US").money(Int64.max, usd), "$92,233,720,368,547,758.07")
    }

    func testCompactMoneyForAxes() {
        let it = LocaleFormat(locale: "it_IT"), en = LocaleFormat(locale: "en_US")
        XCTAssertEqual(it.compactMoney(123450, .eur), "1,2k €")
        // Mexico writes a decimal point and groups with commas; Spain a comma (and no group of four digits).
        let usd = try! Currency("USD")
        XCTAssertEqual(LocaleFormat(locale: "es_MX").money(299051, usd), "US$2,990.51")
        XCTAssertEqual(LocaleFormat(locale: "es_MX").money(123456, .eur), "€1,234.56")
        XCTAssertEqual(LocaleFormat(locale: "es_ES").money(123456, .eur), "1234,56 €")
        // South America keeps the comma but writes the symbol first and groups four digits (CLDR).
        XCTAssertEqual(LocaleFormat(locale: "es_AR").money(299051, usd), "US$ 2.990,51")
        XCTAssertEqual(LocaleFormat(locale: "es_CO").money(123456, usd), "US$ 1.234,56")
        XCTAssertEqual(LocaleFormat(locale: "es_CL").money(123456, usd), "US$1.234,56")
        XCTAssertEqual(LocaleFormat(locale: "es_AR").decimal(123456, fractionDigits: 2), "1.234,56")
        // German, French and Spanish readers get their own abbreviations (CLDR's short compact forms).
        XCTAssertEqual(LocaleFormat(locale: "de_DE").compactMoney(123450, .eur), "1,2 Tsd. €")
        XCTAssertEqual(LocaleFormat(locale: "de_DE").compactMoney(350_000_000, .eur), "3,5 Mio. €")
        XCTAssertEqual(LocaleFormat(locale: "fr_FR").compactMoney(350_000_000_000, .eur), "3,5 Md €")
        XCTAssertEqual(LocaleFormat(locale: "es_ES").compactMoney(123450, .eur), "1,2 mil €")
        // An amount under half a unit is not written as 0: a doughnut's total of KWD 0.250 read "KWD 0".
        XCTAssertEqual(LocaleFormat(locale: "en_US").compactMoney(250, try! Currency("KWD")), "KWD 0.250")
        XCTAssertEqual(it.compactMoney(30, .eur), "0,30 €")
        XCTAssertEqual(it.compactMoney(-49, .eur), "-0,49 €")
        XCTAssertEqual(it.compactMoney(60, .eur), "1 €", "from half a unit on, the short form rounds as before")
        XCTAssertEqual(it.compactMoney(30, .eur, scaleReference: 100_000), "0k €", "an axis's unit and rounding are kept")
        XCTAssertEqual(LocaleFormat(locale: "it_IT").compactMoney(350_000_000, .eur), "3,5 Mln €")
        XCTAssertEqual(en.compactMoney(123450, usd), "$1.2k")
        XCTAssertEqual(en.compactMoney(350_000_000, usd), "$3.5M")
        XCTAssertEqual(en.compactMoney(0, usd), "$0")
        XCTAssertEqual(en.compactMoney(125_000, usd, scaleReference: 150_000, fractionDigits: 2), "$1.25k")
        XCTAssertEqual(en.compactMoney(-50_000, usd), "-$500")
    }

    /// Japanese, Chinese and Korean count large amounts in myriads (万 = 10^4, 億/亿 = 10^8), as
    /// ICU's compact forms (CLDR) write them; a Japanese chart axis read `¥25k` for 2.5万.
    /// Portuguese and Dutch get their own abbreviations too.
    func testCompactMoneyCountsInMyriadsInJapaneseChineseAndKorean() throws {
        let jpy = try Currency("JPY"), krw = try Currency("KRW"), cny = try Currency("CNY")
        let ja = LocaleFormat(locale: "ja_JP")
        XCTAssertEqual(ja.compactMoney(25_000, jpy), "¥2.5万")
        XCTAssertEqual(ja.compactMoney(3_500_000, jpy), "¥350万")
        XCTAssertEqual(ja.compactMoney(250_000_000, jpy), "¥2.5億")
        XCTAssertEqual(ja.compactMoney(4_000_000_000_000, jpy), "¥4兆")
        XCTAssertEqual(ja.compactMoney(5_000, jpy), "¥5,000", "Japanese writes thousands in full")
        XCTAssertEqual(LocaleFormat(locale: "zh_CN").compactMoney(25_000_00, cny), "¥2.5万")
        XCTAssertEqual(LocaleFormat(locale: "zh_CN").compactMoney(250_000_000_00, cny), "¥2.5亿")
        XCTAssertEqual(LocaleFormat(locale: "zh_TW").compactMoney(25_000_00, cny), "¥2.5萬")
        XCTAssertEqual(LocaleFormat(locale: "zh_HK").compactMoney(25_000_00, cny), "¥25k", "as CLDR has Hong Kong")
        let ko = LocaleFormat(locale: "ko_KR")
        XCTAssertEqual(ko.compactMoney(150_000, krw).hasSuffix("15만"), true, ko.compactMoney(150_000, krw))
        XCTAssertEqual(ko.compactMoney(1_500, krw).hasSuffix("1.5천"), true, ko.compactMoney(1_500, krw))
        XCTAssertEqual(LocaleFormat(locale: "pt_BR").compactMoney(350_000_000, .eur).contains("3,5 mi"), true)
        XCTAssertEqual(LocaleFormat(locale: "nl_NL").compactMoney(150_000, .eur).contains("1,5K"), true)
        // An axis's labels share the locale's unit: 0 … ¥60,000 in steps of ¥10,000.
        XCTAssertEqual(ja.compactDivisor(forMinor: 60_000, jpy), 10_000)
        XCTAssertEqual(ja.compactDivisor(forMinor: 6_000, jpy), 1)
        XCTAssertEqual(LocaleFormat(locale: "en_US").compactDivisor(forMinor: 6_000_00, .eur), 1_000_00)
    }

    func testPercentAndDatesPerLocale() {
        XCTAssertEqual(LocaleFormat(locale: "en_US").percent(Percent(tenths: 125)), "12.5%")
        XCTAssertEqual(LocaleFormat(locale: "it_IT").percent(Percent(tenths: 125)), "12,5%")
        XCTAssertEqual(LocaleFormat(locale: "fr_FR").percent(Percent(tenths: -3)), "-0,3 %")
        let d = CivilDate(year: 2026, month: 3, day: 31)
        XCTAssertEqual(LocaleFormat(locale: "en_US").date(d), "Mar 31, 2026")
        XCTAssertEqual(LocaleFormat(locale: "en_GB").date(d), "31 Mar 2026")
        XCTAssertEqual(LocaleFormat(locale: "it_IT").date(d), "31 mar 2026")
        XCTAssertEqual(LocaleFormat(locale: "de_DE").date(d), "31.03.2026")
        XCTAssertEqual(LocaleFormat(locale: "fr_FR").date(d), "31 mars 2026")
        XCTAssertEqual(LocaleFormat(locale: "ja_JP").date(d), "2026/03/31")
        let may = CivilDate(year: 2026, month: 5, day: 1)
        XCTAssertEqual(["en_US", "it_IT", "de_DE", "fr_FR", "es_ES", "ja_JP"].map { LocaleFormat(locale: $0).monthLabel(may) },
                       ["May", "mag", "Mai", "mai", "may", "5月"])
    }

    /// The space before the percent sign follows CLDR, read here from ICU (an independent
    /// oracle): a Swiss German reader writes `12.5%`, a Dutch, Portuguese or Mexican one `12,5%` /
    /// `12.5%`, a German, French or Spanish one `12,5 %`.
    func testThePercentSignsSpaceFollowsCLDRForEveryShippedLanguage() {
        let locales = ["de_DE", "de_AT", "de_CH", "de_LI", "fr_FR", "fr_CA", "fr_CH", "fr_BE", "es_ES", "es_MX", "es_AR",
                       "es_CO", "it_IT", "it_CH", "nl_NL", "nl_BE", "pt_PT", "pt_BR", "en_US", "en_GB", "ja_JP", "zh_CN", "ko_KR"]
        for id in locales {
            let icu = NumberFormatter()
            icu.locale = Locale(identifier: id + "@numbers=latn")
            icu.numberStyle = .percent
            icu.minimumFractionDigits = 1
            let expected = icu.string(from: 0.125)!.replacingOccurrences(of: "\u{00A0}", with: " ")
                .replacingOccurrences(of: "\u{202F}", with: " ")
            XCTAssertEqual(LocaleFormat(locale: id).percent(Percent(tenths: 125)), expected, id)
        }
        XCTAssertEqual(LocaleFormat(locale: "de_LI").money(123450, try! Currency("CHF")), "CHF 1’234.50", "as in Switzerland")
    }

    /// A language without a catalog gets English words but its own figures, as CLDR writes them
    /// (they were English: `SEK 123,456.78`, `1 Oct 2026` for a Swede), in Latin digits and plain spaces.
    func testALanguageWithoutACatalogWritesFiguresAsCLDRDoes() throws {
        let oct = CivilDate(year: 2026, month: 10, day: 1)
        let sv = LocaleFormat(locale: "sv_SE")
        XCTAssertEqual(sv.language, "en", "the words stay English")
        XCTAssertEqual(sv.money(12_345_678, try Currency("SEK")), "123 456,78 kr")
        XCTAssertEqual(sv.percent(Percent(tenths: 125)), "12,5 %")
        XCTAssertEqual(sv.date(oct), "1 okt. 2026")
        XCTAssertEqual(sv.dateRange(oct, CivilDate(year: 2026, month: 10, day: 31)), "1 okt. 2026 – 31 okt. 2026")
        let pl = LocaleFormat(locale: "pl_PL")
        XCTAssertEqual(pl.money(123_450, try Currency("PLN")), "1234,50 zł", "Polish leaves four digits ungrouped")
        XCTAssertEqual(pl.money(1_234_550, try Currency("PLN")), "12 345,50 zł")
        let tr = LocaleFormat(locale: "tr_TR")
        XCTAssertEqual(tr.percent(Percent(tenths: 125)), "%12,5", "Turkish writes the sign first")
        XCTAssertEqual(tr.percent(Percent(tenths: -125)), "-%12,5")
        XCTAssertEqual(tr.wholePercent(Percent(tenths: 333)), "%33")
        XCTAssertEqual(tr.money(250_075, try Currency("TRY")), "₺2.500,75")
        XCTAssertEqual(LocaleFormat(locale: "ru_RU").monthYearLabel(oct), "окт. 2026 г.")
        // Arabic figures in Latin digits, with no bidirectional marks in the text.
        let ar = LocaleFormat(locale: "ar_EG").money(250_075, .eur)
        XCTAssertTrue(ar.contains("2,500.75") || ar.contains("2.500,75"), ar)
        XCTAssertFalse(ar.unicodeScalars.contains { [0x200E, 0x200F, 0x061C].contains($0.value) }, ar)
        // A language CLDR does not know is written as English.
        XCTAssertEqual(LocaleFormat(locale: "xx_YY").money(123_450, .eur), "€1,234.50")
        XCTAssertEqual(LocaleFormat(locale: "xx_YY").date(oct), "1 Oct 2026")
    }

    /// India groups in lakhs and crores past the first three digits (CLDR's `#,##,##0.###`):
    /// `₹12,34,567.50`, where English everywhere else writes `1,234,567.50`. It was written as
    /// `₹1,234,567.50` for an en_IN user; Hindi and Bengali (read from CLDR) also lost the pattern.
    func testIndiaGroupsInLakhsAndCrores() throws {
        let inr = try Currency("INR")
        let en = LocaleFormat(locale: "en_IN")
        XCTAssertEqual(en.money(123_456_750, inr), "₹12,34,567.50")
        XCTAssertEqual(en.money(-1_234_567_890_100, inr), "-₹12,34,56,78,901.00")
        XCTAssertEqual(en.money(99_999_00, inr), "₹99,999.00")
        XCTAssertEqual(en.money(1_000_000_00, inr), "₹10,00,000.00")
        XCTAssertEqual(en.integer(1_234), "1,234")
        XCTAssertEqual(en.compactMoney(250_000_00, inr), "₹2.5L")
        XCTAssertEqual(en.compactMoney(35_000_000_00, inr), "₹3.5Cr")
        XCTAssertEqual(en.compactMoney(1_500_00, inr), "₹1.5k")
        XCTAssertEqual(LocaleFormat(locale: "en_US").money(123_456_750, inr), "₹1,234,567.50")
        XCTAssertEqual(LocaleFormat(locale: "en_GB").integer(1_234_567), "1,234,567")
        // ICU as the oracle: every integer of these locales grouped as it groups it.
        for id in ["en_IN", "hi_IN", "bn_IN", "ta_IN", "en_US", "de_DE", "sv_SE"] {
            let format = LocaleFormat(locale: id)
            let icu = Locale(identifier: id + "@numbers=latn")
            for value in [1, 12, 123, 1_234, 12_345, 123_456, 1_234_567, 12_345_678, 123_456_789, 1_234_567_890_123] as [Int64] {
                // The digit runs between separators, whatever the separator character is.
                let expected = Self.digitRuns(value.formatted(.number.locale(icu)))
                XCTAssertEqual(Self.digitRuns(format.integer(value)), expected, "\(id) \(value): \(format.integer(value))")
            }
        }
    }

    /// The runs of digits in `text`: `12,34,567` → `["12", "34", "567"]`.
    static func digitRuns(_ text: String) -> [String] {
        text.split { !("0"..."9").contains($0) }.map(String.init)
    }

    /// Dates are Gregorian in every language: Persian's and Saudi Arabic's own calendars named
    /// October 2026 "دی" and "شوال" beside the Gregorian day and year.
    func testMonthsAreGregorianInLanguagesWhoseDefaultCalendarIsAnother() throws {
        let oct = CivilDate(year: 2026, month: 10, day: 1)
        let gregorianOctober = ["fa_IR": "اکتبر", "ar_SA": "أكتوبر"]
        for (locale, october) in gregorianOctober {
            let format = LocaleFormat(locale: locale)
            XCTAssertTrue(format.monthYearLabel(oct).contains(october), "\(locale): \(format.monthYearLabel(oct))")
            XCTAssertTrue(format.date(oct).contains(october) && format.date(oct).contains("2026"), "\(locale): \(format.date(oct))")
            XCTAssertFalse(format.monthYearLabel(oct).contains("دی") || format.monthYearLabel(oct).contains("شوال"), locale)
        }
    }

    /// A date with right-to-left month names is one bidirectional isolate: set in a left-to-right
    /// line, "1 أكتوبر 2026 – 31 أكتوبر 2026" came out as "1 2026 ،31 أكتوبر، 2026 – أكتوبر،"
    /// (outside review). Dates of left-to-right languages are left as they were.
    func testADateInARightToLeftLanguageIsIsolatedFromTheLineAroundIt() throws {
        let oct = CivilDate(year: 2026, month: 10, day: 1), end = CivilDate(year: 2026, month: 10, day: 31)
        for locale in ["ar_EG", "fa_IR", "he_IL"] {
            let format = LocaleFormat(locale: locale)
            for text in [format.date(oct), format.monthYearLabel(oct)] {
                XCTAssertTrue(text.hasPrefix("\u{2068}") && text.hasSuffix("\u{2069}"), "\(locale): \(text.debugDescription)")
                XCTAssertEqual(text.unicodeScalars.filter { $0.value == 0x2068 }.count, 1, locale)
            }
            let range = format.dateRange(oct, end)
            XCTAssertEqual(range, format.date(oct) + " – " + format.date(end), "each date isolated on its own: \(locale)")
        }
        for locale in ["en_US", "de_DE", "sv_SE", "ja_JP"] {
            XCTAssertFalse(LocaleFormat(locale: locale).date(oct).unicodeScalars.contains { (0x2066...0x2069).contains($0.value) }, locale)
        }
    }

    /// A quarter is named in the Gregorian calendar too: Iran's region gave the Persian one,
    /// "2nd quarter 1405 AP" for July to September 2026.
    func testAQuarterIsNamedInTheGregorianCalendarEverywhere() throws {
        let q3 = try Period.parse("2026-Q3", asOf: CivilDate(year: 2026, month: 11, day: 1))
        for locale in ["fa_IR", "ar_SA", "th_TH", "en_US"] {
            XCTAssertEqual(LocaleFormat(locale: locale).periodLabel(q3), "3rd quarter 2026", locale)
        }
        XCTAssertEqual(LocaleFormat(locale: "fr_FR").periodLabel(q3), "3e trimestre 2026")
    }

    /// Regional money patterns CLDR gives, among the languages with a catalog.
    func testBrazilAustriaAndMexicoPutTheSymbolFirst() throws {
        XCTAssertEqual(LocaleFormat(locale: "pt_BR").money(250_075, try Currency("BRL")), "R$ 2.500,75")
        XCTAssertEqual(LocaleFormat(locale: "pt_PT").money(250_075, .eur), "2500,75 €")
        XCTAssertEqual(LocaleFormat(locale: "de_AT").money(250_075, .eur), "€ 2.500,75")
        XCTAssertEqual(LocaleFormat(locale: "es_MX").money(250_075, try Currency("MXN")), "$2,500.75")
    }

    /// Every kind of period is named in the locale's words, never by its machine name: a
    /// quarter with CLDR's quarter names, a week or a range by its dates.
    func testEveryPeriodIsNamedInTheLocalesWords() throws {
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        let q3 = try Period.parse("2026-Q3", asOf: asOf)
        XCTAssertEqual(LocaleFormat(locale: "en_GB").periodLabel(q3), "3rd quarter 2026")
        XCTAssertEqual(LocaleFormat(locale: "de_DE").periodLabel(q3), "3. Quartal 2026")
        XCTAssertEqual(LocaleFormat(locale: "fr_FR").periodLabel(q3), "3e trimestre 2026")
        XCTAssertEqual(LocaleFormat(locale: "ja_JP").periodLabel(q3), "2026年第3四半期")
        let week = try Period.parse("2026-W40", asOf: asOf)
        XCTAssertEqual(LocaleFormat(locale: "de_DE").periodLabel(week), "28.09. – 04.10.2026")
        XCTAssertTrue(LocaleFormat(locale: "de_DE").periodLabelShowsDates(week))
        XCTAssertFalse(LocaleFormat(locale: "de_DE").periodLabelShowsDates(q3))
        let range = try Period.parse("2026-10-01..2026-10-15", asOf: asOf)
        XCTAssertEqual(LocaleFormat(locale: "it_IT").periodLabel(range), "1 ott – 15 ott 2026")
        XCTAssertEqual(LocaleFormat(locale: "es_ES").periodLabel(try Period.parse("2026", asOf: asOf)), "2026")
        for locale in ["en_US", "de_DE", "fr_FR", "it_IT", "es_ES", "ja_JP"] {
            for p in [q3, week, range] {
                let label = LocaleFormat(locale: locale).periodLabel(p)
                XCTAssertFalse(label.contains("Q3") || label.contains("W40") || label.contains(".."), "\(locale): \(label)")
            }
        }
    }

    func testAPaydayMonthIsLabelledByItsDatesAndACalendarMonthByItsName() throws {
        let payday = try Period.parse("2026-10", asOf: CivilDate(year: 2026, month: 11, day: 1)).startingMonths(onDay: 25)
        XCTAssertEqual(LocaleFormat(locale: "en_GB").monthPeriodLabel(payday), "25 Sep – 24 Oct 2026")
        XCTAssertEqual(LocaleFormat(locale: "en_US").monthPeriodLabel(payday), "Sep 25 – Oct 24, 2026")
        XCTAssertEqual(LocaleFormat(locale: "it_IT").monthPeriodLabel(payday), "25 set – 24 ott 2026")
        XCTAssertEqual(LocaleFormat(locale: "de_DE").monthPeriodLabel(payday), "25.09. – 24.10.2026")
        XCTAssertEqual(LocaleFormat(locale: "ja_JP").monthPeriodLabel(payday), "2026/09/25 – 2026/10/24")
        let january = try Period.parse("2026-01", asOf: CivilDate(year: 2026, month: 11, day: 1)).startingMonths(onDay: 28)
        XCTAssertEqual(LocaleFormat(locale: "en_GB").monthPeriodLabel(january), "28 Dec 2025 – 27 Jan 2026", "two years: both written")
        let october = try Period.parse("2026-10", asOf: CivilDate(year: 2026, month: 11, day: 1))
        XCTAssertEqual(LocaleFormat(locale: "en_GB").monthPeriodLabel(october), "Oct 2026")
    }

    /// The cover's period in capitals: Turkish capitalises "i" as "İ" ("EKI 2026" for October
    /// misspelt it: outside languages test); English words stay "I".
    func testCapitalsFollowTheLocalesRules() {
        let october = CivilDate(year: 2026, month: 10, day: 1)
        let turkish = LocaleFormat(locale: "tr_TR")
        XCTAssertEqual(turkish.uppercased(turkish.monthYearLabel(october)), turkish.monthYearLabel(october).uppercased(with: Locale(identifier: "tr")))
        XCTAssertTrue(turkish.uppercased(turkish.monthYearLabel(october)).contains("EKİ"), turkish.uppercased(turkish.monthYearLabel(october)))
        XCTAssertEqual(LocaleFormat(locale: "en_US").uppercased("oct 2026 · items"), "OCT 2026 · ITEMS")
    }

    /// A BCP-47 script subtag is not a region: `zh-Hant-TW` got Simplified 万 and `TWD 97,803.56`
    /// (outside languages test); Taiwan writes 萬 and its dollar `$`.
    func testAScriptSubtagIsReadApartFromTheRegion() throws {
        let twd = try Currency("TWD")
        for name in ["zh-Hant-TW", "zh_Hant_TW", "zh-Hant", "zh_TW"] {
            let format = LocaleFormat(locale: name)
            XCTAssertEqual(format.region, "TW", name)
            XCTAssertEqual(format.compactMoney(20_000_000, twd), "$20萬", name)
            XCTAssertEqual(format.money(9_780_356, twd), "$97,803.56", name)
        }
        XCTAssertEqual(LocaleFormat(locale: "zh-Hans-CN").compactMoney(20_000_000, try Currency("CNY")), "¥20万")
        XCTAssertEqual(LocaleFormat.scriptAndRegion("Latn_RS").script, "Latn")
        XCTAssertEqual(LocaleFormat.scriptAndRegion("Latn_RS").region, "RS")
        XCTAssertEqual(LocaleFormat.scriptAndRegion("de").region, "DE")
    }

    /// A language without a catalog shortens amounts with CLDR's own words: an English `M` after
    /// a Persian rial read "ریال 128M", which a Persian reader takes for 128 rials (outside
    /// languages test). India keeps its lakhs and crores.
    func testALanguageWithoutACatalogShortensAmountsInItsOwnWords() throws {
        let irr = try Currency("IRR"), pln = try Currency("PLN"), inr = try Currency("INR")
        let persian = LocaleFormat(locale: "fa_IR").compactMoney(12_797_000_000, irr)
        XCTAssertTrue(persian.contains("128 میلیون"), persian)
        XCTAssertFalse(persian.contains("M"), persian)
        XCTAssertEqual(LocaleFormat(locale: "pl_PL").compactMoney(250_000_000, pln), "2,5 mln zł")
        XCTAssertEqual(LocaleFormat(locale: "pl_PL").compactMoney(1_500_000, pln), "15 tys. zł")
        XCTAssertEqual(LocaleFormat(locale: "hi_IN").compactMoney(350_000_000, inr), LocaleFormat(locale: "en_IN").compactMoney(350_000_000, inr))
    }
}
