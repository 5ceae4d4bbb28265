import EZServer
import EZTestSupport
import Foundation
import HTTPTypes
import XCTest

/// The ledger is live: replaced files are reopened, an unreadable one makes the server
/// unready (503) until it is good again.
final class LiveLedgerTests: XCTestCase {
    func testAReplacedLedgerIsReopenedByTheNextRequest() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09/transactions.csv?as_of=2026-10-01"
        let before = try await server.get(path, token: token)
        XCTAssertFalse(before.text.contains("Replaced row"))

        // The app's atomic save: a new file renamed over the old one (a new inode).
        let copy = fixture.ledger.path + ".new"
        try fixture.ledger.expense(fixture.alice, 4242, on: "2026-09-21T12:00:00+02:00", description: "Replaced row")
        try await fixture.ledger.db.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copy]) }
        XCTAssertEqual(rename(copy, fixture.ledger.path), 0)

        let after = try await server.get(path, token: token)
        let metrics = try await server.get("/metrics")
        await server.stop()
        XCTAssertEqual(after.status, .ok)
        XCTAssertTrue(after.text.contains("Replaced row"))
        XCTAssertTrue(metrics.text.contains("ezreport_ledger_reopens_total"), metrics.text)
    }

    /// The app may add the contract's optional columns in place (`ALTER TABLE users ADD COLUMN
    /// month_start_day`): the server went on as if the column did not exist until it was
    /// restarted, its statements no longer `export`'s (outside live-ledger test). A schema
    /// changed in place is opened again by the next request.
    func testAnOptionalColumnTheAppAddsInPlaceIsSeenByTheNextRequest() async throws {
        let fixture = try ServerFixture()
        try await fixture.ledger.db.writeWithoutTransaction { db in try db.execute(sql: "ALTER TABLE users DROP COLUMN month_start_day") }
        try fixture.ledger.expense(fixture.alice, 1111, on: "2026-08-28T12:00:00+02:00", description: "Late August row")
        try fixture.ledger.expense(fixture.alice, 2222, on: "2026-09-27T12:00:00+02:00", description: "Late September row")
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09/transactions.csv?as_of=2026-10-31"
        let before = try await server.get(path, token: token)
        XCTAssertEqual(before.status, .ok)
        XCTAssertFalse(before.text.contains("Late August row"), before.text)
        XCTAssertTrue(before.text.contains("Late September row"), before.text)

        let alice = fixture.alice
        try await fixture.ledger.db.writeWithoutTransaction { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN month_start_day INTEGER")
            try db.execute(sql: "UPDATE users SET month_start_day = 25 WHERE id = ?", arguments: [alice])
        }
        let after = try await server.get(path, token: token)
        await server.stop()
        XCTAssertEqual(after.status, .ok)
        // Her September now runs from 25 August to 24 September, as export's does.
        XCTAssertTrue(after.text.contains("Late August row"), "the month still runs as a calendar month: \(after.text)")
        XCTAssertFalse(after.text.contains("Late September row"), after.text)
    }

    func testARateTheAppWritesToTheLiveLedgerIsUsedWithoutAReopen() async throws {
        let fixture = try ServerFixture()
        try fixture.ledger.rate("2026-09-01", "USD", "EUR", 0.9)
        try fixture.ledger.expense(fixture.alice, 10_000, on: "2026-09-15T12:00:00+02:00", currency: "USD", description: "Dollar book")
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statistics?from=2026-09-15&to=2026-09-15"
        let before = try await server.get(path, token: token).json()

        // The app writes a newer rate into the same file (no new inode, no reopen).
        try fixture.ledger.rate("2026-09-10", "USD", "EUR", 0.5)
        var after: [String: Any] = [:]
        for _ in 0..<20 {   // the rates are looked at again at most once per LiveRates.recheckInterval
            after = try await server.get(path, token: token).json()
            if after["expenses_minor"] as? Int != before["expenses_minor"] as? Int { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        let metrics = try await server.get("/metrics")
        await server.stop()
        XCTAssertEqual(before["expenses_minor"] as? Int, 9_000, "$100.00 at 0.9")
        XCTAssertEqual(after["expenses_minor"] as? Int, 5_000, "$100.00 at the newer 0.5")
        XCTAssertFalse(metrics.text.contains("ezreport_ledger_reopens_total 1"), "seen without reopening the file")
    }

    func testAnUnreadableLedgerMakesTheServerUnreadyUntilItIsGoodAgain() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let ready = try await server.get("/readyz")
        XCTAssertEqual(ready.status, .ok)

        let aside = fixture.ledger.path + ".aside"
        XCTAssertEqual(rename(fixture.ledger.path, aside), 0)
        let broken = fixture.ledger.path
        XCTAssertTrue(FileManager.default.createFile(atPath: broken, contents: Data("this is not a database, only text".utf8)), "could not create \(broken)")
        let unready = try await server.get("/readyz")
        let refused = try await server.get(path, token: token)
        let alive = try await server.get("/healthz")

        XCTAssertEqual(rename(aside, fixture.ledger.path), 0)
        let readyAgain = try await server.get("/readyz")
        let served = try await server.get(path, token: token)
        await server.stop()

        XCTAssertEqual(unready.status, .serviceUnavailable)
        XCTAssertEqual(unready.headers[.contentType], "application/problem+json")
        XCTAssertEqual(refused.status, .serviceUnavailable)
        XCTAssertNotNil(refused.headers[.retryAfter])
        XCTAssertEqual(alive.status, .ok)
        XCTAssertEqual(readyAgain.status, .ok)
        XCTAssertEqual(served.status, .ok)
    }

    /// A ledger that was unusable for a while (garbage where the file was, seen by `/readyz`) and
    /// then good again (a new file) was opened again, but `ezreport_ledger_reopens_total` did not
    /// count it: only a replacement of a healthy file was.
    func testARecoveryAfterAnUnusableLedgerCountsAsAReopen() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let first = try await server.get(path, token: token)
        XCTAssertEqual(first.status, .ok)
        let aside = fixture.ledger.path + ".aside"
        XCTAssertEqual(rename(fixture.ledger.path, aside), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: fixture.ledger.path, contents: Data("not a database".utf8)), "could not create \(fixture.ledger.path)")
        let unready = try await server.get("/readyz")
        let missing = try await server.get(path, token: token)
        try FileManager.default.removeItem(atPath: fixture.ledger.path)
        try FileManager.default.copyItem(atPath: aside, toPath: fixture.ledger.path)   // good again, as a new file
        let served = try await server.get(path, token: token)
        let metrics = try await server.get("/metrics")
        await server.stop()
        XCTAssertEqual(unready.status, .serviceUnavailable)
        XCTAssertEqual(missing.status, .serviceUnavailable)
        XCTAssertEqual(served.status, .ok)
        XCTAssertTrue(metrics.text.contains("ezreport_ledger_reopens_total 1"), metrics.text)
    }

    /// An operator must see why the server is unready, once per outage and not once per request:
    /// a missing ledger file is logged with the system's reason, then the reopening when it is back.
    func testAMissingLedgerIsLoggedOncePerOutageWithItsReason() async throws {
        let fixture = try ServerFixture()
        let server = try await ServeProcess(fixture: fixture, extra: ["--log-format", "json"])
        let aside = fixture.ledger.path + ".aside"
        XCTAssertEqual(rename(fixture.ledger.path, aside), 0)
        var unready: [Int] = []
        for _ in 0..<3 { unready.append(Int(try await TestClientRequest.get(port: server.port, "/readyz").status.code)) }
        XCTAssertEqual(rename(aside, fixture.ledger.path), 0)
        let readyAgain = try await TestClientRequest.get(port: server.port, "/readyz")
        let exit = try await server.stop()

        XCTAssertEqual(exit, 0)
        XCTAssertEqual(unready, [503, 503, 503])
        XCTAssertEqual(readyAgain.status, .ok)
        let lines = server.stderr.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        let warnings = lines.filter { $0["message"] as? String == "ledger unavailable" }
        XCTAssertEqual(warnings.count, 1, server.stderr)
        let reason = warnings.first?["reason"] as? String ?? ""
        XCTAssertTrue(reason.contains(fixture.ledger.path) && reason.contains("No such file or directory"), reason)
        let warned = lines.firstIndex { $0["message"] as? String == "ledger unavailable" } ?? Int.max
        XCTAssertTrue(lines.indices.contains { $0 > warned && lines[$0]["message"] as? String == "ledger opened" },
                      "the reopening after the outage is logged too: \(server.stderr)")
    }
    /// A user whose own row breaks the contract (here an unknown role) gets 422, a problem that
    /// says retrying will not help, not a 503 with Retry-After; anyone else still gets the 404 of
    /// an id that does not exist.
    func testAnAccountWhoseRowBreaksTheContractIs422NotARetryable503() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        try fixture.ledger.execute("UPDATE users SET role = 'Admin' WHERE id = ?", [fixture.alice])
        let own = try await server.get("/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30", token: token)
        XCTAssertEqual(own.status, .unprocessableContent, own.text)
        XCTAssertNil(own.headers[.retryAfter])
        XCTAssertEqual(own.headers[.contentType], "application/problem+json")
        XCTAssertFalse(own.text.contains("Admin"), "the row's contents stay out of the answer: \(own.text)")
        let stranger = try await server.get("/v1/users/\(fixture.alice)/statistics", token: try await fixture.token(fixture.dave))
        XCTAssertEqual(stranger.status, .notFound)
        let ready = try await server.get("/readyz")
        XCTAssertEqual(ready.status, .ok, "one bad account is not a broken ledger")
        await server.stop()
    }
    /// A user whose `deleted_at` cannot be a timestamp ('': "not deleted" to some apps) is neither
    /// deleted nor live: their row is quarantined, so their own request gets the 422 of a row that
    /// breaks the contract, not the 401 of a deleted account (an app would sign them out).
    func testAnUnreadableDeletionIs422NotA401() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        try fixture.ledger.execute("UPDATE users SET deleted_at = '' WHERE id = ?", [fixture.alice])
        let own = try await server.get("/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30", token: token)
        XCTAssertEqual(own.status, .unprocessableContent, own.text)
        XCTAssertNil(own.headers[.wwwAuthenticate])
        await server.stop()
    }
}
