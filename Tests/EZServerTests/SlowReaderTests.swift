import EZServer
import Foundation
import XCTest

/// Clients that ask for a file and then read it slowly or not at all: a finished response is held
/// until it is read, so such readers could take the server's memory (many never-read 18 MB
/// exports took it to 600–880 MB). What they may hold is bounded, and one that takes nothing for
/// the idle timeout is dropped.
final class SlowReaderTests: XCTestCase {
    private var fixture: ServerFixture!

    /// ~45,000 rows for alice in 2026-09: her transaction CSV is several megabytes, more than the
    /// socket buffers between a client that does not read and the server can absorb.
    override func setUp() async throws {
        fixture = try ServerFixture()
        try fixture.ledger.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 45000)
            INSERT INTO transactions (user_id, balance_id, kind, amount_minor, currency, occurred_at, method, description, created_at)
            SELECT \(fixture.alice), \(fixture.alice), 'expense', 100 + i, 'EUR', '2026-09-15T12:00:00+02:00', 'card',
                   'A fairly long description so that each row of the export takes about a hundred bytes ' || i,
                   '2026-09-15T12:00:00+02:00' FROM n
            """)
    }

    /// A client that never reads its export holds it; while it does, with a limit below its size,
    /// another render is refused with 503 and `Retry-After`; once the idle timeout drops that
    /// client, the next request is served.
    func testAResponseNobodyReadsHoldsBackNewRendersUntilItsClientIsDropped() async throws {
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) {
            $0.idleTimeout = .seconds(5)
            $0.unsentResponseLimit = 1024 * 1024
        }
        let token = try await fixture.token(fixture.alice)
        let other = try await fixture.token(fixture.dave)
        let stalled = try RawConnection(port: server.port, receiveBuffer: 4096)
        try stalled.send("GET /v1/users/\(fixture.alice)/transactions.csv?from=2026-09-01&to=2026-09-30 HTTP/1.1\r\n"
                         + "Host: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
        // Until its render is done, other renders are served; then they are refused.
        var refused: (status: Int, retryAfter: String?)?
        let start = ContinuousClock.now
        while refused == nil, ContinuousClock.now - start < .seconds(30) {
            let answer = try await server.get("/v1/users/\(fixture.dave)/statistics?from=2026-09-01&to=2026-09-30", token: other)
            if answer.status.code == 503 { refused = (503, answer.headers[.retryAfter]) }
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTAssertEqual(refused?.status, 503, "a render was admitted while an unread export held more than the limit")
        XCTAssertNotNil(refused?.retryAfter)
        // The stalled client is dropped after the idle timeout, its response unsent: reading now
        // takes what the socket buffers held, then the end of the connection. The timeout counts
        // from the last write the socket took, which on a loaded machine can come a few seconds
        // after the refusal above (a CI run once read the whole response after 6 s): wait 10.
        try await Task.sleep(for: .seconds(10))
        let dropped = stalled.readUntilClosed(timeout: .seconds(20))
        XCTAssertTrue(dropped.closed, "a client that read nothing was kept")
        let head = try XCTUnwrap(dropped.text.components(separatedBy: "\r\n\r\n").first)
        let length = try XCTUnwrap(head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }, head)
        let declared = try XCTUnwrap(Int(length.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)))
        XCTAssertLessThan(dropped.text.utf8.count - head.utf8.count - 4, declared, "the whole response reached the client: nothing was held")
        try await Task.sleep(for: .milliseconds(200))
        let after = try await server.get("/v1/users/\(fixture.dave)/statistics?from=2026-09-01&to=2026-09-30", token: other)
        XCTAssertEqual(after.status.code, 200)
        await server.stop()
    }

    /// A slow reader that keeps taking bytes is not dropped: it receives its whole export, the
    /// same bytes a fast client gets.
    func testASlowReaderThatKeepsReadingGetsTheWholeResponse() async throws {
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) {
            $0.idleTimeout = .seconds(2)
        }
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/transactions.csv?from=2026-09-01&to=2026-09-30"
        let fast = try await server.get(path, token: token)
        XCTAssertEqual(fast.status.code, 200)
        let slow = try RawConnection(port: server.port, receiveBuffer: 4096)
        try slow.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
        let received = slow.readSlowly(pause: .milliseconds(50), chunk: 128 * 1024, timeout: .seconds(90))
        XCTAssertTrue(received.closed)
        let headEnd = try XCTUnwrap(Data(received.bytes).range(of: Data("\r\n\r\n".utf8)))
        let body = Array(Data(received.bytes)[headEnd.upperBound...])
        XCTAssertEqual(body.count, fast.bytes.count, "the slow reader's body is not the whole response")
        XCTAssertTrue(body == fast.bytes, "the slow reader's body differs from the fast one's")
        XCTAssertGreaterThan(received.elapsed, .seconds(1), "the reader was not slow enough to test anything")
        await server.stop()
    }
}
