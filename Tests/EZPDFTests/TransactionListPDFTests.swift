import EZAnalytics
import EZCore
import EZLocale
import EZRenderingTestSupport
import XCTest
@testable import EZPDF

/// The filtered transaction export as a PDF (`GET /v1/users/{id}/transactions.pdf`): eleven
/// columns across one landscape page, whose names the reader must be able to read.
final class TransactionListPDFTests: XCTestCase {
    /// A month of rows with the names people really give their categories, balances and groups.
    private func list(locale: String, rows count: Int = 40) -> TransactionList {
        var figures = PDFFixtures.statement(locale: locale, transactionCount: 5)
        figures.user.locale = locale
        let categories = ["Subscriptions", "Entertainment", "Eating out", "Groceries", "Housing"]
        let balances = ["Bank account", "Wallet", "Card", "Savings"]
        let methods = ["direct debit", "apple pay", "card", "cash"]
        let start = figures.period.start
        let rows = (0..<count).map { i in
            let group = i % 4 == 0 ? "Apartment 4B" : ""
            let day = start.adding(days: i % 28)
            return StatementRow(
                id: Int64(24_000 + i), date: day, time: .date(day),
                kind: .expense, category: categories[i % categories.count], balance: group.isEmpty ? balances[i % balances.count] : "",
                method: methods[i % methods.count], description: i % 3 == 0 ? "Cash withdrawal" : "Shared groceries",
                amount: Int64(1_000 + i * 731), currency: .eur, counted: Int64(1_000 + i * 731),
                group: group, paidBy: group.isEmpty ? "" : "marco.bruno39")
        }
        return TransactionList(user: figures.user, range: figures.period, currency: .eur, filter: TransactionFilter(), rows: rows)
    }

    /// At the statement's 8 pt, with each name column given a fixed share, US Letter cut
    /// "Eating out" to "Eatin…", "Bank account" to "Ban…" and the group to "Apa…" while the
    /// method and date columns had room to spare. Names now take what they need, in 7 pt type.
    func testCategoryBalanceAndGroupNamesAreReadWholeOnLetterAndA4() throws {
        for locale in ["en_US", "de_DE", "fr_FR", "ja_JP"] {
            let shortened = try TransactionListPDF.shortenedTexts(list(locale: locale), provenance: PDFFixtures.provenance())
            for name in ["Subscriptions", "Entertainment", "Eating out", "Bank account", "Apartment 4B", "marco.bruno39"] {
                XCTAssertFalse(shortened.contains(name), "\(locale): '\(name)' was cut (\(shortened.prefix(8)))")
            }
        }
    }

    /// What the names leave goes to the description, which is the column that takes the rest.
    func testTheDescriptionTakesWhatShortNamesLeave() throws {
        let shortened = try TransactionListPDF.shortenedTexts(list(locale: "en_US"), provenance: PDFFixtures.provenance())
        XCTAssertFalse(shortened.contains("Cash withdrawal"), "\(shortened.prefix(8))")
        XCTAssertFalse(shortened.contains("Shared groceries"), "\(shortened.prefix(8))")
    }

    /// A pasted 2 MB description is cut to a thousand characters before it is laid out (laid out
    /// whole, a 10 MB one took ~25 s and over a gigabyte per render); the row and the text around it
    /// are still drawn, the description ending in '…'.
    func testAHugeDescriptionIsCutBeforeItIsLaidOut() throws {
        var huge = list(locale: "en_US", rows: 3)
        huge.rows[1].description = "Start of a pasted text " + String(repeating: "lorem ipsum ", count: 180_000)
        let tools = try PDFToolRunner(bytes: try TransactionListPDF.render(huge, provenance: PDFFixtures.provenance()),
                                      name: "transactions-huge.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.qpdfCheck().status, 0)
        let text = try tools.text()
        XCTAssertTrue(text.contains("Start of a pasted"), text.prefix(400).description)
        XCTAssertLessThan(text.components(separatedBy: "lorem").count, 200, "the whole description was laid out")
        let cell = PDFTable.Cell.wrappingText(huge.rows[1].description).bounded
        guard case .wrappingText(let kept, _) = cell else { return XCTFail("\(cell)") }
        XCTAssertEqual(kept.count, PDFTable.Cell.maximumCharacters)
        XCTAssertTrue(kept.hasSuffix("…") && kept.hasPrefix("Start of a pasted text lorem"))
    }

    /// The export is still a valid PDF whose text carries every row's figures.
    func testTheListPassesQpdfAndCarriesItsRows() throws {
        let list = list(locale: "en_US")
        let tools = try PDFToolRunner(bytes: try TransactionListPDF.render(list, provenance: PDFFixtures.provenance()),
                                      name: "transactions-en_US.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.qpdfCheck().status, 0)
        let text = try tools.text()
        let format = LocaleFormat(locale: "en_US")
        for row in list.rows { XCTAssertTrue(text.contains(format.money(row.amount, .eur)), "row \(row.id)") }
    }
}
