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
/// stays bounded under any load; work whose request was answered before a thread took it up is
/// dropped unrun.
package final class RenderPool: Service, Sendable {
    private let pool: NIOThreadPool
    private let capacity: Int
    private let admitted = Mutex<Int>(0)
    private let timeout: Duration
    private let delay: Duration
    private let inFlight: Meter
    private let deadlines = Atomic<Int>(0)
    private let shutdownGrace: Duration
    /// How to answer each request still waiting for its render, by request number.
    private let waiting = Mutex<(next: Int, answer: [Int: @Sendable (any Error) -> Void])>((0, [:]))

    /// How many requests' time limits are still armed: one per render not yet answered, none
    /// once every render has ended (a finished render's deadline is cancelled, not left to fire).
    package var pendingDeadlines: Int { deadlines.load(ordering: .relaxed) }

    /// `shutdownGrace` is how long a graceful shutdown lets the requests in flight run: those
    /// still waiting for their render shortly before it ends are answered 503 (see ``run()``).
    package init(threads: Int, queueLimit: Int, timeout: Duration, shutdownGrace: Duration = .seconds(10), delay: Duration = .zero) {
        pool = NIOThreadPool(numberOfThreads: threads)
        capacity = threads + max(0, queueLimit)
        self.timeout = timeout
        self.shutdownGrace = shutdownGrace
        self.delay = delay
        inFlight = Meter(label: "ezreport_renders_in_flight")
        pool.start()
    }

    /// Waits for the server's graceful shutdown, then bounds it: shortly before the shutdown's
    /// grace ends, every request still waiting for its render is answered 503 (`Retry-After`),
    /// so the HTTP server can finish its connections in time (issue 14: in-flight requests get up
    /// to 10 s). A render in C code cannot be interrupted: the threads are not waited for, and one
    /// still running is left to the process's exit.
    ///
    /// Run it in the same service group as the HTTP server, listed after it, so that it hears of
    /// the shutdown first (a group stops its services in reverse order, one after the other).
    package func run() async throws {
        try? await gracefulShutdown()
        let grace = shutdownGrace
        let answerBefore = grace - min(.seconds(1), grace / 5)
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(answerBefore)) { [self] in
            let answers = waiting.withLock { state in defer { state.answer = [:] }; return Array(state.answer.values) }
            for answer in answers { answer(Problem.unavailable("the server is shutting down; try again shortly")) }
            // The threads end once their renders do; later work is refused (503 too).
            pool.shutdownGracefully { _ in }
        }
    }

    /// Lets the admitted work finish, then stops the threads.
    package func shutdown() async throws {
        try await pool.shutdownGracefully()
    }

    /// Runs `work` on a pool thread and returns its result, or throws 503 when the pool is full
    /// or the work takes longer than the timeout.
    ///
    /// `whenEnded` is called once the work has really ended (or was dropped unrun, or refused),
    /// which for work cut at its time limit is after this function has thrown.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T,
                                  whenEnded: @escaping @Sendable () -> Void = {}) async throws -> T {
        let admittedNow = admitted.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admittedNow else {
            whenEnded()
            throw Problem.unavailable("too many reports are being made; try again shortly")
        }
        let delay = self.delay
        let once = Once<T>()
        // A shutdown whose grace ran out cancels the request: it is answered 503 at once, and the
        // render, which cannot be interrupted, is left to finish (or to the process's exit).
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                once.set { continuation.resume(with: $0) }
                let number = waiting.withLock { state in
                    defer { state.next += 1 }
                    state.answer[state.next] = { error in once.resume(.failure(error)) }
                    return state.next
                }
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
                    // A request answered while it waited for a thread (its time ran out, or a
                    // shutdown) has no one to render for: rendering it anyway held a thread while
                    // fresh requests waited, and under retries built a backlog nobody received.
                    guard !once.isSettled else { throw Problem.unavailable("the report took too long; try again later") }
                    inFlight.increment()
                    defer { inFlight.decrement() }
                    if delay > .zero { Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18) }
                    return try work()
                }
                future.whenComplete { result in
                    deadline.cancel()
                    self.admitted.withLock { $0 -= 1 }
                    whenEnded()
                    _ = self.waiting.withLock { $0.answer.removeValue(forKey: number) }
                    once.resume(result.mapError { error in
                        error is NIOThreadPoolError.ThreadPoolInactive
                            ? Problem.unavailable("the server is shutting down; try again shortly") : error
                    })
                }
            }
        } onCancel: {
            once.resume(.failure(Problem.unavailable("the server is shutting down; try again shortly")))
        }
    }
}

/// Delivers one result exactly once, whichever comes first: the work's, its time limit's or a
/// cancellation's. A result that comes before the receiver is set is kept for it.
private final class Once<T: Sendable>: Sendable {
    private enum State {
        case waiting(receiver: (@Sendable (Result<T, any Error>) -> Void)?, early: Result<T, any Error>?)
        case done
    }
    private let state = Mutex<State>(.waiting(receiver: nil, early: nil))

    /// Sets who receives the result; receives at once a result that already came.
    func set(_ receiver: @escaping @Sendable (Result<T, any Error>) -> Void) {
        let early = state.withLock { state -> Result<T, any Error>? in
            guard case .waiting(_, let early) = state else { return nil }
            if let early { state = .done; return early }
            state = .waiting(receiver: receiver, early: nil)
            return nil
        }
        if let early { receiver(early) }
    }

    /// Whether a result was delivered (or came, and waits for its receiver): nothing more will be.
    var isSettled: Bool {
        state.withLock { state in
            if case .waiting(_, nil) = state { return false }
            return true
        }
    }

    /// Delivers `result` if no result was delivered before.
    func resume(_ result: Result<T, any Error>) {
        let receiver = state.withLock { state -> (@Sendable (Result<T, any Error>) -> Void)? in
            guard case .waiting(let receiver, let early) = state, early == nil else { return nil }
            if let receiver { state = .done; return receiver }
            state = .waiting(receiver: nil, early: result)
            return nil
        }
        receiver?(result)
    }
}
