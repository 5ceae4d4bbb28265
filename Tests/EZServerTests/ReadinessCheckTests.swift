import EZServer
import Foundation
import NIOCore
import Synchronization
import XCTest

/// `/readyz` answers within its bound when the ledger stops answering (a frozen PostgreSQL
/// server held a probe for over 100 s), and checks again once the ledger is back.
final class ReadinessCheckTests: XCTestCase {
    func testAHungCheckIsNotReadyInTimeAndLaterProbesDoNotPileUp() async throws {
        let readiness = ReadinessCheck(timeout: .milliseconds(200))
        let release = Mutex(false)
        let started = Date()
        let hung = await readiness.check {
            while !release.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
            return true
        }
        XCTAssertEqual(hung, .noAnswer)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "the probe waited for the hung check")
        let whileHung = Date()
        let calls = Mutex(0)
        let second = await readiness.check { calls.withLock { $0 += 1 }; return true }
        XCTAssertEqual(second, .noAnswer, "not ready while the earlier check still waits")
        XCTAssertEqual(calls.withLock { $0 }, 0, "no second check was started beside the hung one")
        XCTAssertLessThan(Date().timeIntervalSince(whileHung), 0.5)
        release.withLock { $0 = true }
        var recovered = false
        for _ in 0..<100 where !recovered {
            recovered = await readiness.check { true } == .ready
            if !recovered { try await Task.sleep(for: .milliseconds(20)) }
        }
        XCTAssertTrue(recovered, "ready again once the ledger answers")
    }

    /// A check that answers "not ready" in time is told apart from one that does not answer: the
    /// probe's detail said "cannot be opened or fails the schema check" for a ledger a writer held
    /// locked, sending the operator to the wrong cause.
    func testAFailedCheckAndAnUnansweredOneSayDifferentThings() async throws {
        let readiness = ReadinessCheck(timeout: .milliseconds(200))
        let failed = await readiness.check { false }
        XCTAssertEqual(failed, .failed)
        XCTAssertEqual(failed.detail, "the ledger cannot be opened or fails the schema check")
        let release = Mutex(false)
        let held = await readiness.check {
            while !release.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
            return true
        }
        release.withLock { $0 = true }
        XCTAssertEqual(held, .noAnswer)
        XCTAssertTrue(held.detail?.contains("did not answer in time") ?? false, held.detail ?? "nil")
        XCTAssertNil(ReadinessCheck.Outcome.ready.detail)
    }

    /// Concurrent probes of a quiet ledger were answered "did not answer in time" at once (in
    /// 1–4 ms) whenever another probe's check was running (outside live-ledger test): a probe now
    /// takes the running check's answer, and the ledger is still checked once at a time.
    func testProbesThatComeWhileACheckRunsTakeItsAnswer() async throws {
        let readiness = ReadinessCheck(timeout: .seconds(5))
        let calls = Calls()
        let outcomes = await withTaskGroup(of: ReadinessCheck.Outcome.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await readiness.check {
                        calls.count.withLock { $0 += 1 }
                        Thread.sleep(forTimeInterval: 0.3)
                        return true
                    }
                }
            }
            var all: [ReadinessCheck.Outcome] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        XCTAssertEqual(outcomes, Array(repeating: .ready, count: 8))
        let checks = calls.count.withLock { $0 }
        XCTAssertLessThanOrEqual(checks, 2, "the probes started a check each (\(checks))")
    }
}

/// How many times a check ran, shared by concurrent probes.
private final class Calls: Sendable {
    let count = Mutex(0)
}
