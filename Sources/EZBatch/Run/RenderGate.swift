import CMalloc
import Dispatch

/// Keeps a large statement from being read and rendered beside others, so that a batch's peak
/// memory is that of its largest statement, not that plus every other worker's.
///
/// An ordinary statement runs alongside the others; a large one (a shop's 100,000 rows, ~130 MB
/// at its peak), known by its row count before its rows are read, waits until the statements in
/// progress end, then runs alone while the other workers wait (``enter(exclusive:)``); what it
/// freed is handed back to the system before they resume. Measured on the 50-user ledger plus
/// such a user: `--jobs 2` peaked at 149 MB before, 138–141 MB with the gate (`--jobs 1`: 132–136 MB).
///
/// A large statement waiting for the others holds off new ones, so it cannot be starved. Two large
/// statements run one after the other.
final class RenderGate: Sendable {
    /// One permit per worker: an ordinary render holds one, a large one holds them all.
    private let permits: DispatchSemaphore
    /// Held by a large render while it gathers the permits, and briefly by each ordinary render
    /// as it takes its own, so that none slips in once a large one is waiting.
    private let turnstile = DispatchSemaphore(value: 1)
    private let workers: Int

    /// A gate for `workers` concurrent renders.
    init(workers: Int) {
        self.workers = max(1, workers)
        permits = DispatchSemaphore(value: self.workers)
    }

    /// How a render went through the gate, to be given back to ``leave(_:)``.
    enum Pass {
        case shared
        case exclusive
    }

    /// Waits for a render's turn: an ordinary one (`exclusive` false) runs alongside other
    /// ordinary ones; a large one once no other render runs. Every ``enter(exclusive:)`` is
    /// followed by one ``leave(_:)`` with its pass (a `defer` right after it).
    func enter(exclusive: Bool) -> Pass {
        turnstile.wait()
        if exclusive {
            for _ in 0..<workers { permits.wait() }
            // The turnstile stays closed until the large render leaves.
            return .exclusive
        }
        permits.wait()
        turnstile.signal()
        return .shared
    }

    /// Ends a render's turn.
    func leave(_ pass: Pass) {
        switch pass {
        case .shared:
            permits.signal()
        case .exclusive:
            // What the large render freed stays in its thread's malloc arena, where the other
            // workers' allocations cannot reuse it: handed back to the system before they resume
            // (part of 149 → 138–141 MB for `--jobs 2` on the 50-user ledger plus a 100,000-row user).
            _ = malloc_trim(0)
            for _ in 0..<workers { permits.signal() }
            turnstile.signal()
        }
    }
}
