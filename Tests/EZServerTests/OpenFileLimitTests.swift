import EZTestSupport
import Foundation
import XCTest

/// A server started with the usual soft limit of open files (systemd's 1,024) holds one
/// descriptor per connection; idle connections used to exhaust it, and then nobody was answered.
final class OpenFileLimitTests: XCTestCase {
    func testIdleConnectionsBeyondTheSoftLimitItStartedWithDoNotLockOthersOut() async throws {
        let fixture = try ServerFixture()
        // The server inherits a soft limit of 128 descriptors, as it would from its supervisor.
        let server = try await ServeProcess(fixture: fixture, shellSetUp: "ulimit -Sn 128")
        let limits = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/limits", encoding: .utf8)
        let line = try XCTUnwrap(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)   // Max open files SOFT HARD files
        guard let hard = Int(fields[4]), hard >= 1_024 else { throw XCTSkip("the hard limit here is too low to test: \(line)") }
        XCTAssertEqual(fields[3], fields[4], "the soft limit is raised to the hard one: \(line)")
        XCTAssertTrue(server.stderr.contains("open file limit raised"), server.stderr)

        // 300 connections left idle, more than the 128 descriptors the server started with.
        let idle = try (0..<300).map { _ in try RawConnection(port: server.port) }
        try await Task.sleep(for: .milliseconds(200))
        let response = try await TestClientRequest.get(port: server.port, "/healthz")
        XCTAssertEqual(response.status, .ok)
        XCTAssertEqual(idle.count, 300)
        try await server.stop()
    }
}
