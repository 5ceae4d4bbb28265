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

    /// Whether `check` says ready within ``timeout`` (false when it does not answer in time, or
    /// when an earlier check is still waiting).
    package func isReady(_ check: @escaping @Sendable () -> Bool) async -> Bool {
        let started = running.withLock { running -> Bool in
            guard !running else { return false }
            running = true
            return true
        }
        guard started else { return false }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answered = Mutex(false)
            @Sendable func answer(_ ready: Bool) {
                let first = answered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: ready) }
            }
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: timeout) { answer(false) }
            Thread.detachNewThread {
                let ready = check()
                self.running.withLock { $0 = false }
                timer.cancel()
                answer(ready)
            }
        }
    }
}
