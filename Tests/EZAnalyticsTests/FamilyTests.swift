import XCTest
import EZCore
@testable import EZAnalytics

final class FamilyTests: XCTestCase {
    func family() -> (parent: LedgerFixture, child: LedgerFixture) {
        var parent = LedgerFixture(id: 1, name: "mum")
        var child = LedgerFixture(id: 2, name: "kid", currency: usd, zone: newYork)
        parent.ledger.family = FamilyMember(familyId: 7, familyName: "Rossi", userId: 1, role: .parent)
        child.ledger.family = FamilyMember(familyId: 7, familyName: "Rossi", userId: 2, role: .child)
        child.ledger.budgets = [Budget(id: 3, userId: 2, categoryId: child.category(LedgerFixture.fun), period: .month,
                                       amountMinor: 1_000, currency: usd, startsOn: day("2025-01-01"), endsOn: nil)]
        child.rate("EUR", "USD", "2")
        child.add(.income, 2_000, "2026-10-01T12:00:00Z", category: nil)          // allowance: 20 USD = 10 EUR
        child.add(.expense, 1_200, "2026-10-05T12:00:00Z", category: LedgerFixture.fun)
        child.add(.expense, 400, "2026-10-06T12:00:00Z")
        parent.add(.expense, 99_900, "2026-10-06T12:00:00Z")
        return (parent, child)
    }

    func testAParentSeesEachChildsIncomeExpensesCategoriesAndOverBudgets() throws {
        var (parent, child) = family()
        parent.ledger.children = [child.ledger]
        let s = try StatementAnalytics.statement(for: parent.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let fam = try XCTUnwrap(s.family)
        XCTAssertEqual(fam.familyName, "Rossi")
        let kid = try XCTUnwrap(fam.children.first)
        XCTAssertEqual(kid.username, "kid")
        XCTAssertEqual(kid.income, 1_000)                  // in the parent's EUR
        XCTAssertEqual(kid.expenses, 800)
        XCTAssertEqual(kid.categories.map(\.name), ["Fun", "Groceries"])
        XCTAssertEqual(kid.budgets.count, 1)
        XCTAssertEqual(kid.overBudgets.map(\.budgetId), [3])
        XCTAssertEqual(s.kpis.expenses, 99_900)           // the child's spending is not the parent's
    }

    func testAChildsStatementHasNoFamilyFigures() throws {
        let (_, child) = family()
        let s = try StatementAnalytics.statement(for: child.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertNil(s.family)
        XCTAssertEqual(s.kpis.expenses, 1_600)
    }
}
