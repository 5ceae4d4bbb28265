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
}
