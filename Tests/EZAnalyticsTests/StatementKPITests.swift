import XCTest
import EZCore
@testable import EZAnalytics

final class StatementKPITests: XCTestCase {
    func testIncomeExpensesAndTransfersFollowTheMoneySemantics() throws {
        var f = LedgerFixture()
        f.add(.income, 200_000, "2026-10-01T09:00:00Z", category: LedgerFixture.others)
        f.add(.expense, 12_345, "2026-10-03T09:00:00Z")
        f.add(.expense, 80_000, "2026-10-04T09:00:00Z", category: LedgerFixture.rent)
        f.add(.transfer, 50_000, "2026-10-05T09:00:00Z", to: LedgerFixture.savings)
        f.add(.expense, 10_000, "2026-09-15T09:00:00Z")   // previous month
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.income, 200_000)
        XCTAssertEqual(s.kpis.expenses, 92_345)
        XCTAssertEqual(s.kpis.net, 107_655)
        XCTAssertEqual(s.kpis.savingsRate, Percent(tenths: 538))          // 107655 / 200000 = 53.8 %
        XCTAssertEqual(s.kpis.previousExpenses, 10_000)
        XCTAssertEqual(s.kpis.expensesChange, Change(absolute: 82_345, percent: Percent(tenths: 8234)))
        XCTAssertEqual(s.kpis.transactionCount, 4)
        XCTAssertEqual(s.transactions.map(\.counted), [200_000, 12_345, 80_000, 0])
        XCTAssertEqual(s.transactions.filter { $0.kind == .expense }.reduce(0) { $0 + $1.counted }, s.kpis.expenses)
    }

    func testSumsThatOverflowAreATypedErrorNeverAWrap() throws {
        var f = LedgerFixture()
        // Both in March: inside the 12-month trend but outside the period and the previous month,
        // so only the trend's bucket sums would overflow.
        f.add(.expense, Int64.max - 10, "2026-03-03T09:00:00Z")
        f.add(.expense, 100, "2026-03-04T09:00:00Z")
        XCTAssertThrowsError(try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))) { error in
            guard let e = error as? AnalyticsError else { return XCTFail("expected AnalyticsError, got \(error)") }
            XCTAssertEqual(e.userId, 1)
            XCTAssertTrue(e.reason.hasPrefix("money overflow"), e.reason)
        }
    }

    func testAnInstantLateOnOctoberThirtyFirstUTCIsNovemberInRome() throws {
        var f = LedgerFixture()
        f.add(.expense, 700, "2026-10-31T23:30:00Z")
        let oct = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-12-01"))
        let nov = try StatementAnalytics.statement(for: f.ledger, period: month("2026-11"), asOf: day("2026-12-01"))
        XCTAssertEqual(oct.kpis.expenses, 0)
        XCTAssertEqual(nov.kpis.expenses, 700)
        XCTAssertEqual(nov.transactions.first?.date, day("2026-11-01"))
    }

    func testABareDateIsTheSameDateForEveryViewer() throws {
        var f = LedgerFixture(zone: newYork)
        f.add(.expense, 500, "2026-10-31")
        let oct = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-12-01"))
        XCTAssertEqual(oct.kpis.expenses, 500)
        XCTAssertEqual(oct.transactions.first?.date, day("2026-10-31"))
    }

    func testRowsOnTheDaysClocksChangeLandOnTheirLocalDate() throws {
        var f = LedgerFixture()
        // 2026-03-29: Rome goes from +01:00 to +02:00 at 01:00Z; 22:30Z that day is 00:30 on the 30th.
        f.add(.expense, 100, "2026-03-29T22:30:00Z")
        // 2026-10-25: back to +01:00 at 01:00Z; 22:30Z is 23:30 on the 25th.
        f.add(.expense, 200, "2026-10-25T22:30:00Z")
        let s = try StatementAnalytics.statement(for: f.ledger, period: try Period.parse("2026-01-01..2026-12-31", asOf: day("2026-01-01")),
                                                 asOf: day("2027-01-01"))
        XCTAssertEqual(s.transactions.map(\.date), [day("2026-03-30"), day("2026-10-25")])
    }

    func testLeapDayBelongsToFebruary() throws {
        var f = LedgerFixture()
        f.add(.expense, 2_900, "2028-02-29T12:00:00Z")
        f.add(.expense, 100, "2028-03-01T00:30:00+01:00")   // 2028-02-29T23:30Z: March 1st in Rome
        let feb = try StatementAnalytics.statement(for: f.ledger, period: month("2028-02"), asOf: day("2028-03-10"))
        XCTAssertEqual(feb.kpis.expenses, 2_900)
        XCTAssertEqual(feb.trend.points.last?.start, day("2028-02-01"))
        XCTAssertEqual(feb.trend.points.last?.end, day("2028-02-29"))
    }

    func testForeignRowsAreConvertedOneByOneOnTheirOwnDate() throws {
        var f = LedgerFixture()
        f.rate("EUR", "USD", "1.1", since: "2026-10-01")
        f.rate("EUR", "USD", "1.2", since: "2026-10-10")
        f.add(.expense, 1_100, "2026-10-05T12:00:00Z", currency: usd)   // 11.00 USD / 1.1 = 10.00 EUR
        f.add(.expense, 1_000, "2026-10-15T12:00:00Z", currency: usd)   // 10.00 USD / 1.2 = 8.333… → 8.33
        f.add(.expense, 1_000, "2026-10-16T12:00:00Z", currency: usd)   // 8.33 again (not 16.67 from the sum)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.expenses, 1_000 + 833 + 833)
    }

    func testAMissingRateIsATypedErrorNamingUserAndRow() throws {
        var f = LedgerFixture()
        let id = f.add(.expense, 1_000, "2026-10-05T12:00:00Z", currency: jpy)
        XCTAssertThrowsError(try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))) { e in
            let error = e as? AnalyticsError
            XCTAssertEqual(error?.userId, 1)
            XCTAssertEqual(error?.transactionId, id)
            XCTAssertEqual(error?.description, "analytics failed for user #1, transaction #\(id): no exchange rate JPY→EUR on or before 2026-10-05")
        }
    }

    func testRowsAreOrderedByDateTimeAndId() throws {
        var f = LedgerFixture()
        let late = f.add(.expense, 1, "2026-10-02T10:00:00Z")
        let early = f.add(.expense, 1, "2026-10-02T08:00:00Z")
        let first = f.add(.income, 1, "2026-10-01T23:00:00+02:00")
        let bare = f.add(.expense, 1, "2026-10-02")
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.transactions.map(\.id), [first, bare, early, late])
    }

    func testAnEmptyUserGetsZerosNotAnError() throws {
        let f = LedgerFixture()
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        // The statement's 12 months, with zeros (trends.csv then has 12 rows, not just its header).
        XCTAssertEqual(s.trend.points.count, 12)
        XCTAssertEqual(s.trend.points.first?.start, day("2025-11-01"))
        XCTAssertEqual(s.trend.points.last?.end, day("2026-10-31"))
        XCTAssertTrue(s.trend.points.allSatisfy { $0.income == 0 && $0.expenses == 0 && $0.net == 0 && $0.transactionCount == 0 })
        XCTAssertEqual(s.trend.categoryNames, [])
        XCTAssertEqual(s.categories.rows, [])
        XCTAssertEqual(s.categories.total, 0)
        XCTAssertEqual(s.kpis.savingsRate, nil)
        XCTAssertEqual(s.kpis.expensesChange, Change(absolute: 0, percent: nil))
        XCTAssertEqual(s.transactions, [])
        XCTAssertTrue(s.balances.allSatisfy { $0.values.count == 12 }, "each balance at each month's end")
    }

    func testMonthlyLimitBecomesTheOverallBudgetAndTheHeaderLimit() throws {
        var f = LedgerFixture(monthlyLimit: 10_000)
        f.add(.expense, 8_500, "2026-10-05T12:00:00Z")
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.limit, LimitStatus(limit: 10_000, spent: 8_500, percent: Percent(tenths: 850), status: .warning))
        XCTAssertEqual(s.budgets.map(\.budgetId), [0])
        XCTAssertEqual(s.budgets.first?.categoryName, nil)
    }

    /// A week straddling two months showed both months' limits added up, against spending from the
    /// first month's first day: now the limit of the month holding the week's last day.
    func testAWeeksLimitIsTheMonthHoldingItsLastDayAndAQuarterSumsItsMonths() throws {
        var f = LedgerFixture(monthlyLimit: 10_000)
        f.add(.expense, 4_000, "2026-09-29T12:00:00Z")
        f.add(.expense, 1_500, "2026-10-02T12:00:00Z")
        let week = try StatementAnalytics.statement(for: f.ledger, period: try Period.parse("2026-W40", asOf: day("2026-11-01")),
                                                    asOf: day("2026-11-01"))   // 28 Sep … 4 Oct
        XCTAssertEqual(week.kpis.limit?.limit, 10_000)
        XCTAssertEqual(week.kpis.limit?.spent, 1_500)
        XCTAssertEqual(week.kpis.limit?.windows, 1)
        let quarter = try StatementAnalytics.statement(for: f.ledger, period: try Period.parse("2026-Q3", asOf: day("2026-11-01")),
                                                       asOf: day("2026-11-01"))
        XCTAssertEqual(quarter.kpis.limit?.limit, 30_000)
        XCTAssertEqual(quarter.kpis.limit?.spent, 4_000)
        XCTAssertEqual(quarter.kpis.limit?.windows, 3, "the PDF then says 'limit for the period', not 'monthly limit'")
    }
}
