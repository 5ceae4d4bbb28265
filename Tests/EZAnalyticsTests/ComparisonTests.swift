import XCTest
import EZCore
@testable import EZAnalytics

/// The statement's comparison with the previous period and the same period a year earlier.
final class ComparisonTests: XCTestCase {
    /// October 2026 with rows in September 2026 and October 2025, and rows just outside each window.
    func fixture() -> LedgerFixture {
        var f = LedgerFixture()
        // This period.
        f.add(.income, 200_000, "2026-10-01T09:00:00Z", category: LedgerFixture.others)
        f.add(.expense, 12_000, "2026-10-03T09:00:00Z")
        f.add(.expense, 80_000, "2026-10-04T09:00:00Z", category: LedgerFixture.rent)
        f.add(.transfer, 50_000, "2026-10-05T09:00:00Z", to: LedgerFixture.savings)
        // The previous month: no income, groceries and fun.
        f.add(.expense, 10_000, "2026-09-15T09:00:00Z")
        f.add(.expense, 2_500, "2026-09-30T21:59:00Z", category: LedgerFixture.fun)   // 23:59 in Rome: still September
        // The same month a year earlier: income, rent only.
        f.add(.income, 150_000, "2025-10-01T09:00:00Z", category: LedgerFixture.others)
        f.add(.expense, 75_000, "2025-10-31T09:00:00Z", category: LedgerFixture.rent)
        // Just outside every window: the last hour of 30 September 2025 and of 31 August 2026 in Rome.
        f.add(.expense, 999, "2025-09-30T21:30:00Z")
        f.add(.expense, 777, "2026-08-31T21:30:00Z")
        f.add(.income, 333, "2025-11-01T09:00:00Z", category: LedgerFixture.others)
        return f
    }

    func testIncomeExpensesAndNetAgainstLastMonthAndTheSameMonthAYearEarlier() throws {
        let s = try StatementAnalytics.statement(for: fixture().ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let c = s.comparison
        XCTAssertEqual(c.previous, month("2026-09"))
        XCTAssertEqual(c.yearAgo, month("2025-10"))
        XCTAssertEqual(c.income, ComparedAmount(current: 200_000, previous: 0, yearAgo: 150_000))
        XCTAssertEqual(c.expenses, ComparedAmount(current: 92_000, previous: 12_500, yearAgo: 75_000))
        XCTAssertEqual(c.net, ComparedAmount(current: 108_000, previous: -12_500, yearAgo: 75_000))
        // 92000 − 12500 = 79500, 636.0 % of 12500; 92000 − 75000 = 17000, 22.666… % → 22.7 %.
        XCTAssertEqual(c.expenses.vsPrevious, Change(absolute: 79_500, percent: Percent(tenths: 6360)))
        XCTAssertEqual(c.expenses.vsYearAgo, Change(absolute: 17_000, percent: Percent(tenths: 227)))
        // The same figures the statement shows elsewhere.
        XCTAssertEqual(c.expenses.current, s.kpis.expenses)
        XCTAssertEqual(c.expenses.previous, s.kpis.previousExpenses)
        XCTAssertEqual(c.expenses.vsPrevious, s.kpis.expensesChange)
    }

    func testNoPercentWhenTheEarlierValueIsZero() throws {
        let c = try StatementAnalytics.statement(for: fixture().ledger, period: month("2026-10"), asOf: day("2026-11-01")).comparison
        XCTAssertEqual(c.income.vsPrevious, Change(absolute: 200_000, percent: nil), "no income in September")
        let rent = try XCTUnwrap(c.category(named: "Rent"))
        XCTAssertEqual(rent.amounts, ComparedAmount(current: 80_000, previous: 0, yearAgo: 75_000))
        XCTAssertNil(rent.amounts.vsPrevious.percent)
        XCTAssertEqual(rent.amounts.vsYearAgo.percent, Percent(tenths: 67))   // 5000 / 75000 = 6.666… %
        let groceries = try XCTUnwrap(c.category(named: "Groceries"))
        XCTAssertEqual(groceries.amounts.vsYearAgo, Change(absolute: 12_000, percent: nil), "no groceries a year earlier")
        // Zero against zero: a change of 0 and still no percent.
        XCTAssertEqual(ComparedAmount(current: 0, previous: 0, yearAgo: 0).vsPrevious, Change(absolute: 0, percent: nil))
    }

    func testACategoryWithExpensesOnlyInAnEarlierPeriodIsListedWithZeroNow() throws {
        let c = try StatementAnalytics.statement(for: fixture().ledger, period: month("2026-10"), asOf: day("2026-11-01")).comparison
        // By this period's amount, then the previous period's: Fun has nothing now.
        XCTAssertEqual(c.categories.map(\.name), ["Rent", "Groceries", "Fun"])
        let fun = try XCTUnwrap(c.category(named: "Fun"))
        XCTAssertEqual(fun.amounts, ComparedAmount(current: 0, previous: 2_500, yearAgo: 0))
        XCTAssertEqual(fun.amounts.vsPrevious, Change(absolute: -2_500, percent: Percent(tenths: -1000)))
        // The categories add up to the expenses in each period.
        for (k, total) in [(\ComparedAmount.current, c.expenses.current), (\.previous, c.expenses.previous), (\.yearAgo, c.expenses.yearAgo)] {
            XCTAssertEqual(c.categories.reduce(0) { $0 + $1.amounts[keyPath: k] }, total)
        }
    }

    func testANetChangeIsAPercentOfTheEarlierNetsMagnitude() {
        // From −125.00 to +1080.00: up 1205.00, 964.0 % of 125.00 (not a negative percentage).
        let net = ComparedAmount(current: 108_000, previous: -12_500, yearAgo: 75_000)
        XCTAssertEqual(net.vsPrevious, Change(absolute: 120_500, percent: Percent(tenths: 9640)))
        XCTAssertEqual(ComparedAmount(current: -5_000, previous: 10_000, yearAgo: -20_000).vsYearAgo,
                       Change(absolute: 15_000, percent: Percent(tenths: 750)))
    }

    /// A quarter is compared with the quarter before and the same quarter a year earlier; the
    /// previous period and the year before are read even where the trend does not reach.
    func testAQuarterAndARangeCompareWithWindowsOfTheirOwnLength() throws {
        let ledger = fixture().ledger
        let q = try StatementAnalytics.statement(for: ledger, period: try Period.parse("2026-Q4", asOf: day("2027-01-01")),
                                                 asOf: day("2027-01-01")).comparison
        XCTAssertEqual(q.previous.name, "2026-Q3")
        XCTAssertEqual(q.yearAgo.name, "2025-Q4")
        XCTAssertEqual(q.expenses, ComparedAmount(current: 92_000, previous: 12_500 + 777, yearAgo: 75_000))
        XCTAssertEqual(q.income, ComparedAmount(current: 200_000, previous: 0, yearAgo: 150_000 + 333))

        // A 10-day range: the 10 days before it, and the same dates a year earlier.
        let range = try Period.parse("2026-10-01..2026-10-10", asOf: day("2026-11-01"))
        let r = try StatementAnalytics.statement(for: ledger, period: range, asOf: day("2026-11-01")).comparison
        XCTAssertEqual(r.previous, Period(kind: .range, start: day("2026-09-21"), end: day("2026-09-30")))
        XCTAssertEqual(r.yearAgo, Period(kind: .range, start: day("2025-10-01"), end: day("2025-10-10")))
        XCTAssertEqual(r.expenses, ComparedAmount(current: 92_000, previous: 2_500, yearAgo: 0))
        XCTAssertEqual(r.income, ComparedAmount(current: 200_000, previous: 0, yearAgo: 150_000))
    }
}
