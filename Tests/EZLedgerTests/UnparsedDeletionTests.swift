import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// A `deleted_at` that cannot be a timestamp (`''`, `0`, `'no'`: an app writing a flag or an empty
/// string where NULL was meant) says neither "deleted" nor "live". The row is quarantined with
/// the reason, so `check` and the reports name it, instead of vanishing from every figure as a
/// deleted row would: a ledger whose every row held `''` used to make empty statements, exit 0.
final class UnparsedDeletionTests: XCTestCase {
    let october = CivilDate(year: 2026, month: 10, day: 31)

    func testATransactionWithAnEmptyOrFlagDeletedAtIsQuarantinedNotHidden() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let good = try ledger.expense(alice, 500, on: "2026-10-01")
        let deleted = try ledger.expense(alice, 700, on: "2026-10-02")
        try ledger.execute("UPDATE transactions SET deleted_at = '2026-10-03T08:00:00Z' WHERE id = ?", [deleted])
        var bad: [Int64: String] = [:]
        for value in ["''", "0", "'no'", "' 2026-10-03'"] {
            let id = try ledger.expense(alice, 900, on: "2026-10-04")
            try ledger.execute("UPDATE transactions SET deleted_at = \(value) WHERE id = ?", [id])
            bad[id] = value == "0" ? "0" : String(value.dropFirst().dropLast())
        }
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: october)
        XCTAssertEqual(slice.transactions.map(\.id), [good], "only the live row counts")
        let health = try opened.health()
        let reasons = Dictionary(uniqueKeysWithValues: health.quarantined.map { ($0.id, $0.reason) })
        for (id, text) in bad {
            XCTAssertEqual(reasons[id], "deleted_at '\(text)' is not an ISO-8601 timestamp")
        }
        XCTAssertNil(reasons[deleted], "a row deleted at a timestamp is ignored, not quarantined")
        XCTAssertEqual(Set(slice.quarantined.map(\.id)), Set(bad.keys), "the report lists what check lists")
    }

    func testAGroupWithAGarbageDeletedAtIsQuarantinedWithItsExpenses() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        let flat = try ledger.group("Flat", owner: ann, members: [ann, bob])
        let rent = try ledger.expense(ann, 60_000, on: "2026-10-01", group: flat)
        let payment = try ledger.groupPayment(flat, from: bob, to: ann, 30_000, on: "2026-10-05")
        try ledger.execute("UPDATE groups SET deleted_at = 'false' WHERE id = ?", [flat])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: bob, through: october)
        XCTAssertTrue(slice.groups.isEmpty)
        let health = try opened.health()
        XCTAssertTrue(health.quarantined.contains(QuarantinedRow(table: "groups", id: flat, reason: "deleted_at 'false' is not an ISO-8601 timestamp")))
        XCTAssertTrue(health.quarantined.contains { $0.table == "transactions" && $0.id == rent && $0.reason.hasPrefix("its group \(flat) breaks the contract") },
                      "the group's expense is listed with it, not silently dropped: \(health.quarantined)")
        _ = payment
    }

    func testAPaymentWithAGarbageDeletedAtIsQuarantined() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        let flat = try ledger.group("Flat", owner: ann, members: [ann, bob])
        let kept = try ledger.groupPayment(flat, from: bob, to: ann, 1_000, on: "2026-10-05")
        let bad = try ledger.groupPayment(flat, from: bob, to: ann, 2_000, on: "2026-10-06")
        try ledger.execute("UPDATE group_payments SET deleted_at = '' WHERE id = ?", [bad])
        let opened = try Ledger(path: ledger.path)
        let payments = try opened.loadUser(id: ann, through: october).groups.first?.payments.map(\.id)
        XCTAssertEqual(payments, [kept])
        XCTAssertEqual(try opened.health().quarantined,
                       [QuarantinedRow(table: "group_payments", id: bad, reason: "deleted_at '' is not an ISO-8601 timestamp")])
    }

    func testABalanceOrCategoryWithAGarbageDeletedAtIsQuarantinedAndItsRowsStillCount() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let card = try ledger.balance(alice, "Card")
        let food = try ledger.category(alice, "Food")
        let lunch = try ledger.expense(alice, 1_250, on: "2026-10-02", category: food)
        try ledger.execute("UPDATE balances SET deleted_at = 'yes' WHERE id = ?", [card])
        try ledger.execute("UPDATE categories SET deleted_at = 1 WHERE id = ?", [food])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: october)
        XCTAssertFalse(slice.balances.contains { $0.id == card })
        XCTAssertFalse(slice.categories.contains { $0.id == food })
        let row = try XCTUnwrap(slice.transactions.first { $0.id == lunch }, "the expense still counts")
        XCTAssertNil(row.categoryId, "under 'Others', as a deleted category's rows")
        XCTAssertEqual(Set(try opened.health().quarantined), [
            QuarantinedRow(table: "balances", id: card, reason: "deleted_at 'yes' is not an ISO-8601 timestamp"),
            QuarantinedRow(table: "categories", id: food, reason: "deleted_at '1' is not an ISO-8601 timestamp"),
        ])
    }
}
