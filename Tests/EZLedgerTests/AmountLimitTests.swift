import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// The contract's amount limit (±10^13 minor units): a row beyond it is quarantined in every
/// table that holds an amount, identically in `check` and in the user's slice, so a corrupted
/// amount such as 2^63 − 1 costs one row, not the user's whole statement.
final class AmountLimitTests: XCTestCase {
    let october = CivilDate(year: 2026, month: 10, day: 31)
    let beyond = LedgerContract.maxAmountMinor + 1

    func testAnAmountAtTheLimitIsKeptAndOneBeyondIsQuarantined() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let atLimit = try ledger.expense(alice, LedgerContract.maxAmountMinor, on: "2026-10-01")
        let huge = try ledger.expense(alice, Int64.max, on: "2026-10-02")
        let justOver = try ledger.expense(alice, beyond, on: "2026-10-03")
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: october)
        let health = try opened.health()
        XCTAssertEqual(slice.transactions.map(\.id), [atLimit])
        XCTAssertEqual(Set(slice.quarantined.map(\.id)), [huge, justOver])
        XCTAssertEqual(health.quarantined.first { $0.id == huge }?.reason,
                       "amount_minor 9223372036854775807 is beyond the limit of ±10000000000000 minor units")
        XCTAssertEqual(Set(health.quarantined.filter { $0.table == "transactions" }.map(\.id)), [huge, justOver],
                       "check and the reports quarantine the same rows")
    }

    func testEveryOtherAmountColumnHasTheSameLimit() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice"), bob = try ledger.user("bob")
        let groceries = try ledger.category(alice, "Groceries")
        let eatingOut = try ledger.category(alice, "Eating out")
        let rich = try ledger.balance(alice, "Vault", opening: -beyond)
        let budget = try ledger.budget(alice, category: groceries, amount: beyond)
        let transfer = ledger.newId()
        try ledger.execute("INSERT INTO budget_transfers (id, user_id, from_category_id, to_category_id, amount_minor, period_start, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [transfer, alice, groceries, eatingOut, beyond, "2026-10-01", "2026-10-01T00:00:00Z"])
        let goal = ledger.newId()
        try ledger.execute("INSERT INTO savings_goals (id, user_id, name, target_minor, currency, balance_id, due_on) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [goal, alice, "Moon", beyond, "EUR", ledger.defaultBalance(alice), nil])
        let group = try ledger.group("Flat", owner: alice, members: [alice, bob])
        let payment = try ledger.groupPayment(group, from: bob, to: alice, beyond, on: "2026-10-03T10:00:00Z")
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: october)
        let health = try opened.health()
        let expected: Set<String> = ["balances \(rich)", "budgets \(budget)", "budget_transfers \(transfer)",
                                     "savings_goals \(goal)", "group_payments \(payment)"]
        XCTAssertEqual(Set(slice.quarantined.map { "\($0.table) \($0.id)" }), expected)
        XCTAssertEqual(Set(health.quarantined.map { "\($0.table) \($0.id)" }), expected)
        XCTAssertTrue(slice.quarantined.allSatisfy { $0.reason.contains("beyond the limit of ±10000000000000") }, "\(slice.quarantined)")
        XCTAssertFalse(slice.balances.contains { $0.id == rich })
        XCTAssertTrue(slice.budgets.isEmpty && slice.budgetTransfers.isEmpty && slice.savingsGoals.isEmpty)
    }
}

/// A savings goal is converted to and from its balance's currency: without any rate between the
/// two it cannot be, and `check` and the user's slice quarantine it alike (it used to pass `check`
/// and then fail the user's whole statement).
final class SavingsGoalCurrencyTests: XCTestCase {
    func testAGoalWhoseCurrencyHasNoRateToItsBalancesIsQuarantinedAndOneWithARateIsKept() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let pot = try ledger.balance(alice, "Pot", kind: "savings", currency: "EUR", opening: 10_000)
        try ledger.rate("2026-09-01", "EUR", "USD", 1.1)
        let dollars = ledger.newId(), yen = ledger.newId()
        for (goal, currency) in [(dollars, "USD"), (yen, "JPY")] {
            try ledger.execute("INSERT INTO savings_goals (id, user_id, name, target_minor, currency, balance_id, due_on) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               [goal, alice, "Goal \(currency)", 5_000, currency, pot, nil])
        }
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: CivilDate(year: 2026, month: 10, day: 31))
        let health = try opened.health()
        XCTAssertEqual(slice.savingsGoals.map(\.id), [dollars])
        XCTAssertEqual(slice.quarantined.map { "\($0.table) \($0.id) \($0.reason)" },
                       ["savings_goals \(yen) no exchange rate JPY→EUR (the currency of balance #\(pot))"])
        XCTAssertEqual(health.quarantined.map { "\($0.table) \($0.id)" }, ["savings_goals \(yen)"], "check agrees")
    }
}
