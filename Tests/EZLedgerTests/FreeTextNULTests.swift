import EZCore
@testable import EZLedger
import EZTestSupport
import XCTest

/// A description holding a NUL byte keeps its whole text, the NUL shown as U+2400, on the fast
/// path and on the validating path alike (docs/ledger-schema.md).
final class FreeTextNULTests: XCTestCase {
    func testADescriptionWithANULKeepsItsWholeTextOnBothReadPaths() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let tx = try ledger.expense(alice, 990, on: "2026-10-04T09:00:00+02:00")
        try ledger.execute("UPDATE transactions SET description = 'coffee' || char(0) || 'and cake', method = 'ca' || char(0) || 'sh' WHERE id = ?", [tx])
        let opened = try Ledger(path: ledger.path)
        let through = CivilDate(year: 2026, month: 10, day: 31)
        for fast in [true, false] {
            let slice = try opened.loadUser(id: alice, through: through, fastReads: fast)
            let row = try XCTUnwrap(slice.transactions.first { $0.id == tx })
            XCTAssertEqual(row.description, "coffee\u{2400}and cake", "fast reads: \(fast)")
            XCTAssertEqual(row.method, "ca\u{2400}sh", "fast reads: \(fast)")
            XCTAssertTrue(slice.quarantined.isEmpty, "fast reads: \(fast)")
        }
    }
}
