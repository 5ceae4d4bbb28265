import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// `/readyz`'s check of the ledger, bounded in time: a ledger that stops answering (a
/// PostgreSQL server frozen or cut off by the network, a file on a hung mount) is not ready,
/// and the probe says so within ``timeout`` instead of waiting with it for minutes.
///
/// One check runs at a time, on a thread of its own (a hung read must not hold a thread of the
/// pool every request shares). A probe that comes while one is running takes that check's
/// answer, waiting for it up to its own ``timeout``: concurrent probes of a quiet ledger (two
/// kubelets, a load balancer's health checks) were answered "did not answer in time" at once, in
/// 1–4 ms (outside live-ledger test). The next probe after a check returns checks again, so
/// readiness comes back by itself when the ledger does.
package final class ReadinessCheck: Sendable {
    /// How long a probe waits for the check.
    package let timeout: TimeAmount
    private let state = Mutex(State())

    /// The check in flight, if any, and the probes waiting for its answer.
    private struct State {
        var running = false
        var next = 0
        var waiting: [Int: Waiter] = [:]
    }

    /// A probe waiting for the check's answer, and its own time limit.
    private struct Waiter {
        let answer: @Sendable (Outcome) -> Void
        var timer: Scheduled<Void>?
    }

    package init(timeout: TimeAmount = .seconds(5)) { self.timeout = timeout }

    /// What a probe found.
    package enum Outcome: Equatable, Sendable {
        /// The check said ready in time.
        case ready
        /// The check answered in time: not ready (the ledger cannot be opened, read or checked).
        case failed
        /// The check did not answer within ``timeout``: the ledger is held (a writer's lock on a
        /// rollback-journal file) or hung (a frozen server, a hung mount).
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
    /// in time. A check already running is waited for, not started again.
    package func check(_ check: @escaping @Sendable () -> Bool) async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let answered = Mutex(false)
            let answer: @Sendable (Outcome) -> Void = { outcome in
                let first = answered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: outcome) }
            }
            let (id, starts) = state.withLock { state -> (Int, Bool) in
                let id = state.next
                state.next += 1
                state.waiting[id] = Waiter(answer: answer, timer: nil)
                defer { state.running = true }
                return (id, !state.running)
            }
            let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: timeout) { [self] in
                _ = state.withLock { $0.waiting.removeValue(forKey: id) }
                answer(.noAnswer)
            }
            let armed = state.withLock { state -> Bool in
                guard state.waiting[id] != nil else { return false }
                state.waiting[id]?.timer = timer
                return true
            }
            if !armed { timer.cancel() }   // already answered
            guard starts else { return }
            Thread.detachNewThread { [self] in
                let outcome: Outcome = check() ? .ready : .failed
                let waiting = state.withLock { state -> [Waiter] in
                    defer { state.waiting = [:]; state.running = false }
                    return Array(state.waiting.values)
                }
                for waiter in waiting {
                    waiter.timer?.cancel()
                    waiter.answer(outcome)
                }
            }
        }
    }
}
