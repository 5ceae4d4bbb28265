import XCTest
import EZCore
@testable import EZAnalytics

final class TrendTests: XCTestCase {
    func testAMonthlyStatementCarriesTwelveMonthsWithZerosForEmptyOnes() throws {
        var f = LedgerFixture()
        f.add(.expense, 1_000, "2026-01-10T12:00:00Z")
        f.add(.income, 5_000, "2026-10-10T12:00:00Z", category: nil)
        f.add(.expense, 2_000, "2026-10-11T12:00:00Z", category: LedgerFixture.fun)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let p = s.trend.points
        XCTAssertEqual(p.count, 12)
        XCTAssertEqual(p.first?.start, day("2025-11-01"))
        XCTAssertEqual(p.last?.end, day("2026-10-31"))
        XCTAssertEqual(p.map(\.expenses), [0, 0, 1_000, 0, 0, 0, 0, 0, 0, 0, 0, 2_000])
        XCTAssertEqual(p.last?.income, 5_000)
        XCTAssertEqual(p.last?.net, 3_000)
        XCTAssertEqual(p.last?.transactionCount, 2)
        XCTAssertEqual(p.last?.expensesByCategory, ["Fun": 2_000])
        XCTAssertEqual(s.trend.categoryNames, ["Groceries", "Fun"])
    }

    func testMovingAverageAndChangesAgainstPreviousAndYearAgo() throws {
        var f = LedgerFixture(created: "2024-01-01T00:00:00Z")
        f.add(.expense, 1_000, "2025-10-10T12:00:00Z")
        f.add(.expense, 100, "2026-08-10T12:00:00Z")
        f.add(.expense, 200, "2026-09-10T12:00:00Z")
        f.add(.expense, 1_500, "2026-10-10T12:00:00Z")
        let t = try StatementAnalytics.trend(for: f.ledger, from: day("2026-08-01"), through: day("2026-10-31"), bucket: .month, asOf: day("2026-11-02"))
        XCTAssertEqual(t.points.map(\.movingAverageExpenses), [nil, nil, 600])
        XCTAssertEqual(t.points[2].vsPrevious, Change(absolute: 1_300, percent: Percent(tenths: 6500)))
        XCTAssertEqual(t.points[2].vsYearAgo, Change(absolute: 500, percent: Percent(tenths: 500)))
        XCTAssertEqual(t.points[0].vsPrevious, Change(absolute: 100, percent: nil))   // zero base: no percent
    }

    func testNoComparisonBeforeTheAccountExisted() throws {
        var f = LedgerFixture(created: "2026-06-15T00:00:00Z")
        f.add(.expense, 100, "2026-08-10T12:00:00Z")
        let t = try StatementAnalytics.trend(for: f.ledger, from: day("2026-08-01"), through: day("2026-08-31"), bucket: .month, asOf: day("2026-09-02"))
        XCTAssertNil(t.points[0].vsYearAgo)
        XCTAssertEqual(t.points[0].vsPrevious, Change(absolute: 100, percent: nil))
    }

    func testOpenBucketProjectsRecurringDuePlusPaceOfTheRest() throws {
        var f = LedgerFixture()
        f.add(.expense, 3_000, "2026-09-20T12:00:00Z", category: LedgerFixture.rent, recurring: 30)   // next: 2026-10-20
        f.add(.expense, 1_000, "2026-10-05T12:00:00Z")
        f.add(.expense, 500, "2026-10-10T12:00:00Z")
        let t = try StatementAnalytics.trend(for: f.ledger, from: day("2026-10-01"), through: day("2026-10-31"), bucket: .month, asOf: day("2026-10-10"))
        // 1,500 in 10 days → 4,650 over 31 days; plus the rent due on the 20th.
        XCTAssertEqual(t.points[0].expenses, 1_500)
        XCTAssertEqual(t.points[0].projectedExpenses, 4_650 + 3_000)
    }

    func testFinishedBucketsHaveNoProjection() throws {
        var f = LedgerFixture()
        f.add(.expense, 1_000, "2026-10-05T12:00:00Z")
        let t = try StatementAnalytics.trend(for: f.ledger, from: day("2026-10-01"), through: day("2026-10-31"), bucket: .month, asOf: day("2026-10-31"))
        XCTAssertNil(t.points[0].projectedExpenses)
    }

    func testWeeklyBucketsStartOnMondayAndRangeIsClipped() throws {
        var f = LedgerFixture()
        f.add(.expense, 100, "2026-10-04T12:00:00Z")  // Sunday
        f.add(.expense, 200, "2026-10-05T12:00:00Z")  // Monday
        let t = try StatementAnalytics.trend(for: f.ledger, from: day("2026-10-01"), through: day("2026-10-12"), bucket: .week, asOf: day("2026-11-01"))
        XCTAssertEqual(t.points.map(\.start), [day("2026-10-01"), day("2026-10-05"), day("2026-10-12")])
        XCTAssertEqual(t.points.map(\.end), [day("2026-10-04"), day("2026-10-11"), day("2026-10-12")])
        XCTAssertEqual(t.points.map(\.expenses), [100, 200, 0])
    }

    func testRunningBalancesFollowIncomesTransfersAndPayments() throws {
        var f = LedgerFixture()
        f.ledger.balances[0].openingMinor = 10_000
        f.add(.income, 5_000, "2026-09-01T12:00:00Z", category: nil)
        f.add(.expense, 2_000, "2026-10-02T12:00:00Z")
        f.add(.transfer, 3_000, "2026-10-03T12:00:00Z", to: LedgerFixture.savings)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let wallet = try XCTUnwrap(s.balances.first { $0.name == "Wallet" })
        let savings = try XCTUnwrap(s.balances.first { $0.name == "Savings" })
        XCTAssertEqual(wallet.values.suffix(3), [10_000, 15_000, 10_000])
        XCTAssertEqual(savings.values.suffix(2), [0, 3_000])
        XCTAssertEqual(s.kpis.expenses, 2_000)       // the transfer is not an expense
    }

    /// A balance's opening amount is what it held when it was created: the months before its
    /// creation day (in the user's zone) do not hold it, and a balance created after the period
    /// holds only the rows dated in it; a statement of October does not change when a balance is
    /// added in December.
    func testABalancesOpeningAmountCountsFromTheDayItWasCreated() throws {
        var f = LedgerFixture()
        f.ledger.balances[0].openingMinor = 10_000
        f.ledger.balances[0].createdAt = at("2026-08-31T22:30:00Z")   // 1 September in Rome
        f.ledger.balances[1].openingMinor = 50_000
        f.ledger.balances[1].createdAt = at("2026-12-01T10:00:00Z")   // after the period
        f.add(.income, 5_000, "2026-09-10T12:00:00Z", category: nil)
        f.add(.transfer, 3_000, "2026-10-03T12:00:00Z", to: LedgerFixture.savings)   // a row dated before its creation
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let wallet = try XCTUnwrap(s.balances.first { $0.name == "Wallet" })
        let savings = try XCTUnwrap(s.balances.first { $0.name == "Savings" })
        XCTAssertEqual(wallet.values.suffix(3), [0, 15_000, 12_000], "August without the opening, September with it")
        XCTAssertEqual(savings.values.suffix(2), [0, 3_000], "never the opening of December")
    }

    func testQuarterStatementUsesTheTwelveMonthsEndingWithIt() {
        let r = StatementAnalytics.trendRange(for: try! Period.parse("2026-Q3", asOf: day("2026-01-01")))
        XCTAssertEqual(r.bucket, .month)
        XCTAssertEqual(r.from, day("2025-10-01"))
        XCTAssertEqual(r.through, day("2026-09-30"))
    }
}
