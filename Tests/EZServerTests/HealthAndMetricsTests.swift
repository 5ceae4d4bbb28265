import EZServer
import Foundation
import HTTPTypes
import XCTest

/// /healthz, /readyz and /metrics need no token and reveal no user data.
final class HealthAndMetricsTests: XCTestCase {
    func testHealthReadinessAndMetricsAnswerWithoutATokenAndWithoutUserData() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        _ = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01",
                                 token: try await fixture.token(fixture.alice))
        let health = try await server.get("/healthz")
        let ready = try await server.get("/readyz")
        let metrics = try await server.get("/metrics")
        await server.stop()
        XCTAssertEqual(health.status, .ok)
        XCTAssertEqual(ready.status, .ok)
        XCTAssertEqual(metrics.status, .ok)
        let text = metrics.text
        XCTAssertTrue(text.contains("hb_requests"), text)
        XCTAssertTrue(text.contains("/v1/users/{id}/statement/{period}/{name}"), text)
        XCTAssertTrue(text.contains("http_server_request_duration"), text)
        XCTAssertTrue(text.contains("ezreport_renders_in_flight"), text)
        XCTAssertFalse(text.contains("alice"))
        XCTAssertFalse(text.contains("/v1/users/\(fixture.alice)/"))
    }
}
