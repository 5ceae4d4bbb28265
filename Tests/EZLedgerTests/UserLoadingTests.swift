import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// A user's slice holds their own rows and what their groups and family share with them — and nothing else.
final class UserLoadingTests: XCTestCase {
    func testSliceHoldsOwnRowsGroupsAndChildrenButNoSecrets() throws {
        let ledger = try TestLedger()
        let mum = try ledger.user("mum")
        let kid = try ledger.user("kid")
        let stranger = try ledger.user("stranger")
        try ledger.family("Rossi", [(mum, "parent"), (kid, "child")])
        let trip = try ledger.group("Trip", owner: mum, members: [mum, stranger])
        try ledger.expense(mum, 1000, on: "2026-10-02")
        try ledger.expense(kid, 300, on: "2026-10-03")
        try ledger.expense(stranger, 5000, on: "2026-10-04", description: "private")
        try ledger.expense(stranger, 900, on: "2026-10-05", group: trip)
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: mum, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(slice.transactions.map(\.amountMinor), [1000])
        XCTAssertEqual(slice.children.map(\.user.id), [kid])
        XCTAssertEqual(slice.children.first?.transactions.map(\.amountMinor), [300])
        XCTAssertEqual(slice.groups.first?.expenses.map(\.amountMinor), [900])
        XCTAssertEqual(slice.groups.first?.members.map(\.username), ["mum", "stranger"])
        XCTAssertFalse(slice.groups.flatMap(\.expenses).contains { $0.description == "private" })
    }

    func testTransactionCountIsEveryOwnRowOfEveryDateAndNoOneElses() throws {
        let ledger = try TestLedger()
        let mum = try ledger.user("mum")
        let friend = try ledger.user("friend")
        let trip = try ledger.group("Trip", owner: mum, members: [mum, friend])
        try ledger.expense(mum, 1000, on: "2026-10-02")
        try ledger.income(mum, 5000, on: "2019-01-15")   // long before any period: still counted
        try ledger.expense(mum, 700, on: "2026-10-03", group: trip)
        try ledger.expense(friend, 900, on: "2026-10-05", group: trip)   // a share of it, not her row
        let opened = try Ledger(path: ledger.path)
        XCTAssertEqual(try opened.transactionCount(user: mum), 3)
        XCTAssertEqual(try opened.transactionCount(user: friend), 1)
        XCTAssertEqual(try opened.transactionCount(user: 987_654), 0, "an unknown user has none")
    }

    func testChildSeesNoParentRows() throws {
        let ledger = try TestLedger()
        let mum = try ledger.user("mum")
        let kid = try ledger.user("kid")
        try ledger.family("Rossi", [(mum, "parent"), (kid, "child")])
        try ledger.expense(mum, 1000, on: "2026-10-02")
        let slice = try Ledger(path: ledger.path).loadUser(id: kid, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertTrue(slice.transactions.isEmpty)
        XCTAssertTrue(slice.children.isEmpty)
        XCTAssertEqual(slice.family?.role, .child)
    }

    func testOwnerDateUsesTheOwnersZone() throws {
        let ledger = try TestLedger()
        let rome = try ledger.user("rome", timezone: "Europe/Rome")
        try ledger.expense(rome, 100, on: "2026-10-31T23:30:00Z")
        let slice = try Ledger(path: ledger.path).loadUser(id: rome, through: CivilDate(year: 2026, month: 11, day: 30))
        XCTAssertEqual(slice.transactions.first?.ownerDate, CivilDate(year: 2026, month: 11, day: 1))
    }

    func testRowsAfterTheWindowAreLeftOut() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.expense(alice, 100, on: "2026-10-31")
        try ledger.expense(alice, 200, on: "2026-12-15")
        let slice = try Ledger(path: ledger.path).loadUser(id: alice, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(slice.transactions.map(\.amountMinor), [100])
    }

    func testDeletedCategoryCountsAsOthers() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let gone = try ledger.category(alice, "Gone")
        try ledger.execute("UPDATE categories SET deleted_at = '2026-01-01' WHERE id = ?", [gone])
        try ledger.expense(alice, 100, on: "2026-10-01", category: gone)
        let slice = try Ledger(path: ledger.path).loadUser(id: alice, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(slice.transactions.first?.categoryName, "Others")
        XCTAssertNil(slice.transactions.first?.categoryId)
    }

    func testFindUserByIdOrUsername() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let opened = try Ledger(path: ledger.path)
        XCTAssertEqual(try opened.findUser("alice"), alice)
        XCTAssertEqual(try opened.findUser(String(alice)), alice)
        XCTAssertThrowsError(try opened.findUser("nobody")) { XCTAssertEqual("\($0)", "no user 'nobody' in ledger '\(ledger.path)'") }
    }

    /// `--user 02` exported user 2's statement although a user is named "02": text is an id only
    /// when written as ids are; otherwise it is a username.
    func testTextIsAnIdOnlyWhenWrittenAsOne() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let named = try ledger.user("0\(alice)")
        let plus = try ledger.user("+\(alice)")
        let opened = try Ledger(path: ledger.path)
        XCTAssertEqual(try opened.findUser("\(alice)"), alice)
        XCTAssertEqual(try opened.findUser("0\(alice)"), named)
        XCTAssertEqual(try opened.findUser("+\(alice)"), plus)
        XCTAssertThrowsError(try opened.findUser("00\(alice)"), "no such username, and not how an id is written")
    }
}
