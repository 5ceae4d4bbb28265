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

    /// One account's requests leave as many places in the pool as it has threads to the others:
    /// one user looping long PDFs kept it full, and every other user was answered 503 (outside
    /// server test).
    func testOneAccountLeavesPlacesInThePoolAndAnotherIsStillServed() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) {
            $0.maxConcurrent = 2
            $0.queueLimit = 4   // room for 6; alice may hold 4, leaving 2
            $0.renderDelay = .milliseconds(600)
        }
        let alice = try await fixture.token(fixture.alice)
        let bob = try await fixture.token(fixture.bob)
        let alicePath = "/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let bobPath = "/v1/users/\(fixture.bob)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let (flood, other) = try await withThrowingTaskGroup(of: (String, Int, String).self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let r = try await server.get(alicePath, token: alice)
                    return ("alice", Int(r.status.code), String(decoding: r.bytes, as: UTF8.self))
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(200))   // once alice's requests fill her share
                let r = try await server.get(bobPath, token: bob)
                return ("bob", Int(r.status.code), "")
            }
            var flood: [(Int, String)] = [], other: [Int] = []
            for try await (who, status, body) in group {
                if who == "alice" { flood.append((status, body)) } else { other.append(status) }
            }
            return (flood, other)
        }
        await server.stop()
        XCTAssertEqual(flood.filter { $0.0 == 200 }.count, 4, "\(flood.map { $0.0 })")
        let refused = flood.filter { $0.0 == 503 }
        XCTAssertEqual(refused.count, 2, "\(flood.map { $0.0 })")
        XCTAssertTrue(refused.allSatisfy { $0.1.contains("too many of this account's reports") }, "\(refused)")
        XCTAssertEqual(other, [200], "another account is served while the first floods")
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
