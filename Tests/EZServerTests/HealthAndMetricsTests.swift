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

    /// A statement's PDF and workbook share one router template (`{period}` captures
    /// `2026-09.pdf`), but an operator needs their latencies apart: the route label carries the
    /// format, and only a format the server serves, so a path of the client's cannot add labels.
    func testMetricsCountEachFormatOfAStatementUnderItsOwnRoute() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        // The metrics are the process's: other tests' requests count too, so compare before and after.
        func counts() async throws -> [Substring] {
            try await server.get("/metrics").text.split(separator: "\n").filter { $0.hasPrefix("hb_requests{") }
        }
        func count(_ lines: [Substring], _ route: String, _ status: String) -> Int {
            lines.first { $0.contains("http_route=\"\(route)\"") && $0.contains("\"GET\"") && $0.contains("\"\(status)\"") }
                .flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
        }
        let before = try await counts()
        for file in ["2026-09.pdf", "2026-09.xlsx", "2026-09.xlsx", "2026-09.weird-client-text"] {
            _ = try await server.get("/v1/users/\(fixture.alice)/statement/\(file)?as_of=2026-10-01", token: token)
        }
        let lines = try await counts()
        await server.stop()
        for (route, status, added) in [("/v1/users/{id}/statement/{period}.pdf", "200", 1), ("/v1/users/{id}/statement/{period}.xlsx", "200", 2),
                                       ("/v1/users/{id}/statement/{period}", "400", 1)] {
            XCTAssertEqual(count(lines, route, status) - count(before, route, status), added, "\(route) \(status): \(lines.joined(separator: "\n"))")
        }
        XCTAssertFalse(lines.contains { $0.contains("weird") }, lines.joined(separator: "\n"))
    }
}
