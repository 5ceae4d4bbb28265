import EZServer
import Foundation
import GRDB
import HTTPTypes
import XCTest

/// ETags and conditional requests.
final class CachingTests: LiveServerTestCase {
    func testTheCurrentETagAnswers304AndAStaleOne200() async throws {
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09.pdf?as_of=2026-10-01"
        let first = try await server.get(path, token: token)
        let tag = try XCTUnwrap(first.headers[.eTag])
        let again = try await server.get(path, token: token, headers: [.ifNoneMatch: tag])
        XCTAssertEqual(again.status, .notModified)
        XCTAssertEqual(again.headers[.eTag], tag)
        XCTAssertTrue(again.bytes.isEmpty)
        let stale = try await server.get(path, token: token, headers: [.ifNoneMatch: "\"0000\""])
        XCTAssertEqual(stale.status, .ok)
        XCTAssertEqual(stale.bytes, first.bytes)
    }

    /// The admin usage report answers 304 to its current ETag while the ledger file is unchanged
    /// (the caching rule holds for every file response), and still 403 for a non-admin.
    func testTheAdminUsageReportAnswers304ToItsCurrentETag() async throws {
        let token = try await fixture.token(fixture.root)
        for ext in ["csv", "json", "pdf"] {
            let path = "/v1/admin/usage/2026-09.\(ext)?as_of=2026-10-01"
            let first = try await server.get(path, token: token)
            XCTAssertEqual(first.status, .ok, ext)
            let tag = try XCTUnwrap(first.headers[.eTag])
            let again = try await server.get(path, token: token, headers: [.ifNoneMatch: tag])
            XCTAssertEqual(again.status, .notModified, ext)
            XCTAssertEqual(again.headers[.eTag], tag, ext)
            XCTAssertTrue(again.bytes.isEmpty, ext)
            let stranger = try await server.get(path, token: try await fixture.token(fixture.alice), headers: [.ifNoneMatch: tag])
            XCTAssertEqual(stranger.status, .forbidden, "a known ETag is no way around the role: \(ext)")
        }
    }

    /// Under WAL the app's commits go to the -wal file and leave the main file as it was until a
    /// checkpoint: the admin report, keyed on the file's digest alone, answered 304 to the ETag
    /// of the figures before the commit. It now renders the new figures.
    func testTheAdminReportSeesACommitThatIsStillInTheWAL() async throws {
        let app = try DatabaseQueue(path: fixture.ledger.path)
        defer { try? app.close() }
        try await app.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")   // the commit stays in the -wal file
        }
        // Five more spenders, so that September's volume is shown, not withheld: each spends under
        // "Food" (listed) and under a name of their own, so that five users or more spent outside
        // the listed categories too.
        for n in 1...5 {
            let id = try fixture.ledger.user("spender\(n)")
            try fixture.ledger.expense(id, 1_000 * Int64(n), on: "2026-09-1\(n)T12:00:00+02:00", category: try fixture.ledger.category(id, "Food"))
            try fixture.ledger.expense(id, 100, on: "2026-09-1\(n)T13:00:00+02:00", category: try fixture.ledger.category(id, "Hobby \(n)"))
        }
        let token = try await fixture.token(fixture.root)
        let path = "/v1/admin/usage/2026-09.json?as_of=2026-10-01"
        let first = try await server.get(path, token: token)
        let tag = try XCTUnwrap(first.headers[.eTag])
        let main = try Data(contentsOf: URL(fileURLWithPath: fixture.ledger.path))
        try await app.write { db in
            try db.execute(sql: "UPDATE transactions SET amount_minor = amount_minor + 123456789 WHERE id = (SELECT MIN(id) FROM transactions WHERE kind = 'expense' AND occurred_at >= '2026-09-05' AND occurred_at < '2026-09-25')")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fixture.ledger.path)), main, "the commit is in the -wal file only")
        let after = try await server.get(path, token: token, headers: [.ifNoneMatch: tag])
        XCTAssertEqual(after.status, .ok)
        XCTAssertNotEqual(after.headers[.eTag], tag)
        XCTAssertNotEqual(after.bytes, first.bytes)
    }

    func testAChangeToTheUsersRowsChangesTheETag() async throws {
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09/transactions.csv?as_of=2026-10-01"
        let first = try await server.get(path, token: token)
        let tag = try XCTUnwrap(first.headers[.eTag])
        try fixture.ledger.expense(fixture.alice, 777, on: "2026-09-20T12:00:00+02:00", description: "New row")
        let after = try await server.get(path, token: token, headers: [.ifNoneMatch: tag])
        XCTAssertEqual(after.status, .ok)
        XCTAssertNotEqual(after.headers[.eTag], tag)
        XCTAssertTrue(after.text.contains("New row"))
    }
}
