import Foundation
import Metrics
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// Runs the ledger reads and renders (synchronous, CPU-bound C code) on dedicated threads, off
/// the event loops, with back-pressure: at most `threads` at once, at most `queueLimit`
/// waiting; beyond that, or after `timeout`, the request gets 503 with `Retry-After`.
///
/// Admitted work holds a slot until it really ends (even after its request was cut), so memory
/// stays bounded under any load.
package final class RenderPool: Service, Sendable {
    private let pool: NIOThreadPool
    private let capacity: Int
    private let admitted = Mutex<Int>(0)
    private let timeout: Duration
    private let delay: Duration
    private let inFlight: Meter
    private let deadlines = Atomic<Int>(0)

    /// How many requests' time limits are still armed: one per render not yet answered, none
    /// once every render has ended (a finished render's deadline is cancelled, not left to fire).
    package var pendingDeadlines: Int { deadlines.load(ordering: .relaxed) }

    package init(threads: Int, queueLimit: Int, timeout: Duration, delay: Duration = .zero) {
        pool = NIOThreadPool(numberOfThreads: threads)
        capacity = threads + max(0, queueLimit)
        self.timeout = timeout
        self.delay = delay
        inFlight = Meter(label: "ezreport_renders_in_flight")
        pool.start()
    }

    /// Keeps the threads until the server shuts down, then lets the admitted work finish.
    package func run() async throws {
        try? await gracefulShutdown()
        try await shutdown()
    }

    /// Lets the admitted work finish, then stops the threads.
    package func shutdown() async throws {
        try await pool.shutdownGracefully()
    }

    /// Runs `work` on a pool thread and returns its result, or throws 503 when the pool is full
    /// or the work takes longer than the timeout.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let admittedNow = admitted.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admittedNow else { throw Problem.unavailable("too many reports are being made; try again shortly") }
        let delay = self.delay
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = Once(continuation)
            let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
            // The deadline is a timer on an event loop, cancelled as soon as the work ends: a
            // sleeping `Task` per request would keep its frame alive for the whole timeout, and
            // under load that is thousands of them, allocated and freed on different threads.
            deadlines.add(1, ordering: .relaxed)
            let deadline = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                once.resume(.failure(Problem.unavailable("the report took too long; try again later")))
            }
            deadline.futureResult.whenComplete { _ in self.deadlines.subtract(1, ordering: .relaxed) }
            let future = pool.runIfActive(eventLoop: eventLoop) { [inFlight] () throws -> T in
                inFlight.increment()
                defer { inFlight.decrement() }
                if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18) }
                return try work()
            }
            future.whenComplete { result in
                deadline.cancel()
                self.admitted.withLock { $0 -= 1 }
                once.resume(result.mapError { $0 as any Error })
            }
        }
    }
}

/// Resumes a continuation exactly once, with whichever result comes first.
private final class Once<T: Sendable>: Sendable {
    private let state: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { state = Mutex(continuation) }

    func resume(_ result: Result<T, any Error>) {
        let continuation = state.withLock { c -> CheckedContinuation<T, any Error>? in
            defer { c = nil }
            return c
        }
        continuation?.resume(with: result)
    }
}
