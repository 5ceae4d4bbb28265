import EZAnalytics
import EZCore
import EZLocale
import EZRenderingTestSupport
@testable import EZPDF
import XCTest

/// A statement reads in its user's language: pdftotext finds the section titles in that language
/// and none of the English ones.
final class PDFLanguageTests: XCTestCase {
    /// The section titles (and the footer's page word) as English writes them.
    static let englishTitles = ["Charts", "Spending by category", "Budgets", "Groups", "Savings goals", "Transactions",
                                "About this report"]

    func testEachLanguagesStatementHasItsOwnSectionTitlesAndNoEnglishOnes() throws {
        for locale in ["it_IT", "fr_FR", "es_ES", "de_DE", "ja_JP", "en_US"] {
            let figures = PDFFixtures.statement(locale: locale, transactionCount: 20)
            let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                          name: "statement-\(locale).pdf")
            defer { tools.cleanUp() }
            let text = try tools.text()
            let tr = Translator(locale: locale)
            for english in Self.englishTitles {
                let translated = tr(english)
                XCTAssertTrue(text.contains(translated), "\(locale): '\(translated)' for '\(english)'")
                // A few titles are the same word in some languages ('Budgets' in French and German).
                if tr.language != "en" && translated != english {
                    XCTAssertFalse(text.contains(english), "\(locale): English '\(english)' left in the statement")
                }
            }
            let pages = try XCTUnwrap(Int(try tools.info()["Pages"] ?? ""))
            XCTAssertTrue(text.contains(tr("Page {page} of {pages}", ["page": "1", "pages": String(pages)])), locale)
            if tr.language != "en" { XCTAssertFalse(text.contains("Page 1 of"), "\(locale): English footer") }
            XCTAssertTrue(text.contains(tr("Income and expenses")), "\(locale): a chart's title")
        }
    }

    func testAnUnsupportedLanguageGetsEnglishWordsWithItsOwnNumbers() throws {
        let figures = PDFFixtures.statement(locale: "pt_BR", transactionCount: 20)
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                      name: "statement-pt.pdf")
        defer { tools.cleanUp() }
        let text = try tools.text()
        XCTAssertTrue(text.contains("Spending by category"))
        XCTAssertTrue(text.contains(LocaleFormat(locale: "pt_BR").money(figures.kpis.income, figures.currency)))
    }

    func testTheLimitStatusIsNeverShortenedInAnyLanguage() throws {
        for locale in ["it_IT", "fr_FR", "es_ES", "de_DE", "ja_JP", "en_US"] {
            let tr = Translator(locale: locale)
            for (status, words) in [(BudgetStatus.ok, "Within limit"), (.warning, "Close to limit"), (.over, "Limit exceeded")] {
                // A long percentage leaves the status the least room beside it.
                var figures = PDFFixtures.statement(locale: locale, transactionCount: 5, limitStatus: status)
                figures.kpis.limit?.percent = Percent(tenths: 11192)
                let shortened = try StatementPDF.shortenedTexts(figures, provenance: PDFFixtures.provenance())
                XCTAssertFalse(shortened.contains(tr(words).uppercased()), "\(locale) \(status): '\(tr(words).uppercased())' was cut")
                XCTAssertFalse(shortened.contains(tr("MONTHLY LIMIT")), "\(locale): the limit's title was cut")
            }
        }
    }
}
