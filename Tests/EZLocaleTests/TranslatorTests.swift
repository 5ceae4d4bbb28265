import Foundation
import EZCore
@testable import EZLocale
import XCTest

/// Choosing the language from a user's locale, and filling messages in.
final class TranslatorTests: XCTestCase {
    func testTheShippedCatalogsLoad() throws {
        let catalogs = try Catalog.loaded.get()
        XCTAssertEqual(Set(catalogs.keys), Set(Catalog.languages))
    }

    func testTheLanguageComesFromTheLocaleAndOtherLanguagesGetEnglishText() {
        XCTAssertEqual(Translator(locale: "it_IT")("Budgets"), "Budget")
        XCTAssertEqual(Translator(locale: "it_CH")("Spending by category"), "Spese per categoria")
        XCTAssertEqual(Translator(locale: "de-AT")("Spending by category"), "Ausgaben nach Kategorie")
        XCTAssertEqual(Translator(locale: "ja_JP.UTF-8")("Spending by category"), "カテゴリ別の支出")
        // Portuguese has no catalog: English words, Portuguese numbers.
        let pt = Translator(locale: "pt_BR")
        XCTAssertEqual(pt.language, "en")
        XCTAssertEqual(pt.plural("{count} transaction", "{count} transactions", count: 1234), "1.234 transactions")
        XCTAssertEqual(Translator(locale: "xx")("Budgets"), "Budgets")
    }

    func testCountsTakeTheLanguagesPluralFormAndLocaleDigits() {
        let fr = Translator(locale: "fr_FR"), de = Translator(locale: "de_DE"), ja = Translator(locale: "ja_JP")
        let en = Translator(locale: "en_US")
        XCTAssertEqual(fr.plural("{count} transaction", "{count} transactions", count: 0), "0 opération")
        XCTAssertEqual(fr.plural("{count} transaction", "{count} transactions", count: 2), "2 opérations")
        XCTAssertEqual(de.plural("{count} transaction", "{count} transactions", count: 1), "1 Buchung")
        XCTAssertEqual(de.plural("{count} transaction", "{count} transactions", count: 24000), "24.000 Buchungen")
        XCTAssertEqual(ja.plural("{count} transaction", "{count} transactions", count: 24), "24件の取引")
        XCTAssertEqual(en.plural("{count} transaction", "{count} transactions", count: 1), "1 transaction")
        XCTAssertEqual(en.plural("{count} transaction", "{count} transactions", count: 24), "24 transactions")
    }

    func testPlaceholdersAreFilledWhereverTheTranslatorPutThem() {
        let ja = Translator(locale: "ja_JP")
        XCTAssertEqual(ja("Page {page} of {pages}", ["page": "2", "pages": "5"]), "2 / 5 ページ")
        XCTAssertEqual(ja("Largest category: {name} ({percent} of expenses)", ["name": "住居", "percent": "76.6%"]),
                       "最大のカテゴリ: 住居（支出の76.6%）")
        XCTAssertEqual(Translator.fill("{a} and {unknown}", ["a": "x"]), "x and {unknown}", "a mistake shows")
    }

    func testMessagesWithAContextAreTranslatedApart() {
        let es = Translator(locale: "es_ES")
        XCTAssertEqual(es("Share", context: "of a total"), "Porcentaje")
        XCTAssertEqual(es("Share", context: "of a group expense"), "Parte")
    }

    /// A row's kind is one income, not the section's "Revenus"/"Einnahmen" beside "Dépense"; "no
    /// filters" agrees with its noun ("Aucun" filtre, "Nessuno"), and French sets its colon apart.
    func testARowsKindAndAnEmptyFilterListTakeTheirOwnWords() {
        let expected: [(String, String, String)] = [("fr_FR", "Revenu", "Filtres : Aucun"), ("de_DE", "Einnahme", "Filter: Keine"),
                                                    ("it_IT", "Entrata", "Filtri: Nessuno"), ("es_ES", "Ingreso", "Filtros: Ninguno")]
        for (locale, income, filters) in expected {
            let tr = Translator(locale: locale)
            XCTAssertEqual(tr("Income", context: "a transaction's kind"), income, locale)
            XCTAssertNotEqual(tr("Income", context: "a transaction's kind"), tr("Income"), "\(locale): the heading stays plural")
            XCTAssertEqual(tr("Filters: {filters}", ["filters": tr("None", context: "no filters")]), filters, locale)
        }
    }
}

/// Month names are the locale data's (CLDR), not the catalogs'.
final class MonthNameTests: XCTestCase {
    func testMonthNamesComeFromTheLocaleData() {
        for (locale, march) in [("en_US", "Mar"), ("it_IT", "mar"), ("de_DE", "Mär"), ("fr_FR", "mars"), ("es_ES", "mar"), ("ja_JP", "3月")] {
            let f = DateFormatter()
            f.locale = Locale(identifier: locale)
            XCTAssertEqual(LocaleFormat(locale: locale).monthAbbreviation(3), f.shortStandaloneMonthSymbols[2], locale)
            XCTAssertEqual(LocaleFormat(locale: locale).monthAbbreviation(3), march, locale)
        }
    }
}
