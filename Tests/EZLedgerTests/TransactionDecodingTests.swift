import EZCore
import EZTestSupport
import GRDB
import XCTest
@testable import EZLedger

/// The contract's transaction rules (``TransactionDecoder``, their one definition) on rows read
/// in place from SQLite's column bytes: the rows kept with every value, the rows quarantined with
/// their reasons, whatever odd storage class or text a column holds.
final class TransactionDecodingTests: XCTestCase {
    let october = CivilDate(year: 2026, month: 10, day: 31)

    /// Loads `user` as every report does.
    private func load(_ ledger: TestLedger, _ user: Int64) throws -> UserLedger {
        try Ledger(path: ledger.path).loadUser(id: user, through: october)
    }

    private func oddRow(_ ledger: TestLedger, _ user: Int64, set assignment: String) throws -> Int64 {
        let id = try ledger.expense(user, 100, on: "2026-10-02")
        try ledger.execute("UPDATE transactions SET \(assignment) WHERE id = ?", [id])
        return id
    }

    private func reason(_ slice: UserLedger, _ id: Int64) -> String? {
        slice.quarantined.first { $0.id == id }?.reason
    }

    func testOrdinaryRowsAreDecodedWithEveryField() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice", timezone: "America/New_York")
        let food = try ledger.category(alice, "Food")
        let card = try ledger.balance(alice, "Card")
        let expense = try ledger.transaction(alice, kind: "expense", 1250, on: "2026-10-03T01:30:00Z", category: food,
                                             balance: card, method: "apple pay", description: "Christmas presents for everyone",
                                             recurrenceDays: 30)
        let income = try ledger.income(alice, 9000, on: "2026-10-01")
        let transfer = try ledger.transaction(alice, kind: "transfer", 500, on: "2026-10-04", balance: card,
                                              toBalance: ledger.defaultBalance(alice), method: nil)
        let slice = try load(ledger, alice)
        XCTAssertEqual(slice.transactions.map(\.id), [income, expense, transfer])
        let e = try XCTUnwrap(slice.transactions.first { $0.id == expense })
        XCTAssertEqual(e.kind, .expense)
        XCTAssertEqual(e.amountMinor, 1250)
        XCTAssertEqual(e.currency.code, "EUR")
        XCTAssertEqual(e.categoryId, food)
        XCTAssertEqual(e.categoryName, "Food")
        XCTAssertEqual(e.balanceId, card)
        XCTAssertEqual(e.method, "apple pay")
        XCTAssertEqual(e.description, "Christmas presents for everyone")
        XCTAssertEqual(e.recurrenceDays, 30)
        XCTAssertEqual(e.ownerDate, CivilDate(year: 2026, month: 10, day: 2), "01:30 UTC is still the 2nd in New York")
        let t = try XCTUnwrap(slice.transactions.first { $0.id == transfer })
        XCTAssertEqual(t.toBalanceId, ledger.defaultBalance(alice))
        XCTAssertNil(t.method)
        XCTAssertTrue(slice.quarantined.isEmpty)
    }

    func testRealAndTextAmountsAreQuarantinedButAWholeRealIsStoredAsAnInteger() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let real = try oddRow(ledger, alice, set: "amount_minor = 12.5")
        let text = try oddRow(ledger, alice, set: "amount_minor = '12abc'")
        let whole = try oddRow(ledger, alice, set: "amount_minor = 12.0")   // INTEGER affinity stores 12
        let zero = try oddRow(ledger, alice, set: "amount_minor = 0")
        let slice = try load(ledger, alice)
        XCTAssertEqual(reason(slice, real), "amount_minor must be a positive integer (got 12.5)")
        XCTAssertEqual(reason(slice, text), "amount_minor must be a positive integer (got '12abc')")
        XCTAssertEqual(reason(slice, zero), "amount_minor must be a positive integer (got 0)")
        XCTAssertEqual(slice.transactions.first { $0.id == whole }?.amountMinor, 12)
    }

    func testOddlyTypedTextColumnsReadAsTheirTextForm() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let numericDescription = try oddRow(ledger, alice, set: "description = 42, method = 1.5")
        let blobCurrency = try oddRow(ledger, alice, set: "currency = X'455552'")          // 'EUR' as a blob
        let integerKind = try oddRow(ledger, alice, set: "kind = 5")
        let slice = try load(ledger, alice)
        let n = try XCTUnwrap(slice.transactions.first { $0.id == numericDescription })
        XCTAssertEqual(n.description, "42")
        XCTAssertEqual(n.method, "1.5")
        XCTAssertEqual(slice.transactions.first { $0.id == blobCurrency }?.currency.code, "EUR")
        XCTAssertEqual(reason(slice, integerKind), "unknown kind '5'")
    }

    func testInvalidUTF8IsRepairedAndANulIsShownNotCut() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let broken = try oddRow(ledger, alice, set: "description = CAST(X'436166C3A920E9' AS TEXT)")   // "Café " + a lone 0xE9
        let nul = try oddRow(ledger, alice, set: "description = CAST(X'4100424344' AS TEXT)")            // "A\0BCD"
        let nulInDate = try oddRow(ledger, alice, set: "occurred_at = CAST(X'323032362D31302D30320041' AS TEXT)")   // "2026-10-02\0A"
        let slice = try load(ledger, alice)
        XCTAssertEqual(slice.transactions.first { $0.id == broken }?.description, "Café \u{FFFD}")
        XCTAssertEqual(slice.transactions.first { $0.id == nul }?.description, "A\u{FFFD}BCD", "the whole text, the NUL shown")
        XCTAssertEqual(reason(slice, nulInDate), "occurred_at '2026-10-02\u{FFFD}A' is not an ISO-8601 timestamp")
    }

    func testNullsAndOddReferencesReadAsAJoinOnTheRowidWould() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob")
        let old = try ledger.category(alice, "Old")
        try ledger.execute("UPDATE categories SET deleted_at = '2026-01-01' WHERE id = ?", [old])
        let noCategory = try oddRow(ledger, alice, set: "category_id = NULL, method = NULL, description = NULL, balance_id = NULL")
        let deletedCategory = try oddRow(ledger, alice, set: "category_id = \(old)")
        let textBalance = try oddRow(ledger, alice, set: "balance_id = 'abc'")
        let bobsBalance = try oddRow(ledger, alice, set: "balance_id = \(ledger.defaultBalance(bob))")
        let missingBalance = try oddRow(ledger, alice, set: "balance_id = 424242")
        let textCategory = try oddRow(ledger, alice, set: "category_id = 'x\(old)'")
        let toOnExpense = try oddRow(ledger, alice, set: "to_balance_id = \(ledger.defaultBalance(alice))")
        let realRecurrence = try oddRow(ledger, alice, set: "recurrence_days = 7.5")
        let textRecurrence = try oddRow(ledger, alice, set: "recurrence_days = '7'")            // stored as 7
        let zeroRecurrence = try oddRow(ledger, alice, set: "recurrence_days = 0")
        let badCreated = try oddRow(ledger, alice, set: "created_at = 'yesterday'")
        let slice = try load(ledger, alice)
        let n = try XCTUnwrap(slice.transactions.first { $0.id == noCategory })
        XCTAssertNil(n.categoryId)
        XCTAssertEqual(n.categoryName, Category.othersName)
        XCTAssertNil(n.balanceId)
        XCTAssertNil(n.description)
        let d = try XCTUnwrap(slice.transactions.first { $0.id == deletedCategory })
        XCTAssertNil(d.categoryId, "a deleted category counts as Others")
        XCTAssertEqual(reason(slice, textBalance), "balance_id 0 does not exist")
        XCTAssertEqual(reason(slice, bobsBalance), "balance_id \(ledger.defaultBalance(bob)) belongs to another user")
        XCTAssertEqual(reason(slice, missingBalance), "balance_id 424242 does not exist")
        XCTAssertEqual(reason(slice, textCategory), "category_id 0 does not exist")
        XCTAssertEqual(reason(slice, toOnExpense), "to_balance_id \(ledger.defaultBalance(alice)) is set on an expense")
        XCTAssertEqual(reason(slice, realRecurrence), "recurrence_days must be a positive integer (got 7.5)")
        XCTAssertEqual(slice.transactions.first { $0.id == textRecurrence }?.recurrenceDays, 7)
        XCTAssertEqual(reason(slice, zeroRecurrence), "recurrence_days must be a positive integer (got 0)")
        XCTAssertEqual(reason(slice, badCreated), "created_at 'yesterday' is not an ISO-8601 timestamp")
    }

    func testForeignCurrencyRowsNeedARateOnOrBeforeTheOwnersDate() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.rate("2026-10-05", "EUR", "USD", 1.08)
        let usd = try ledger.balance(alice, "Dollars", currency: "USD")
        let before = try ledger.expense(alice, 100, on: "2026-10-04", currency: "USD")
        let after = try ledger.expense(alice, 100, on: "2026-10-06", currency: "USD")
        let after2 = try ledger.expense(alice, 300, on: "2026-10-06T10:00:00Z", currency: "USD")
        let transferEarly = try ledger.transaction(alice, kind: "transfer", 100, on: "2026-10-04", toBalance: usd)
        let transferLate = try ledger.transaction(alice, kind: "transfer", 100, on: "2026-10-07", toBalance: usd)
        let slice = try load(ledger, alice)
        XCTAssertEqual(reason(slice, before), "no exchange rate USD→EUR on or before 2026-10-04")
        XCTAssertEqual(reason(slice, transferEarly), "no exchange rate EUR→USD on or before 2026-10-04")
        XCTAssertEqual(Set(slice.transactions.map(\.id)).intersection([after, after2, transferLate]), [after, after2, transferLate])
    }

    /// A row paid from a balance in another currency is counted in that balance's history, in
    /// its currency: without a rate to it, `check` said nothing while the export failed the
    /// user. It is quarantined, in `check` and every report alike.
    func testARowNeedsARateIntoItsOwnBalancesCurrency() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.rate("2026-10-05", "EUR", "USD", 1.08)
        let yen = try ledger.balance(alice, "Yen wallet", currency: "JPY")
        let dollars = try ledger.balance(alice, "Dollars", currency: "USD")
        let fromYen = try ledger.transaction(alice, kind: "expense", 100, on: "2026-10-06", balance: yen)
        let fromDollars = try ledger.transaction(alice, kind: "expense", 100, on: "2026-10-06", balance: dollars)
        let slice = try load(ledger, alice)
        XCTAssertEqual(reason(slice, fromYen), "no exchange rate EUR→JPY on or before 2026-10-06")
        XCTAssertNil(reason(slice, fromDollars))
        XCTAssertTrue(slice.transactions.contains { $0.id == fromDollars })
        let health = try Ledger(path: ledger.path).health()
        XCTAssertEqual(health.quarantined.map(\.id), [fromYen], "check agrees")
    }

    func testGroupExpensesOfOtherMembersCountAndDeletedGroupsAreIgnored() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob", currency: "USD", timezone: "America/Los_Angeles")
        let gone = try ledger.user("gone", deletedAt: "2026-01-01T00:00:00Z")
        try ledger.rate("2026-01-01", "EUR", "USD", 1.1)
        let trip = try ledger.group("Trip", owner: alice, members: [alice, bob, gone])
        let closed = try ledger.group("Closed", owner: alice, members: [alice])
        try ledger.execute("UPDATE groups SET deleted_at = '2026-09-01' WHERE id = ?", [closed])
        let bobs = try ledger.expense(bob, 3000, on: "2026-10-03T05:00:00Z", currency: "EUR", group: trip)
        let alices = try ledger.expense(alice, 1000, on: "2026-10-03", group: trip)
        let gones = try ledger.expense(gone, 700, on: "2026-10-03", group: trip)
        let income = try ledger.transaction(alice, kind: "income", 100, on: "2026-10-03", group: trip)
        let inClosed = try ledger.expense(alice, 200, on: "2026-10-03", group: closed)
        let slice = try load(ledger, alice)
        let expenses = try XCTUnwrap(slice.groups.first { $0.group.id == trip }?.expenses)
        XCTAssertEqual(Set(expenses.map(\.id)), [bobs, alices])
        XCTAssertEqual(expenses.first { $0.id == bobs }?.ownerDate, CivilDate(year: 2026, month: 10, day: 2), "bob's own date")
        XCTAssertFalse(expenses.contains { $0.id == gones }, "a deleted member's row is ignored")
        XCTAssertEqual(reason(slice, income), "a group row must be an expense, not income")
        XCTAssertFalse(slice.transactions.contains { $0.id == inClosed })
        XCTAssertNil(reason(slice, inClosed), "a deleted group's rows are ignored, not quarantined")
    }

    func testReferencesAreFoundWhicheverOwnerAndOrderTheyComeIn() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob")
        let closed = try ledger.balance(alice, "Closed card")
        try ledger.execute("UPDATE balances SET deleted_at = '2026-01-01' WHERE id = ?", [closed])
        let bobsFood = try ledger.category(bob, "Bob's food")
        let trip = try ledger.group("Trip", owner: alice, members: [alice, bob])
        let bobsBalance = try oddRow(ledger, alice, set: "balance_id = \(ledger.defaultBalance(bob))")   // before her own
        let onClosed = try oddRow(ledger, alice, set: "balance_id = \(closed)")
        let missing = try oddRow(ledger, alice, set: "category_id = 999999")
        let bobsShared = try ledger.expense(bob, 800, on: "2026-10-05", category: bobsFood, group: trip)
        let slice = try load(ledger, alice)
        XCTAssertEqual(reason(slice, bobsBalance), "balance_id \(ledger.defaultBalance(bob)) belongs to another user")
        XCTAssertEqual(slice.transactions.first { $0.id == onClosed }?.balanceId, closed, "a deleted balance still exists for its rows")
        XCTAssertEqual(reason(slice, missing), "category_id 999999 does not exist")
        let shared = try XCTUnwrap(slice.groups.first?.expenses.first { $0.id == bobsShared })
        XCTAssertEqual(shared.categoryName, "Bob's food", "the payer's own category, read for the payer")
    }
}
