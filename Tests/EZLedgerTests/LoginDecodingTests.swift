import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// Sign-ins parsed from SQLite's bytes: timestamps and bare dates kept, anything else quarantined
/// with its whole text.
final class LoginDecodingTests: XCTestCase {
    func testOddSignInsAreQuarantinedWithTheirWholeText() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.login(alice, at: "2026-10-02T08:00:00Z")
        try ledger.login(alice, at: "2026-10-01")
        try ledger.login(alice, at: "soon")
        try ledger.execute("INSERT INTO logins (user_id, at) VALUES (?, 20261003)", [alice])
        try ledger.execute("INSERT INTO logins (user_id, at) VALUES (?, CAST(X'323032362D31302D30340041' AS TEXT))", [alice])   // "2026-10-04\0A"
        let opened = try Ledger(path: ledger.path)
        let october = CivilDate(year: 2026, month: 10, day: 31)
        let slice = try opened.loadUser(id: alice, through: october)
        XCTAssertEqual(slice.logins, [.date(CivilDate(year: 2026, month: 10, day: 1)), LedgerTime(parsing: "2026-10-02T08:00:00Z")!])
        XCTAssertEqual(slice.quarantined.map(\.reason).sorted(), ["at '2026-10-04\u{FFFD}A' is not an ISO-8601 timestamp",
                                                                   "at '20261003' is not an ISO-8601 timestamp",
                                                                   "at 'soon' is not an ISO-8601 timestamp"])
    }
}
