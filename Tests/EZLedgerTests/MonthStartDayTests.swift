import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// `users.month_start_day`, an optional column of the contract: read when present (NULL = 1),
/// a value outside 1…28 quarantines the user, and a ledger without the column reads as before.
final class MonthStartDayTests: XCTestCase {
    let october = CivilDate(year: 2026, month: 10, day: 31)

    func testTheDayIsReadAndNullMeansTheFirst() throws {
        let ledger = try TestLedger()
        let paid = try ledger.user("paid")
        let plain = try ledger.user("plain")
        try ledger.execute("UPDATE users SET month_start_day = 25 WHERE id = ?", [paid])
        let opened = try Ledger(path: ledger.path)
        XCTAssertTrue(opened.features.monthStartDay)
        XCTAssertEqual(try opened.loadUser(id: paid, through: october).user.monthStartDay, 25)
        XCTAssertEqual(try opened.loadUser(id: plain, through: october).user.monthStartDay, 1)
        XCTAssertTrue(try opened.health().isClean)
    }

    func testAValueOutsideOneToTwentyEightQuarantinesTheUser() throws {
        // (the SQL literal planted, the reason)
        let cases: [(String, String)] = [
            ("0", "month_start_day must be an integer from 1 to 28 (got 0)"),
            ("29", "month_start_day must be an integer from 1 to 28 (got 29)"),
            ("25.5", "month_start_day must be an integer from 1 to 28 (got 25.5)"),
            // ('25' would be stored as the integer 25: the column's INTEGER affinity converts it.)
            ("'payday'", "month_start_day must be an integer from 1 to 28 (got 'payday')"),
        ]
        for (value, reason) in cases {
            let ledger = try TestLedger()
            let bad = try ledger.user("bad")
            let good = try ledger.user("good")
            try ledger.execute("UPDATE users SET month_start_day = \(value) WHERE id = ?", [bad])
            let opened = try Ledger(path: ledger.path)
            let health = try opened.health()
            XCTAssertEqual(health.quarantined, [QuarantinedRow(table: "users", id: bad, reason: reason)], value)
            XCTAssertThrowsError(try opened.loadUser(id: bad, through: october), value) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error)")
            }
            XCTAssertNoThrow(try opened.loadUser(id: good, through: october))
        }
    }

    func testALedgerWithoutTheColumnReadsCalendarMonths() throws {
        let schema = try String(contentsOf: TestLedger.schemaURL, encoding: .utf8)
            .replacingOccurrences(of: ",\n    month_start_day INTEGER", with: "")
        XCTAssertFalse(schema.contains("month_start_day"))
        let ledger = try TestLedger(schema: schema)
        let alice = try ledger.user("alice")
        let opened = try Ledger(path: ledger.path)
        XCTAssertFalse(opened.features.monthStartDay)
        XCTAssertEqual(try opened.loadUser(id: alice, through: october).user.monthStartDay, 1)
        XCTAssertTrue(try opened.health().isClean)
    }
}
