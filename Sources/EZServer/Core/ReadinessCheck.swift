import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// `/readyz`'s check of the ledger, bounded in time: a ledger that stops answering (a
/// PostgreSQL server frozen or cut off by the network, a file on a hung mount) is not ready,
/// and the probe says so within ``timeout`` instead of waiting with it for minutes.
///
/// One check runs at a time, on a thread of its own (a hung read must not hold a thread of the
/// pool every request shares). While one is still waiting for the ledger, later probes answer
/// "not ready" at once; the next probe after it returns checks again, so readiness comes back by
/// itself when the ledger does.
package final class ReadinessCheck: Sendable {
    /// How long a probe waits for the check.
    package let timeout: TimeAmount
    private let running = Mutex(false)

    package init(timeout: TimeAmount = .seconds(5)) { self.timeout = timeout }

    /// What a probe found.
    package enum Outcome: Equatable, Sendable {
        /// The check said ready in time.
        case ready
        /// The check answered in time: not ready (the ledger cannot be opened, read or checked).
        case failed
        /// The check did not answer within ``timeout``, or an earlier one is still waiting: the
        /// ledger is held (a writer's lock on a rollback-journal file) or hung (a frozen server,
        /// a hung mount).
        case noAnswer

        /// The problem's detail for a probe that is not ready: the two causes call for different
        /// remedies, so they are told apart (nothing else: the probe needs no token).
        package var detail: String? {
            switch self {
            case .ready: return nil
            case .failed: return "the ledger cannot be opened or fails the schema check"
            case .noAnswer: return "the ledger did not answer in time (a writer holds its lock, or the server or mount is hung)"
            }
        }
    }

    /// Whether `check` says ready within ``timeout``: ``Outcome/noAnswer`` when it does not answer
    /// in time, or when an earlier check is still waiting.
    package func check(_ check: @escaping @Sendable () -> Bool) async -> Outcome {
        let started = running.withLock { running -> Bool in
            guard !running else { return false }
            running = true
            return true
        }
        guard started else { return .noAnswer }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let answered = Mutex(false)
            @Sendable func answer(_ outcome: Outcome) {
                let first = answered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: outcome) }
            }
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: timeout) { answer(.noAnswer) }
            Thread.detachNewThread {
                let ready = check()
                self.running.withLock { $0 = false }
                timer.cancel()
                answer(ready ? .ready : .failed)
            }
        }
    }
}
