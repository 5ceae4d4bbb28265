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
        let hung = await readiness.isReady {
            while !release.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
            return true
        }
        XCTAssertFalse(hung)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "the probe waited for the hung check")
        let whileHung = Date()
        let calls = Mutex(0)
        let second = await readiness.isReady { calls.withLock { $0 += 1 }; return true }
        XCTAssertFalse(second, "not ready while the earlier check still waits")
        XCTAssertEqual(calls.withLock { $0 }, 0, "no second check was started beside the hung one")
        XCTAssertLessThan(Date().timeIntervalSince(whileHung), 0.5)
        release.withLock { $0 = true }
        var recovered = false
        for _ in 0..<100 where !recovered {
            recovered = await readiness.isReady { true }
            if !recovered { try await Task.sleep(for: .milliseconds(20)) }
        }
        XCTAssertTrue(recovered, "ready again once the ledger answers")
    }
}
