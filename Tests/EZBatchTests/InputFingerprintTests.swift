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

    /// The rates' part of the fingerprint holds only what can reach the report: the app's feed
    /// adds a rate every day, and with the whole table's digest each one re-rendered everyone and
    /// `deliver` sent every statement a second time.
    func testOnlyRatesThatCanReachTheReportAreInputs() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")   // EUR
        _ = try ledger.expense(alice, 1250, on: "2026-10-03", currency: "USD")
        try ledger.rate("2026-09-01", "EUR", "USD", 1.1)
        func ratesPart() throws -> String {
            InputFingerprint.ratesDigest(for: try Ledger(path: ledger.path).loadUser(id: alice, through: through), through: through)
        }
        var seen: Set<String> = [try ratesPart()]
        try ledger.rate("2026-11-28", "EUR", "USD", 1.2)
        XCTAssertFalse(seen.insert(try ratesPart()).inserted, "a rate dated after the report's last day")
        try ledger.rate("2026-10-02", "GBP", "JPY", 190)
        XCTAssertFalse(seen.insert(try ratesPart()).inserted, "a rate between currencies alice's rows do not use")
        try ledger.rate("2026-10-02", "USD", "EUR", 0.9)
        XCTAssertTrue(seen.insert(try ratesPart()).inserted, "a rate of alice's pair in the period, either direction")
        try ledger.execute("UPDATE exchange_rates SET rate = 1.11 WHERE day = '2026-09-01'")
        XCTAssertTrue(seen.insert(try ratesPart()).inserted, "a changed rate she uses")
        try ledger.rate("2026-10-01", "GBP", "EUR", 1.15)
        XCTAssertFalse(seen.insert(try ratesPart()).inserted, "GBP is not among alice's currencies yet")
        _ = try ledger.expense(alice, 500, on: "2026-10-04", currency: "GBP")
        XCTAssertTrue(seen.insert(try ratesPart()).inserted, "a row in a new currency brings its pairs in")
    }

    /// No report shows the e-mail address: a changed address re-rendered the statement (its PDF
    /// names the ledger's SHA-256) and `deliver` sent the same statement again (outside test).
    func testAChangedEmailAddressDoesNotChangeItButAUsernameDoes() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        _ = try ledger.expense(alice, 1250, on: "2026-10-03")
        let before = try fingerprint(ledger, alice)
        try ledger.execute("UPDATE users SET email = 'alice.new@example.org' WHERE id = ?", [alice])
        XCTAssertEqual(try fingerprint(ledger, alice), before)
        try ledger.execute("UPDATE users SET username = 'alice.b' WHERE id = ?", [alice])
        XCTAssertNotEqual(try fingerprint(ledger, alice), before, "the username is on the statement")
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
