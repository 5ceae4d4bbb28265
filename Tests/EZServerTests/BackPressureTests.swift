import EZServer
import Foundation
import HTTPTypes
import XCTest

/// At most --max-concurrent renders, a bounded queue, 503 + Retry-After beyond, and a time limit.
final class BackPressureTests: XCTestCase {
    func testRequestsBeyondTheQueueGet503WithRetryAfter() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) {
            $0.maxConcurrent = 1
            $0.queueLimit = 1
            $0.renderDelay = .milliseconds(800)
        }
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<5 {
                group.addTask {
                    let r = try await server.get(path, token: token)
                    return (Int(r.status.code), r.headers[.retryAfter])
                }
            }
            var out: [(Int, String?)] = []
            for try await s in group { out.append(s) }
            return out
        }
        await server.stop()
        XCTAssertEqual(statuses.filter { $0.0 == 200 }.count, 2, "\(statuses)")
        let refused = statuses.filter { $0.0 == 503 }
        XCTAssertEqual(refused.count, 3, "\(statuses)")
        XCTAssertTrue(refused.allSatisfy { $0.1 == "1" })
    }

    func testARequestOverTheTimeLimitIsCutWith503() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) {
            $0.requestTimeout = .milliseconds(300)
            $0.renderDelay = .milliseconds(1500)
        }
        let started = ContinuousClock.now
        let response = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09.pdf?as_of=2026-10-01",
                                            token: try await fixture.token(fixture.alice))
        let elapsed = ContinuousClock.now - started
        await server.stop()
        XCTAssertEqual(response.status, .serviceUnavailable)
        XCTAssertNotNil(response.headers[.retryAfter])
        XCTAssertLessThan(elapsed, .milliseconds(1400))
    }
}
