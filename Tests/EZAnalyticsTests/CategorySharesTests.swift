import XCTest
import EZCore
import EZTestSupport
@testable import EZAnalytics

final class CategorySharesTests: XCTestCase {
    func item(_ name: String, _ amount: Int64) -> (name: String, count: Int, amount: Int64, color: String) {
        (name, 1, amount, "#000000")
    }

    func testThreeEqualThirdsAddUpToExactlyOneHundredPercent() {
        let s = CategorySharesBuilder.shares([item("B", 100), item("A", 100), item("C", 100)])
        // 33.3 each leaves one tenth: equal amounts, so it goes to the first name.
        XCTAssertEqual(s.rows.map(\.name), ["A", "B", "C"])
        XCTAssertEqual(s.rows.map(\.percent.tenths), [334, 333, 333])
    }

    func testLeftoverTenthsGoToTheLargestRemainderThenTheLargerAmount() {
        // 2/3 = 66.66… and 1/3 = 33.33…: 666 + 333 = 999, the remainder .66 beats .33.
        let s = CategorySharesBuilder.shares([item("Small", 1), item("Big", 2)])
        XCTAssertEqual(s.rows.map(\.percent.tenths), [667, 333])
    }

    func testSharesAddUpToExactlyOneHundredPercent() {
        var rng = SplitMix(seed: 11)
        for _ in 0..<200 {
            let items = (0..<Int(rng.next() % 15 + 1)).map { item("c\($0)", Int64(rng.next() % 100_000) + 1) }
            let s = CategorySharesBuilder.shares(items)
            XCTAssertEqual(s.rows.reduce(0) { $0 + $1.percent.tenths }, 1000)
            XCTAssertEqual(s.folded.reduce(0) { $0 + $1.percent.tenths }, 1000)
            XCTAssertEqual(s.folded.reduce(0) { $0 + $1.amount }, s.total)
        }
    }

    func testCategoriesUnderTwoPercentFoldIntoOneOtherSlice() {
        let s = CategorySharesBuilder.shares([item("Rent", 9_000), item("Food", 850), item("Pens", 100), item("Gum", 50)])
        XCTAssertEqual(s.rows.count, 4)
        XCTAssertEqual(s.folded.map(\.name), ["Rent", "Food", "Other (2 categories)"])
        XCTAssertEqual(s.folded.last?.amount, 150)
        XCTAssertEqual(s.folded.last?.percent, Percent(tenths: 15))
        XCTAssertEqual(s.folded.last?.color, CategoryPalette.otherColor)
    }

    func testASingleSmallCategoryIsNotFolded() {
        let s = CategorySharesBuilder.shares([item("Rent", 9_900), item("Gum", 100)])
        XCTAssertEqual(s.folded.map(\.name), ["Rent", "Gum"])
    }

    func testExactlyTwoPercentIsNotFolded() {
        let s = CategorySharesBuilder.shares([item("Rent", 9_600), item("A", 200), item("B", 200)])
        XCTAssertEqual(s.folded.map(\.name), ["Rent", "A", "B"])
    }

    func testStatementSharesCountRowsAndUseTheLedgerColourElseThePalette() throws {
        var f = LedgerFixture()
        f.add(.expense, 3_000, "2026-10-01T12:00:00Z")
        f.add(.expense, 1_000, "2026-10-02T12:00:00Z")
        f.add(.expense, 6_000, "2026-10-03T12:00:00Z", category: LedgerFixture.rent)
        f.add(.income, 99_999, "2026-10-03T12:00:00Z", category: LedgerFixture.fun)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.categories.total, 10_000)
        XCTAssertEqual(s.categories.rows, [
            CategoryShare(name: "Rent", count: 1, amount: 6_000, percent: Percent(tenths: 600), color: CategoryPalette.color(for: "Rent")),
            CategoryShare(name: "Groceries", count: 2, amount: 4_000, percent: Percent(tenths: 400), color: "#00AA00"),
        ])
    }

    func testPaletteColourIsStablePerName() {
        XCTAssertEqual(CategoryPalette.color(for: "Travel"), CategoryPalette.color(for: "Travel"))
        XCTAssertTrue(CategoryPalette.colors.contains(CategoryPalette.color(for: "Travel")))
        let names = ["Travel", "Food", "Rent", "Pets", "Kids", "Books", "Car", "Gifts"]
        XCTAssertGreaterThan(Set(names.map(CategoryPalette.color(for:))).count, 3)
    }
}
