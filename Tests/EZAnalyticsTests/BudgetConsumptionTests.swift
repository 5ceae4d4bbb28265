import XCTest
import EZCore
@testable import EZAnalytics

final class BudgetConsumptionTests: XCTestCase {
    func budget(_ id: Int64, _ f: LedgerFixture, category: Int64?, _ period: Budget.Period, _ amount: Int64,
                starts: String = "2025-01-01", ends: String? = nil) -> Budget {
        Budget(id: id, userId: f.userId, categoryId: category.map(f.category), period: period, amountMinor: amount,
               currency: f.ledger.user.currency, startsOn: day(starts), endsOn: ends.map(day))
    }

    func testMonthlyCategoryBudgetWithTransfersPaceAndProjection() throws {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 30_000)]
        f.ledger.budgetTransfers = [
            BudgetTransfer(id: 1, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 5_000, periodStart: day("2026-10-01")),
            BudgetTransfer(id: 2, userId: 1, fromCategoryId: f.category(LedgerFixture.groceries), toCategoryId: f.category(LedgerFixture.fun),
                           amountMinor: 1_000, periodStart: day("2026-10-01")),
            BudgetTransfer(id: 3, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 7_000, periodStart: day("2026-09-01")),   // another window
        ]
        f.add(.expense, 20_000, "2026-10-03T12:00:00Z")
        f.add(.expense, 9_000, "2026-10-03T12:00:00Z", category: LedgerFixture.fun)   // other category
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-10-10"))
        let line = try XCTUnwrap(s.budgets.first)
        XCTAssertEqual(s.budgets.count, 1)
        XCTAssertEqual(line.categoryName, "Groceries")
        XCTAssertEqual([line.base, line.transfersIn, line.transfersOut, line.effective, line.spent, line.remaining],
                       [30_000, 5_000, 1_000, 34_000, 20_000, 14_000])
        XCTAssertEqual(line.percent, Percent(tenths: 588))            // 20000 / 34000 = 58.82 %
        XCTAssertEqual(line.expectedPercent, Percent(tenths: 323))    // 10 of 31 days
        XCTAssertEqual(line.projected, 62_000)                        // 20000 × 31 / 10
        XCTAssertEqual(line.status, .ok)
    }

    func testStatusWarningAtEightyPercentAndOverAboveOneHundred() {
        XCTAssertEqual(BudgetAnalytics.status(spent: 799, effective: 1_000).1, .ok)
        XCTAssertEqual(BudgetAnalytics.status(spent: 800, effective: 1_000).1, .warning)
        XCTAssertEqual(BudgetAnalytics.status(spent: 1_000, effective: 1_000).1, .warning)
        XCTAssertEqual(BudgetAnalytics.status(spent: 1_001, effective: 1_000).1, .over)
    }

    func testAZeroBudgetWithSpendingIsOverWithNoPercent() {
        let (p, s) = BudgetAnalytics.status(spent: 1, effective: 0)
        XCTAssertNil(p)
        XCTAssertEqual(s, .over)
        XCTAssertEqual(BudgetAnalytics.status(spent: 0, effective: 0).1, .ok)
    }

    func testYearlyBudgetInAnOctoberStatementCountsTheYearToTheEndOfOctober() throws {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(5, f, category: nil, .year, 100_000)]
        f.add(.expense, 40_000, "2026-02-03T12:00:00Z")
        f.add(.expense, 30_000, "2026-10-03T12:00:00Z")
        f.add(.expense, 50_000, "2026-11-03T12:00:00Z")   // after the period
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let line = try XCTUnwrap(s.budgets.first)
        XCTAssertEqual(line.windowStart, day("2026-01-01"))
        XCTAssertEqual(line.windowEnd, day("2026-12-31"))
        XCTAssertEqual(line.spent, 70_000)
        XCTAssertEqual(s.kpis.limit?.limit, 100_000)   // the only overall budget is yearly
    }

    func testWeeklyWindowsAreClippedToTheBudgetsDates() throws {
        var f = LedgerFixture()
        // Weeks of October 2026 from Monday; the budget runs 2026-10-07..2026-10-20.
        f.ledger.budgets = [budget(2, f, category: LedgerFixture.fun, .week, 7_000, starts: "2026-10-07", ends: "2026-10-20")]
        f.add(.expense, 1_000, "2026-10-06T12:00:00Z", category: LedgerFixture.fun)   // before the budget starts
        f.add(.expense, 2_000, "2026-10-08T12:00:00Z", category: LedgerFixture.fun)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.budgets.map(\.windowStart), [day("2026-10-07"), day("2026-10-12"), day("2026-10-19")])
        XCTAssertEqual(s.budgets.map(\.windowEnd), [day("2026-10-11"), day("2026-10-18"), day("2026-10-20")])
        XCTAssertEqual(s.budgets.map(\.spent), [2_000, 0, 0])
    }

    func testAnOverallBudgetRowReplacesTheMonthlyLimit() throws {
        var f = LedgerFixture(monthlyLimit: 1)
        f.ledger.budgets = [budget(9, f, category: nil, .month, 50_000)]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.budgets.map(\.budgetId), [9])
        XCTAssertEqual(s.kpis.limit?.limit, 50_000)
    }
}
