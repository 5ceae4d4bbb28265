import XCTest
import EZCore
@testable import EZAnalytics

final class SavingsGoalTests: XCTestCase {
    func testSavedIsTheNetOfTheGoalsBalanceToThePeriodsEnd() throws {
        var f = LedgerFixture()
        f.ledger.balances[1].openingMinor = 10_000
        f.ledger.savingsGoals = [SavingsGoal(id: 1, userId: 1, name: "Bike", targetMinor: 100_000, currency: eur,
                                             balanceId: f.balance(LedgerFixture.savings), dueOn: day("2026-12-31"))]
        f.add(.transfer, 30_000, "2026-09-01T12:00:00Z", to: LedgerFixture.savings)
        f.add(.expense, 5_000, "2026-10-01T12:00:00Z", balance: LedgerFixture.savings)
        f.add(.transfer, 99_000, "2026-11-01T12:00:00Z", to: LedgerFixture.savings)   // after the period
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        let g = try XCTUnwrap(s.savings.first)
        XCTAssertEqual(g.saved, 35_000)
        XCTAssertEqual(g.percent, Percent(tenths: 350))
        XCTAssertEqual(g.monthsLeft, 2)
        XCTAssertEqual(g.monthlyNeeded, 32_500)
    }

    /// "Saved" is the goal's balance at the period's end: a balance created after it held nothing
    /// then, whatever its opening amount.
    func testABalanceCreatedAfterThePeriodSavesNothingInIt() throws {
        var f = LedgerFixture()
        f.ledger.balances[1].openingMinor = 50_000
        f.ledger.balances[1].createdAt = at("2026-12-01T10:00:00Z")
        f.ledger.savingsGoals = [SavingsGoal(id: 1, userId: 1, name: "Later", targetMinor: 100_000, currency: eur,
                                             balanceId: f.balance(LedgerFixture.savings), dueOn: day("2027-12-31"))]
        let october = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-05"))
        XCTAssertEqual(october.savings.first?.saved, 0)
        let december = try StatementAnalytics.statement(for: f.ledger, period: month("2026-12"), asOf: day("2027-01-05"))
        XCTAssertEqual(december.savings.first?.saved, 50_000)
    }

    func testMonthlyNeededRoundsUpAndAPastDueGoalNeedsEverythingNow() throws {
        var f = LedgerFixture()
        f.ledger.savingsGoals = [
            SavingsGoal(id: 1, userId: 1, name: "A", targetMinor: 1_000, currency: eur, balanceId: f.balance(LedgerFixture.savings), dueOn: day("2027-01-31")),
            SavingsGoal(id: 2, userId: 1, name: "B", targetMinor: 1_000, currency: eur, balanceId: f.balance(LedgerFixture.savings), dueOn: day("2026-01-01")),
            SavingsGoal(id: 3, userId: 1, name: "C", targetMinor: 1_000, currency: eur, balanceId: f.balance(LedgerFixture.savings), dueOn: nil),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        XCTAssertEqual(s.savings.map(\.monthsLeft), [3, 0, nil])
        XCTAssertEqual(s.savings.map(\.monthlyNeeded), [334, 1_000, nil])
    }

    func testGoalsSharingABalanceShareItsMoneyInDueDateOrderAndAddUpToIt() throws {
        var f = LedgerFixture()
        f.ledger.balances[1].openingMinor = 150_000
        let pot = f.balance(LedgerFixture.savings)
        f.ledger.savingsGoals = [
            SavingsGoal(id: 1, userId: 1, name: "Someday", targetMinor: 500_000, currency: eur, balanceId: pot, dueOn: nil),
            SavingsGoal(id: 2, userId: 1, name: "Car", targetMinor: 100_000, currency: eur, balanceId: pot, dueOn: day("2027-06-30")),
            SavingsGoal(id: 3, userId: 1, name: "Trip", targetMinor: 40_000, currency: eur, balanceId: pot, dueOn: day("2026-12-31")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        // Trip (due first) is filled to its 400.00, Car gets the next 1,000.00, Someday the remaining 100.00.
        XCTAssertEqual(s.savings.map(\.goalId), [1, 2, 3])
        XCTAssertEqual(s.savings.map(\.saved), [10_000, 100_000, 40_000])
        XCTAssertEqual(s.savings.reduce(0) { $0 + $1.saved }, 150_000)
        XCTAssertEqual(s.savings.map(\.percent), [Percent(tenths: 20), Percent(tenths: 1000), Percent(tenths: 1000)])
        XCTAssertEqual(s.savings[1].monthlyNeeded, 0)
    }

    func testMoneyBeyondEveryTargetStaysWithTheLastGoal() throws {
        var f = LedgerFixture()
        f.ledger.balances[1].openingMinor = 7_000
        let pot = f.balance(LedgerFixture.savings)
        f.ledger.savingsGoals = [
            SavingsGoal(id: 1, userId: 1, name: "A", targetMinor: 2_000, currency: eur, balanceId: pot, dueOn: day("2026-12-01")),
            SavingsGoal(id: 2, userId: 1, name: "B", targetMinor: 3_000, currency: eur, balanceId: pot, dueOn: day("2027-12-01")),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        XCTAssertEqual(s.savings.map(\.saved), [2_000, 5_000])
    }

    /// A goal in another currency used to claim the whole balance next to the balance's own goals
    /// (the goals then added up to twice the balance): it now takes its turn in the same pool.
    func testAGoalInAnotherCurrencySharesItsBalanceWithTheOthers() throws {
        var f = LedgerFixture()
        f.rate("EUR", "USD", "1.25", since: "2026-10-01")   // no rate when the balance was created (2025)
        f.ledger.balances[1].openingMinor = 50_000
        let pot = f.balance(LedgerFixture.savings)
        f.ledger.savingsGoals = [
            SavingsGoal(id: 1, userId: 1, name: "Soon", targetMinor: 10_000, currency: eur, balanceId: pot, dueOn: day("2026-11-15")),
            SavingsGoal(id: 2, userId: 1, name: "Dollars", targetMinor: 5_000, currency: usd, balanceId: pot, dueOn: day("2027-06-30")),
            SavingsGoal(id: 3, userId: 1, name: "Later", targetMinor: 100_000, currency: eur, balanceId: pot, dueOn: nil),
        ]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        // 500.00 EUR: Soon 100.00, Dollars its 50.00 USD (40.00 EUR at the period's end), Later the other 360.00.
        XCTAssertEqual(s.savings.map(\.saved), [10_000, 5_000, 36_000])
        XCTAssertEqual(s.savings.map(\.percent), [Percent(tenths: 1000), Percent(tenths: 1000), Percent(tenths: 360)])
    }

    /// A partly filled goal in another currency shows its share at the period's rate.
    func testAPartlyFilledGoalInAnotherCurrencyIsWorthItsShareAtThePeriodsEnd() throws {
        var f = LedgerFixture()
        f.rate("EUR", "USD", "1.25", since: "2026-10-01")
        f.ledger.balances[1].openingMinor = 3_000
        f.ledger.savingsGoals = [SavingsGoal(id: 7, userId: 1, name: "Dollars", targetMinor: 10_000, currency: usd,
                                             balanceId: f.balance(LedgerFixture.savings), dueOn: nil)]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        XCTAssertEqual(s.savings.map(\.saved), [3_750])   // 30.00 EUR × 1.25
    }

    /// A goal in another currency, in a statement of a period that ends before the pair's first
    /// rate, failed the user's whole statement (`no exchange rate USD→EUR on or before 2026-10-31`)
    /// while `check` called the ledger clean (outside audit). It converts at the first rate.
    func testAPeriodBeforeThePairsFirstRateConvertsAtThatFirstRate() throws {
        var f = LedgerFixture()
        f.rate("EUR", "USD", "1.25", since: "2026-11-15")
        f.ledger.balances[1].openingMinor = 3_000
        f.ledger.savingsGoals = [SavingsGoal(id: 7, userId: 1, name: "Dollars", targetMinor: 10_000, currency: usd,
                                             balanceId: f.balance(LedgerFixture.savings), dueOn: nil)]
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-02"))
        XCTAssertEqual(s.savings.map(\.saved), [3_750])   // 30.00 EUR × 1.25, the rate of 15 November
    }
}
