@testable import EZServer
import Synchronization
import XCTest

/// The render pool's time limit: armed while a render runs, disarmed as soon as it ends.
final class RenderPoolTests: XCTestCase {
    /// A render that ended must not leave its 30-second timer (and what it holds) behind: under
    /// load, thousands of them kept the server's memory growing (issue 14's RSS target).
    func testAFinishedRenderLeavesNoTimeLimitArmed() async throws {
        let pool = RenderPool(threads: 2, queueLimit: 30, timeout: .seconds(30))
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<30 { group.addTask { try await pool.run { (0...n).reduce(0, +) } } }
            var out: [Int] = []
            for try await s in group { out.append(s) }
            return out.sorted()
        }
        XCTAssertEqual(sums, (0..<30).map { $0 * ($0 + 1) / 2 })
        let deadline = ContinuousClock.now + .seconds(2)
        while pool.pendingDeadlines > 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        XCTAssertEqual(pool.pendingDeadlines, 0, "a finished render's time limit is still armed")
        try await pool.shutdown()
    }

    func testARunningRenderHasItsTimeLimitArmed() async throws {
        let pool = RenderPool(threads: 1, queueLimit: 0, timeout: .seconds(30), delay: .milliseconds(400))
        async let result = pool.run { 7 }
        try await Task.sleep(for: .milliseconds(150))
        XCTAssertEqual(pool.pendingDeadlines, 1)
        let value = try await result
        XCTAssertEqual(value, 7)
        try await pool.shutdown()
    }

    /// Requests still queued when their time ran out were answered 503 and then rendered anyway,
    /// holding the thread while fresh requests waited (an outside test saw a statistics request
    /// take 10.9 s after a burst). Work whose request was answered is now dropped unrun.
    func testWorkWhoseRequestTimedOutInTheQueueIsNeverRun() async throws {
        let pool = RenderPool(threads: 1, queueLimit: 4, timeout: .milliseconds(300))
        let ran = Ran()
        let results = await withTaskGroup(of: Bool.self) { group in
            for n in 0..<3 {
                group.addTask {
                    do {
                        _ = try await pool.run { ran.add(n); Thread.sleep(forTimeInterval: 0.5); return n }
                        return true
                    } catch { return false }
                }
            }
            var out: [Bool] = []
            for await r in group { out.append(r) }
            return out
        }
        XCTAssertEqual(results.filter { $0 }.count, 0, "each was answered 503 at its 300 ms limit")
        try await Task.sleep(for: .milliseconds(1_200))
        XCTAssertEqual(ran.count, 1, "only the render a thread had already taken up ran; the queued ones were dropped")
        try await pool.shutdown()
    }
}

private final class Ran: Sendable {
    private let started = Mutex<[Int]>([])
    func add(_ n: Int) { started.withLock { $0.append(n) } }
    var count: Int { started.withLock { $0.count } }
}
