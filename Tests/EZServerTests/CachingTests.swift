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
