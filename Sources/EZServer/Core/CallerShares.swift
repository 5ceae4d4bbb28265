import Synchronization

/// How many renders one caller (a token's `sub`) may have running or waiting at once: half of the
/// pool's room (its threads and its queue; at least 2), so that one account cannot take all of it.
///
/// One user's token looping ten-year statement PDFs on 20 connections kept the pool and its queue
/// full: every other user's requests, cheap statistics included, were answered 503 (28 of 29) or
/// waited seconds (outside server test). Half leaves a caller room to fan out (a statement page's
/// seven charts at once) and the rest of the room to everyone else.
final class CallerShares: Sendable {
    /// Renders one caller may have admitted at once.
    let limit: Int
    private let held = Mutex<[Int64: Int]>([:])

    /// Shares of a pool with room for `poolCapacity` renders (running and waiting).
    init(poolCapacity: Int) {
        limit = max(2, (poolCapacity + 1) / 2)
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
