import EZServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import XCTest

/// Every route is a read-only resource: HEAD answers like GET without the body, other methods
/// get 405 with `Allow`, and a path that is no route stays 404.
final class MethodTests: LiveServerTestCase {
    func testHeadAnswersWithGetsStatusAndHeadersAndNoBody() async throws {
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09.pdf?as_of=2026-10-01"
        let get = try await server.get(path, token: token)
        let head = try await server.request(.head, path, token: token)
        let health = try await server.request(.head, "/healthz")
        let anonymous = try await server.request(.head, path)
        XCTAssertEqual(get.status, .ok)
        XCTAssertEqual(head.status, .ok)
        XCTAssertEqual(head.headers[.eTag], get.headers[.eTag])
        XCTAssertEqual(head.headers[.contentType], "application/pdf")
        XCTAssertEqual(head.headers[.contentLength], String(get.bytes.count))
        XCTAssertTrue(head.bytes.isEmpty)
        XCTAssertEqual(health.status, .ok)
        XCTAssertEqual(anonymous.status, .unauthorized, "HEAD needs the same token as GET")
    }

    func testOtherMethodsOnAResourceAnswer405WithAllowAndUnknownPathsStay404() async throws {
        let token = try await fixture.token(fixture.alice)
        var refused: [(HTTPRequest.Method, String, TestClient.Response)] = []
        // WebDAV's and the other methods the HTTP parser knows answered 404 ("no such route").
        let others = ["PROPFIND", "MKCOL", "COPY", "LOCK", "SEARCH", "PURGE", "REPORT", "M-SEARCH", "SUBSCRIBE"]
            .compactMap { HTTPRequest.Method($0) }
        for method: HTTPRequest.Method in [.post, .put, .patch, .delete, .options, .trace] + others {
            for path in ["/healthz", "/v1/users/\(fixture.alice)/statistics", "/v1/users/\(fixture.alice)/statement/2026-09.pdf"] {
                refused.append((method, path, try await server.request(method, path, token: token)))
            }
        }
        let unknown = try await server.request(.post, "/v1/nothing-here", token: token)
        for (method, path, response) in refused {
            XCTAssertEqual(response.status, .methodNotAllowed, "\(method) \(path)")
            XCTAssertEqual(response.headers[.allow], "GET, HEAD", "\(method) \(path)")
            XCTAssertEqual(response.headers[.contentType], "application/problem+json")
            XCTAssertEqual(try response.json()["status"] as? Int, 405)
        }
        XCTAssertEqual(unknown.status, .notFound)
    }
}
