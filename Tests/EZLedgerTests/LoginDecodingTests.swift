import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// Sign-ins parsed from SQLite's bytes are the ones the row decoding gives, odd values included.
final class LoginDecodingTests: XCTestCase {
    func testOddSignInsAreQuarantinedOrReadAsTheReferencePathReadsThem() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.login(alice, at: "2026-10-02T08:00:00Z")
        try ledger.login(alice, at: "2026-10-01")
        try ledger.login(alice, at: "soon")
        try ledger.execute("INSERT INTO logins (user_id, at) VALUES (?, 20261003)", [alice])
        try ledger.execute("INSERT INTO logins (user_id, at) VALUES (?, CAST(X'323032362D31302D30340041' AS TEXT))", [alice])   // "2026-10-04\0A"
        let opened = try Ledger(path: ledger.path)
        let october = CivilDate(year: 2026, month: 10, day: 31)
        let fast = try opened.loadUser(id: alice, through: october, fastReads: true)
        let reference = try opened.loadUser(id: alice, through: october, fastReads: false)
        XCTAssertNil(fast.firstReadDifference(from: reference))
        XCTAssertEqual(fast.logins, [.date(CivilDate(year: 2026, month: 10, day: 1)), LedgerTime(parsing: "2026-10-02T08:00:00Z")!,
                                     .date(CivilDate(year: 2026, month: 10, day: 4))])
        XCTAssertEqual(fast.quarantined.map(\.reason).sorted(), ["at '20261003' is not an ISO-8601 timestamp",
                                                                  "at 'soon' is not an ISO-8601 timestamp"])
    }
}
