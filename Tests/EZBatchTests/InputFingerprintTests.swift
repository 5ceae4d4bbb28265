import EZCore
import EZLedger
import EZTestSupport
import XCTest
@testable import EZBatch

/// The input fingerprint decides whether a re-run may skip a user: it must change with anything
/// that feeds the report and stay the same when nothing does.
final class InputFingerprintTests: XCTestCase {
    let through = CivilDate(year: 2026, month: 10, day: 31)

    private func fingerprint(_ ledger: TestLedger, _ user: Int64, settings: String = "2026-10|pdf", rates: String = "r1") throws -> String {
        let slice = try Ledger(path: ledger.path).loadUser(id: user, through: through)
        return InputFingerprint.of(slice, settings: settings, ratesDigest: rates)
    }

    func testTheSameInputsGiveTheSameFingerprint() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        _ = try ledger.expense(alice, 1250, on: "2026-10-03")
        let first = try fingerprint(ledger, alice)
        XCTAssertEqual(try fingerprint(ledger, alice), first)
        XCTAssertEqual(first.utf8.count, 64, "a SHA-256 in hex")
    }

    func testAChangedAmountDescriptionOrNewRowChangesIt() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let row = try ledger.expense(alice, 1250, on: "2026-10-03")
        var seen: Set<String> = [try fingerprint(ledger, alice)]
        try ledger.execute("UPDATE transactions SET amount_minor = 1251 WHERE id = ?", [row])
        XCTAssertTrue(seen.insert(try fingerprint(ledger, alice)).inserted, "a cent more")
        try ledger.execute("UPDATE transactions SET description = 'lunch' WHERE id = ?", [row])
        XCTAssertTrue(seen.insert(try fingerprint(ledger, alice)).inserted, "a new description")
        _ = try ledger.income(alice, 100, on: "2026-09-01")
        XCTAssertTrue(seen.insert(try fingerprint(ledger, alice)).inserted, "a row in the trend's months")
        try ledger.execute("UPDATE users SET locale = 'de_DE' WHERE id = ?", [alice])
        XCTAssertTrue(seen.insert(try fingerprint(ledger, alice)).inserted, "the user's locale")
    }

    func testSettingsAndRatesAreInputsToo() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        _ = try ledger.expense(alice, 1250, on: "2026-10-03")
        let base = try fingerprint(ledger, alice)
        XCTAssertNotEqual(try fingerprint(ledger, alice, settings: "2026-10|pdf,csv"), base)
        XCTAssertNotEqual(try fingerprint(ledger, alice, rates: "r2"), base)
    }

    func testAnotherUsersRowDoesNotChangeIt() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob")
        _ = try ledger.expense(alice, 1250, on: "2026-10-03")
        let before = try fingerprint(ledger, alice)
        _ = try ledger.expense(bob, 999, on: "2026-10-03")
        XCTAssertEqual(try fingerprint(ledger, alice), before, "bob's own rows are not alice's inputs")
    }

    /// The fingerprint is hashed in pieces as it is written (memory stays flat for a user with
    /// 100,000 transactions); the digest must be that of the same bytes written whole, so that
    /// fingerprints recorded in earlier manifests still match.
    func testHashingInPiecesGivesTheDigestOfTheWholeBytes() {
        var sink = ByteSink()
        var whole: [UInt8] = []
        for n in 0..<20_000 {
            let text = "Shop order #\(n) — café"
            sink.add(text)
            withUnsafeBytes(of: Int64(text.utf8.count).littleEndian) { whole.append(contentsOf: $0) }
            whole.append(contentsOf: text.utf8)
            sink.add(Int64(n))
            withUnsafeBytes(of: Int64(n).littleEndian) { whole.append(contentsOf: $0) }
        }
        XCTAssertGreaterThan(whole.count, 4 * ByteSink.pieceSize, "the input spans several pieces")
        XCTAssertLessThan(sink.bytes.count, ByteSink.pieceSize, "written bytes are not held whole")
        XCTAssertEqual(sink.finalize(), FileDigest.sha256(whole))
    }
}
