import XCTest
import EZCore
@testable import EZAnalytics

/// A user whose months start on payday (`users.month_start_day`): the statement's period, its
/// previous month, the trend buckets and the monthly budget windows all run from payday to the
/// day before the next one, by the user's local date.
final class PaydayMonthTests: XCTestCase {
    /// Ann, in Rome, paid on the 25th, with rows either side of the month's edges.
    func paidOnThe25th() -> LedgerFixture {
        var f = LedgerFixture()
        f.ledger.user.monthStartDay = 25
        f.add(.income, 250_000, "2026-09-24T23:30:00Z")                          // 25 Sep 01:30 in Rome: October's first day
        f.add(.expense, 1_000, "2026-09-24T21:00:00Z")                           // 24 Sep 23:00 in Rome: September
        f.add(.expense, 2_000, "2026-10-01T12:00:00Z")                           // October
        f.add(.expense, 4_000, "2026-10-24T21:30:00Z", category: LedgerFixture.fun)   // 24 Oct 23:30: October's last day
        f.add(.expense, 8_000, "2026-10-24T22:30:00Z")                           // 25 Oct 00:30: November
        f.add(.expense, 16_000, "2026-10-24")                                    // a bare date: October
        return f
    }

    func testThePeriodRunsFromPaydayToTheDayBeforeTheNextInTheUsersZone() throws {
        let s = try StatementAnalytics.statement(for: paidOnThe25th().ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.period, Period(kind: .month, start: day("2026-09-25"), end: day("2026-10-24")))
        XCTAssertEqual(s.period.name, "2026-10")
        XCTAssertEqual(s.kpis.income, 250_000)
        XCTAssertEqual(s.kpis.expenses, 2_000 + 4_000 + 16_000)
        XCTAssertEqual(s.kpis.previousExpenses, 1_000, "the previous month is 25 Aug … 24 Sep")
        XCTAssertEqual(Set(s.categories.rows.map(\.name)), ["Groceries", "Fun"])
        XCTAssertEqual(s.transactions.map(\.date).min(), day("2026-09-25"))
        XCTAssertEqual(s.transactions.map(\.date).max(), day("2026-10-24"))
    }

    func testTheTwelveTrendBucketsArePaydayMonths() throws {
        let s = try StatementAnalytics.statement(for: paidOnThe25th().ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.trend.points.count, 12)
        XCTAssertEqual(s.trend.points.first?.start, day("2025-10-25"))
        for (a, b) in zip(s.trend.points, s.trend.points.dropFirst()) {
            XCTAssertEqual(a.end.adding(days: 1), b.start, "buckets follow each other")
            XCTAssertEqual(b.start.components.day, 25)
        }
        let last = try XCTUnwrap(s.trend.points.last)
        XCTAssertEqual([last.start, last.end], [day("2026-09-25"), day("2026-10-24")])
        XCTAssertEqual([last.income, last.expenses], [s.kpis.income, s.kpis.expenses])
        XCTAssertEqual(s.trend.points[10].expenses, 1_000)
    }

    func testMonthlyBudgetWindowsAndTheMonthlyLimitFollowPayday() throws {
        var f = paidOnThe25th()
        f.ledger.user.monthlyLimitMinor = 20_000
        f.ledger.budgets = [Budget(id: 7, userId: 1, categoryId: f.category(LedgerFixture.groceries), period: .month,
                                   amountMinor: 10_000, currency: eur, startsOn: day("2025-01-01"), endsOn: nil)]
        f.ledger.budgetTransfers = [BudgetTransfer(id: 1, userId: 1, fromCategoryId: f.category(LedgerFixture.fun),
                                                   toCategoryId: f.category(LedgerFixture.groceries), amountMinor: 500,
                                                   periodStart: day("2026-09-25"))]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let groceries = try XCTUnwrap(s.budgets.first { $0.budgetId == 7 })
        XCTAssertEqual([groceries.windowStart, groceries.windowEnd], [day("2026-09-25"), day("2026-10-24")])
        XCTAssertEqual(groceries.spent, 2_000 + 16_000)
        XCTAssertEqual(groceries.transfersIn, 500, "a transfer names the payday window's first day")
        // No overall budget row: the monthly limit is the overall budget, over the same payday window.
        let limit = try XCTUnwrap(s.budgets.first { $0.budgetId == 0 })
        XCTAssertEqual([limit.windowStart, limit.windowEnd], [day("2026-09-25"), day("2026-10-24")])
        XCTAssertEqual(s.kpis.limit?.limit, 20_000)
        XCTAssertEqual(s.kpis.limit?.spent, 22_000)
    }

    func testThisMonthOnPaydayIsTheMonthThatBegan() throws {
        let f = paidOnThe25th()
        let s = try StatementAnalytics.statement(for: f.ledger, period: try Period.parse("this-month", asOf: day("2026-10-25")),
                                                 asOf: day("2026-10-25"))
        XCTAssertEqual([s.period.start, s.period.end], [day("2026-10-25"), day("2026-11-24")])
        XCTAssertEqual(s.kpis.expenses, 8_000)
    }

    func testACalendarUserIsUnchanged() throws {
        var f = paidOnThe25th()
        f.ledger.user.monthStartDay = 1
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual([s.period.start, s.period.end], [day("2026-10-01"), day("2026-10-31")])
        XCTAssertEqual(s.kpis.expenses, 2_000 + 4_000 + 8_000 + 16_000)
        XCTAssertEqual(s.trend.points.first?.start, day("2025-11-01"))
    }
}
