import Synchronization

/// How many renders one caller (a token's `sub`) may have running or waiting at once: the pool's
/// room (its threads and its queue) but for as many places as it has threads (at least 2), which
/// are always left to the other callers.
///
/// One user's token looping ten-year statement PDFs on 20 connections kept the pool and its queue
/// full: every other user's requests, cheap statistics included, were answered 503 (28 of 29) or
/// waited seconds (outside server test). Now another caller always finds a place. One caller can
/// still fan out as far as the pool allows less those places (a statement page's seven charts at
/// once, a load test's clients), so a single busy account is not refused what the pool could do.
final class CallerShares: Sendable {
    /// Renders one caller may have admitted at once.
    let limit: Int
    private let held = Mutex<[Int64: Int]>([:])

    /// Shares of a pool of `threads` threads with room for `poolCapacity` renders (running and waiting).
    init(poolCapacity: Int, threads: Int) {
        limit = max(2, poolCapacity - max(1, threads))
    }

    /// Takes one of `caller`'s shares; false when they hold ``limit`` already.
    func take(_ caller: Int64) -> Bool {
        held.withLock { held in
            let now = held[caller, default: 0]
            guard now < limit else { return false }
            held[caller] = now + 1
            return true
        }
    }

    /// Gives one of `caller`'s shares back.
    func giveBack(_ caller: Int64) {
        held.withLock { held in
            let now = held[caller, default: 0]
            if now <= 1 { held.removeValue(forKey: caller) } else { held[caller] = now - 1 }
        }
    }
}
