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
}
