import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// A budget in another currency is converted at each of its windows' first day. One whose first
/// window has no rate on or before that day failed the user's whole statement while `check`
/// called the ledger clean (outside audit): `check` and the reports now quarantine it alike.
final class BudgetRateTests: XCTestCase {
    func testABudgetWhoseFirstWindowHasNoRateIsQuarantinedByCheckAndTheReportAlike() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let food = try ledger.category(alice, "Food")
        try ledger.rate("2026-10-02", "EUR", "USD", 1.1)
        let early = try ledger.budget(alice, category: food, amount: 30_000, currency: "USD", startsOn: "2026-10-01")
        // A weekly budget starting on Friday 2 October: its first window starts on Monday 28 September.
        let weekly = try ledger.budget(alice, category: food, period: "week", amount: 5_000, currency: "USD", startsOn: "2026-10-02")
        let later = try ledger.budget(alice, category: food, amount: 40_000, currency: "USD", startsOn: "2026-11-01")
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: CivilDate(year: 2026, month: 11, day: 30))
        XCTAssertEqual(slice.budgets.map(\.id), [later])
        let expected = [
            QuarantinedRow(table: "budgets", id: early, reason: "no exchange rate USD→EUR on or before 2026-10-01, its first window's first day"),
            QuarantinedRow(table: "budgets", id: weekly, reason: "no exchange rate USD→EUR on or before 2026-09-28, its first window's first day"),
        ]
        XCTAssertEqual(slice.quarantined, expected)
        XCTAssertEqual(try opened.health().quarantined, expected, "check agrees")
    }

    /// A month window starts on the user's payday: a budget from 26 October of a user paid on the
    /// 25th needs a rate by the 25th, not by the 1st.
    func testThePaydayMonthDecidesTheFirstWindowsFirstDay() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.execute("UPDATE users SET month_start_day = 25 WHERE id = ?", [alice])
        try ledger.rate("2026-10-20", "EUR", "USD", 1.1)
        let budget = try ledger.budget(alice, category: nil, amount: 30_000, currency: "USD", startsOn: "2026-10-26")
        let slice = try Ledger(path: ledger.path).loadUser(id: alice, through: CivilDate(year: 2026, month: 11, day: 30))
        XCTAssertEqual(slice.budgets.map(\.id), [budget])
        XCTAssertEqual(slice.quarantined, [])
    }
}
