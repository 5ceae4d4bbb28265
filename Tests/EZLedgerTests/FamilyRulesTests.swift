import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// `family_members` rows that name no user are quarantined by `check`, as the contract says for
/// "a member who does not exist" (the same row in `group_members` always was).
final class FamilyRulesTests: XCTestCase {
    func testAFamilyMemberWhoDoesNotExistIsQuarantinedByCheck() throws {
        let ledger = try TestLedger()
        let parent = try ledger.user("pat"), child = try ledger.user("kim")
        let family = try ledger.family("Home", [(parent, "parent"), (child, "child")])
        try ledger.execute("INSERT INTO family_members (family_id, user_id, role) VALUES (?, 999, 'child')", [family])
        let health = try Ledger(path: ledger.path).health()
        XCTAssertEqual(health.quarantined.filter { $0.table == "family_members" },
                       [QuarantinedRow(table: "family_members", id: family, reason: "member user_id 999 does not exist")])
    }

    /// A `group_members` row of a group whose `groups` row is gone was read by nothing and named
    /// by nothing: `check` now quarantines it, as it does a family's, and the group's other rows
    /// stay as they were.
    func testAMembershipOfAGroupThatDoesNotExistIsQuarantinedByCheck() throws {
        let ledger = try TestLedger()
        let ana = try ledger.user("ana")
        try ledger.execute("INSERT INTO group_members (group_id, user_id, joined_at) VALUES (777, ?, '2026-01-01T00:00:00Z')", [ana])
        let health = try Ledger(path: ledger.path).health()
        XCTAssertEqual(health.quarantined, [QuarantinedRow(table: "group_members", id: 777, reason: "group 777 does not exist (user \(ana))")])
    }

    /// A child whose `users` row breaks the contract is left out of the parent's family view; the
    /// parent's report said nothing of it (no quarantined row, exit 0, "No children in this family
    /// yet"). The parent's list now names the child's row, as `check` does (outside audit).
    func testAQuarantinedChildIsListedInTheParentsQuarantine() throws {
        let ledger = try TestLedger()
        let parent = try ledger.user("pat"), child = try ledger.user("kim", timezone: "Mars/Olympus")
        try ledger.family("Home", [(parent, "parent"), (child, "child")])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: parent, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertTrue(slice.children.isEmpty)
        XCTAssertEqual(slice.childrenLeftOut, 1, "the family view says a child is missing, not that there is none")
        let row = QuarantinedRow(table: "users", id: child, reason: "unknown time zone 'Mars/Olympus'")
        XCTAssertEqual(slice.quarantined, [row])
        XCTAssertEqual(try opened.health().quarantined, [row], "check names the same row")
    }
    /// Members of a family whose `families` row is gone (deleted by the app, its members left
    /// behind) form no family: the parent no longer sees the child (their report, and the server's
    /// access rule), and each member's row is quarantined, by the reports as by `check`.
    func testMembersOfAFamilyThatDoesNotExistAreNoFamily() throws {
        let ledger = try TestLedger()
        let parent = try ledger.user("pat"), child = try ledger.user("kim")
        let family = try ledger.family("Home", [(parent, "parent"), (child, "child")])
        let opened = try Ledger(path: ledger.path)
        XCTAssertTrue(try opened.readTransaction { try $0.isParent(parent, of: child) }, "the family as it was")
        try ledger.execute("DELETE FROM families WHERE id = ?", [family])
        let after = try Ledger(path: ledger.path)
        XCTAssertFalse(try after.readTransaction { try $0.isParent(parent, of: child) })
        let slice = try after.loadUser(id: parent, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertNil(slice.family)
        XCTAssertTrue(slice.children.isEmpty)
        XCTAssertEqual(slice.quarantined, [QuarantinedRow(table: "family_members", id: family,
                                                          reason: "family \(family) does not exist (user \(parent))")])
        XCTAssertEqual(Set(try after.health().quarantined.filter { $0.table == "family_members" }.map(\.reason)),
                       ["family \(family) does not exist (user \(parent))", "family \(family) does not exist (user \(child))"])
    }
}
