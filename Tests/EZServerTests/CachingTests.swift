import EZServer
import Foundation
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
