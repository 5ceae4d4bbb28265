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

    /// A window running past the period used to count the period's spending only while saying the
    /// whole window had elapsed: a blown budget read "ok". Spent and elapsed are now both taken at
    /// the period's end.
    func testAWindowRunningPastThePeriodIsMeasuredAtThePeriodsEnd() throws {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 28_000)]
        f.add(.expense, 2_000, "2026-02-01T12:00:00Z")
        f.add(.expense, 40_000, "2026-02-10T12:00:00Z")   // after the week
        let week = try Period.parse("2026-W05", asOf: day("2026-11-01"))   // 2026-01-26 ... 2026-02-01
        let s = try StatementAnalytics.statement(for: f.ledger, period: week, asOf: day("2026-11-01"))
        let february = try XCTUnwrap(s.budgets.first { $0.windowStart == day("2026-02-01") })
        XCTAssertEqual(february.spent, 2_000)
        XCTAssertEqual(february.expectedPercent, Percent(tenths: 36))   // 1 of 28 days
        XCTAssertEqual(february.projected, 56_000)                      // 20.00 a day for 28 days
        XCTAssertEqual(february.status, .ok)
    }

    /// Rows dated after the as-of date still count as spent, but the pace is the pace up to it.
    func testTheProjectionUsesThePaceUpToTheAsOfDate() throws {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 31_000)]
        f.add(.expense, 1_000, "2026-10-01T12:00:00Z")
        f.add(.expense, 20_000, "2026-10-20T12:00:00Z")   // after the as-of date
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-10-01"))
        let line = try XCTUnwrap(s.budgets.first)
        XCTAssertEqual(line.spent, 21_000)
        XCTAssertEqual(line.expectedPercent, Percent(tenths: 32))
        XCTAssertEqual(line.projected, 31_000)   // 10.00 on day 1 → 310.00; it was 21,000 × 31 = 6,510.00
    }

    /// A user paid on the 15th whose Fun budget (89.86) was revised to 102.44 from 1 July, with
    /// 10.00 spent on 20 June and 5.00 on 5 July, both in the window 15 June – 14 July.
    private func revisedFunBudget() -> LedgerFixture {
        var f = LedgerFixture()
        f.ledger.user.monthStartDay = 15
        f.ledger.budgets = [budget(41, f, category: LedgerFixture.fun, .month, 8_986, ends: "2026-06-30"),
                            budget(42, f, category: LedgerFixture.fun, .month, 10_244, starts: "2026-07-01")]
        f.add(.expense, 1_000, "2026-06-20T12:00:00Z", category: LedgerFixture.fun)
        f.add(.expense, 500, "2026-07-05T12:00:00Z", category: LedgerFixture.fun)
        return f
    }

    /// A budget revised part-way through a window (payday months start on the 15th; the new amount
    /// from the 1st) used to split the window in two, each with a whole month's amount.
    func testABudgetRevisedInsideAWindowCountsOnceWithTheNewAmount() throws {
        let f = revisedFunBudget()
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-07"), asOf: day("2026-08-01"))
        let window = s.budgets.filter { $0.windowStart <= day("2026-07-01") && $0.windowEnd >= day("2026-07-01") }
        XCTAssertEqual(window.count, 1)
        XCTAssertEqual(window.first?.windowStart, day("2026-06-15"))
        XCTAssertEqual(window.first?.windowEnd, day("2026-07-14"))
        XCTAssertEqual(window.first?.budgetId, 42)
        XCTAssertEqual(window.first?.base, 10_244)
        XCTAssertEqual(window.first?.spent, 1_500)
    }

    /// The statement of the window's last week shows the same window as the month's statement:
    /// the budget that ended before the week began still covers the window's first days, and the
    /// spending on them counts (the week used to clip the window to the revision's first day).
    func testARevisedWindowIsTheSameInTheStatementOfItsLastWeek() throws {
        let f = revisedFunBudget()
        let asOf = day("2026-08-01")
        let month = try StatementAnalytics.statement(for: f.ledger, period: month("2026-07"), asOf: asOf)
        let week = try StatementAnalytics.statement(for: f.ledger, period: try Period.parse("2026-W28", asOf: asOf), asOf: asOf)
        let inMonth = try XCTUnwrap(month.budgets.first { $0.windowEnd == day("2026-07-14") })
        let inWeek = try XCTUnwrap(week.budgets.first)
        XCTAssertEqual(week.budgets.count, 1, "one window holds 6–12 July")
        XCTAssertEqual(inWeek.windowStart, day("2026-06-15"))
        XCTAssertEqual(inWeek.windowEnd, day("2026-07-14"))
        XCTAssertEqual(inWeek.budgetId, 42)
        XCTAssertEqual(inWeek.spent, 1_500, "the 20 June spending is in the window")
        XCTAssertEqual(inWeek.effective, inMonth.effective)
        XCTAssertEqual(inWeek.spent, inMonth.spent)

        // A budget that ended before a window holding the period has no row of its own there.
        let later = try StatementAnalytics.statement(for: f.ledger, period: try Period.parse("2026-W31", asOf: asOf), asOf: asOf)
        XCTAssertEqual(later.budgets.map(\.budgetId), [42])
    }

    /// A move between budgets set in different currencies is in the user's currency on both
    /// sides: it was read in each budget's own currency, so 20.00 left a EUR budget as 21.69 USD
    /// and arrived at a USD budget as 20.00, and 1.69 of budget vanished.
    func testAMoveBetweenBudgetsInTwoCurrenciesTakesWhatItGives() throws {
        var f = LedgerFixture()
        f.ledger.user.currency = usd
        f.rate("EUR", "USD", "1.08444")
        var groceries = budget(1, f, category: LedgerFixture.groceries, .month, 15_000)
        groceries.currency = eur
        f.ledger.budgets = [groceries, budget(2, f, category: LedgerFixture.rent, .month, 10_000)]
        f.ledger.budgetTransfers = [
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.groceries), toCategoryId: f.category(LedgerFixture.rent),
                           amountMinor: 2_000, periodStart: day("2026-10-01")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.budgets.map(\.categoryName), ["Groceries", "Rent"])
        XCTAssertEqual(s.budgets.map(\.base), [16_267, 10_000])
        XCTAssertEqual(s.budgets.map(\.transfersOut), [2_000, 0])
        XCTAssertEqual(s.budgets.map(\.transfersIn), [0, 2_000])
        XCTAssertEqual(s.budgets.reduce(0) { $0 + $1.effective }, 26_267, "the move changed the total budget")
    }

    /// A move whose period_start is inside a window (not its first day) used to count on one side
    /// only, or on neither: now both budgets' windows that hold the day take it.
    func testABudgetMoveInsideAWindowCountsOnBothSides() throws {
        var f = LedgerFixture()
        f.ledger.user.monthStartDay = 25
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 50_000),
                            budget(2, f, category: LedgerFixture.rent, .month, 20_000, starts: "2026-06-01")]
        f.ledger.budgetTransfers = [
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 2_160, periodStart: day("2026-06-01")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-06"), asOf: day("2026-07-01"))
        let june = s.budgets.filter { $0.windowStart <= day("2026-06-01") && $0.windowEnd >= day("2026-06-01") }
        XCTAssertEqual(june.map(\.categoryName), ["Groceries", "Rent"])
        XCTAssertEqual(june.map(\.transfersIn), [2_160, 0])
        XCTAssertEqual(june.map(\.transfersOut), [0, 2_160])
        XCTAssertEqual(june.reduce(0) { $0 + $1.effective }, 70_000, "the move changed the total budget")
    }

    /// Groceries with a monthly (500.00) and a weekly (120.00) budget, Rent with a monthly one (200.00).
    private func groceriesByWeekAndMonth() -> LedgerFixture {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 50_000),
                            budget(2, f, category: LedgerFixture.groceries, .week, 12_000),
                            budget(3, f, category: LedgerFixture.rent, .month, 20_000)]
        return f
    }

    /// A category with a weekly and a monthly budget: a move dated on a Monday names that week's
    /// window, and the month holding the Monday no longer takes it too (taken twice from Groceries,
    /// given once to Rent). A move dated on the 1st names the month, not the week holding the 1st.
    func testAMoveNamesOneWindowWhenACategoryHasBudgetsOfTwoKinds() throws {
        var f = groceriesByWeekAndMonth()
        f.ledger.budgetTransfers = [
            // 2026-10-05 is a Monday: Groceries' week of the 5th gives 800 to Rent's October.
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.groceries), toCategoryId: f.category(LedgerFixture.rent),
                           amountMinor: 800, periodStart: day("2026-10-05")),
            // 2026-10-01 is a Thursday: Rent's October gives 300 to Groceries' October, not to the week of 28 September.
            BudgetTransfer(id: 12, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 300, periodStart: day("2026-10-01")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        func line(_ name: String, _ start: String, _ end: String) throws -> BudgetLine {
            try XCTUnwrap(s.budgets.first { $0.categoryName == name && $0.windowStart == day(start) && $0.windowEnd == day(end) })
        }
        let groceriesMonth = try line("Groceries", "2026-10-01", "2026-10-31")
        XCTAssertEqual([groceriesMonth.transfersOut, groceriesMonth.transfersIn], [0, 300], "the week's move is not the month's")
        let week5 = try line("Groceries", "2026-10-05", "2026-10-11")
        XCTAssertEqual([week5.transfersOut, week5.transfersIn], [800, 0])
        let week28 = try line("Groceries", "2026-09-28", "2026-10-04")
        XCTAssertEqual([week28.transfersOut, week28.transfersIn], [0, 0], "the month's move is not the week's")
        let rent = try line("Rent", "2026-10-01", "2026-10-31")
        XCTAssertEqual([rent.transfersOut, rent.transfersIn], [300, 800])
        let moved = s.budgets.reduce(0) { $0 + $1.transfersOut }, received = s.budgets.reduce(0) { $0 + $1.transfersIn }
        XCTAssertEqual(moved, received, "every move takes exactly what it gives")
    }

    /// A move dated inside a week and the month holding it, on a day neither starts (the app
    /// writes a window's first day; an older app wrote the day of the move), changes the week
    /// alone: it was taken from both and given once to the other side.
    func testAMoveDatedInsideAWeekAndAMonthChangesTheWeekAlone() throws {
        var f = groceriesByWeekAndMonth()
        // 2026-10-07 is a Wednesday: inside Groceries' week of the 5th and its October.
        f.ledger.budgetTransfers = [
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.groceries), toCategoryId: f.category(LedgerFixture.rent),
                           amountMinor: 300, periodStart: day("2026-10-07")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        func line(_ name: String, _ start: String) throws -> BudgetLine {
            try XCTUnwrap(s.budgets.first { $0.categoryName == name && $0.windowStart == day(start) })
        }
        XCTAssertEqual(try line("Groceries", "2026-10-05").transfersOut, 300)
        XCTAssertEqual(try line("Groceries", "2026-10-01").transfersOut, 0, "not also the month")
        XCTAssertEqual(try line("Rent", "2026-10-01").transfersIn, 300)
        XCTAssertEqual(s.budgets.reduce(0) { $0 + $1.transfersOut }, s.budgets.reduce(0) { $0 + $1.transfersIn },
                       "every move takes exactly what it gives")
    }

    /// A move dated on a day on which windows of two kinds start — a Monday the 1st (June 2026),
    /// the 1st of January for a month and a year budget — was given to both windows (taken once
    /// from the other side), or taken from both (outside figures test). It names the shorter.
    func testAMoveDatedWhereWindowsOfTwoKindsStartChangesTheShorterAlone() throws {
        var f = groceriesByWeekAndMonth()
        f.ledger.budgets.append(budget(4, f, category: LedgerFixture.rent, .year, 300_000))
        f.ledger.budgetTransfers = [
            // 2026-06-01 is a Monday: Groceries' week of the 1st and its June both start then.
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 4_200, periodStart: day("2026-06-01")),
            // 2026-01-01: Rent's January and its year 2026 both start then.
            BudgetTransfer(id: 12, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 700, periodStart: day("2026-01-01")),
        ]
        let june = try StatementAnalytics.statement(for: f.ledger, period: month("2026-06"), asOf: day("2026-07-01"))
        func line(_ s: StatementFigures, _ name: String, _ start: String, _ end: String) throws -> BudgetLine {
            try XCTUnwrap(s.budgets.first { $0.categoryName == name && $0.windowStart == day(start) && $0.windowEnd == day(end) })
        }
        XCTAssertEqual(try line(june, "Groceries", "2026-06-01", "2026-06-07").transfersIn, 4_200, "the week, the shorter")
        XCTAssertEqual(try line(june, "Groceries", "2026-06-01", "2026-06-30").transfersIn, 0, "not also the month")
        XCTAssertEqual(try line(june, "Rent", "2026-06-01", "2026-06-30").transfersOut, 4_200)
        XCTAssertEqual(june.budgets.reduce(0) { $0 + $1.transfersOut }, june.budgets.reduce(0) { $0 + $1.transfersIn },
                       "every move takes exactly what it gives")

        let january = try StatementAnalytics.statement(for: f.ledger, period: month("2026-01"), asOf: day("2026-02-01"))
        XCTAssertEqual(try line(january, "Rent", "2026-01-01", "2026-01-31").transfersOut, 700, "the month, the shorter")
        XCTAssertEqual(try line(january, "Rent", "2026-01-01", "2026-12-31").transfersOut, 0, "not also the year")
        XCTAssertEqual(try line(january, "Groceries", "2026-01-01", "2026-01-31").transfersIn, 700)
        XCTAssertEqual(january.budgets.reduce(0) { $0 + $1.transfersOut }, january.budgets.reduce(0) { $0 + $1.transfersIn },
                       "every move takes exactly what it gives")
    }

    /// A move dated on a day the budget does not cover changes nothing on that side: a budget
    /// that ends on 15 October took a move dated the 31st. A move dated on the window's first day
    /// (what the app writes) still counts for a budget that starts later in the window.
    func testABudgetMoveOnADayTheBudgetDoesNotCoverLeavesItAlone() throws {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 50_000),
                            budget(2, f, category: LedgerFixture.rent, .month, 20_000, starts: "2026-10-05")]
        f.ledger.budgets[0].endsOn = day("2026-10-15")
        f.ledger.budgetTransfers = [
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 500, periodStart: day("2026-10-31")),
            BudgetTransfer(id: 12, userId: 1, fromCategoryId: f.category(LedgerFixture.groceries), toCategoryId: f.category(LedgerFixture.rent),
                           amountMinor: 700, periodStart: day("2026-10-01")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let october = s.budgets.filter { $0.windowStart >= day("2026-10-01") && $0.windowEnd <= day("2026-10-31") }
        XCTAssertEqual(october.map(\.categoryName), ["Groceries", "Rent"])
        XCTAssertEqual(october.map(\.transfersIn), [0, 700], "the 31st is not a day the groceries budget covers")
        XCTAssertEqual(october.map(\.transfersOut), [700, 500])
    }

    /// A budget revised with a gap (one ending on the 5th, the next starting on the 15th): the days
    /// between are held by no budget, so their spending and a move dated on them count for neither,
    /// as they would not with the first budget alone (outside audit). The pace runs over held days.
    func testTheDaysBetweenARevisedBudgetsEndAndTheNextStartCountForNeither() throws {
        var f = LedgerFixture()
        f.ledger.budgets = [budget(1, f, category: LedgerFixture.groceries, .month, 10_000, starts: "2026-01-01", ends: "2026-10-05"),
                            budget(2, f, category: LedgerFixture.groceries, .month, 20_000, starts: "2026-10-15"),
                            budget(3, f, category: LedgerFixture.rent, .month, 50_000)]
        f.ledger.budgetTransfers = [
            BudgetTransfer(id: 11, userId: 1, fromCategoryId: f.category(LedgerFixture.rent), toCategoryId: f.category(LedgerFixture.groceries),
                           amountMinor: 2_000, periodStart: day("2026-10-10")),
        ]
        f.add(.expense, 1_600, "2026-10-03T12:00:00Z")
        f.add(.expense, 3_200, "2026-10-08T12:00:00Z")   // in the gap
        f.add(.expense, 6_400, "2026-10-20T12:00:00Z")
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-10-20"))
        let line = try XCTUnwrap(s.budgets.first { $0.categoryName == "Groceries" })
        XCTAssertEqual([line.base, line.transfersIn, line.effective, line.spent], [20_000, 0, 20_000, 8_000])
        // Held days: 1–5 and 15–31 (22); by the 20th, 11 of them: 8,000 × 22 / 11.
        XCTAssertEqual(line.projected, 16_000)
        XCTAssertEqual(line.expectedPercent, Percent.of(11, 22))
    }
}
