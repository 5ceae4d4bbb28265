import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import EZBatch

/// Ordinary statements render side by side; a large one waits for those in progress, runs alone,
/// and holds off new ones until it ends, so that a batch's peak memory is its largest statement's.
final class RenderGateTests: XCTestCase {
    /// Enters the gate on another thread, records when it got in, and leaves when `release` is signalled.
    private final class Visitor: Sendable {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let left = DispatchSemaphore(value: 0)

        init(_ gate: RenderGate, exclusive: Bool) {
            Thread.detachNewThread { [self] in
                let pass = gate.enter(exclusive: exclusive)
                entered.signal()
                release.wait()
                gate.leave(pass)
                left.signal()
            }
        }

        /// Whether the visitor got in within `seconds`.
        func hasEntered(within seconds: Double) -> Bool { entered.wait(timeout: .now() + seconds) == .success }
        func leave() {
            release.signal()
            XCTAssertEqual(left.wait(timeout: .now() + 10), .success)
        }
    }

    func testOrdinaryRendersRunSideBySideUpToTheWorkers() {
        let gate = RenderGate(workers: 2)
        let a = Visitor(gate, exclusive: false), b = Visitor(gate, exclusive: false)
        XCTAssertTrue(a.hasEntered(within: 10))
        XCTAssertTrue(b.hasEntered(within: 10), "two workers render at once")
        let c = Visitor(gate, exclusive: false)
        XCTAssertFalse(c.hasEntered(within: 0.3), "a third waits for a free worker")
        a.leave()
        XCTAssertTrue(c.hasEntered(within: 10))
        b.leave()
        c.leave()
    }

    func testALargeRenderWaitsForThoseInProgressThenRunsAloneAndHoldsOffNewOnes() {
        let gate = RenderGate(workers: 2)
        let ordinary = Visitor(gate, exclusive: false)
        XCTAssertTrue(ordinary.hasEntered(within: 10))
        let large = Visitor(gate, exclusive: true)
        XCTAssertFalse(large.hasEntered(within: 0.3), "a large render waits for the render in progress")
        let later = Visitor(gate, exclusive: false)
        XCTAssertFalse(later.hasEntered(within: 0.3), "an ordinary render that comes after a waiting large one waits too")
        ordinary.leave()
        XCTAssertTrue(large.hasEntered(within: 10))
        XCTAssertFalse(later.hasEntered(within: 0.3), "nothing runs beside a large render")
        large.leave()
        XCTAssertTrue(later.hasEntered(within: 10))
        later.leave()
    }

    func testTwoLargeRendersRunOneAfterTheOther() {
        let gate = RenderGate(workers: 2)
        let first = Visitor(gate, exclusive: true)
        XCTAssertTrue(first.hasEntered(within: 10))
        let second = Visitor(gate, exclusive: true)
        XCTAssertFalse(second.hasEntered(within: 0.3))
        first.leave()
        XCTAssertTrue(second.hasEntered(within: 10))
        second.leave()
    }
}
