import EZAnalytics
import EZCore
import XCTest

/// The transaction list's filters (`ezreport serve`'s category, amount and text parameters).
final class TransactionFilterTextTests: XCTestCase {
    private func row(_ description: String) -> StatementRow {
        StatementRow(id: 1, date: CivilDate(year: 2026, month: 10, day: 12), time: at("2026-10-12T10:00:00Z"),
                     kind: .expense, category: "Food", balance: "Wallet", method: "card", description: description,
                     amount: 450, currency: .eur, counted: 450, group: "", paidBy: "")
    }

    /// `q=é%00` over a description ending in 'é' trapped in Foundation's string search and took the
    /// whole server down; any text is now a plain, case-insensitive substring test.
    func testAnyTextIsASubstringTestAndNeverTraps() {
        let cafe = row("Café")
        for query in ["é\u{0}", "É\u{0}", "é\u{0}\u{0}", "\u{0}"] {
            XCTAssertFalse(TransactionFilter(text: query).matches(cafe), query.debugDescription)
        }
        XCTAssertTrue(TransactionFilter(text: "CAFÉ").matches(cafe))
        XCTAssertTrue(TransactionFilter(text: "fé").matches(cafe))
        XCTAssertTrue(TransactionFilter(text: "é\u{0}").matches(row("é\u{0}x")))
        XCTAssertFalse(TransactionFilter(text: "tea").matches(cafe))
    }
}
