import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT turned into a request to stop at the next safe point, for a command that
/// can stop cleanly (`deliver` finishes and records the message it is sending).
///
/// systemd and Kubernetes stop a job with SIGTERM and kill it some seconds later; a second
/// signal stops the process at once, as the default action would. Kept for the process's life.
final class StopSignals: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Starts listening for SIGTERM and SIGINT; `onFirst` runs once, when the first one arrives.
    init(onFirst: @escaping @Sendable () -> Void) {
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)   // delivered to the dispatch source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                if flag.exchange(true, ordering: .sequentiallyConsistent) {
                    signal(number, SIG_DFL)
                    // To the process, not this thread: raise(3) signals the calling thread, and
                    // a dispatch worker blocks signals, so the process went on until its message ended.
                    kill(getpid(), number)
                } else {
                    onFirst()
                }
            }
            source.resume()
            // Kept for the process's life on purpose: a released source stops listening.
            _ = Unmanaged.passRetained(source as AnyObject)
        }
    }

    /// Whether a stop was asked for.
    var isRequested: Bool { flag.load(ordering: .sequentiallyConsistent) }
}
