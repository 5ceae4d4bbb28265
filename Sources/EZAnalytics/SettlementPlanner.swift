/// Finds the transfers that settle a group's outstanding balances.
///
/// The plan is defined one transfer at a time: its first transfer is chosen from the balances as
/// they stand, and the rest of the plan is the plan of the balances after that transfer is paid.
/// That makes the plan *stable* by construction: paying its transfers in order and recomputing
/// after each payment leaves the remaining transfers exactly as they were.
///
/// - With at most ``exactLimit`` members whose balance is not zero, the plan needs the fewest
///   transfers possible: n − g, where g is the largest number of disjoint groups of members whose
///   balances sum to zero (found by dynamic programming over subsets). Each transfer goes, inside
///   one such group, from its largest debtor to its largest creditor, for the smaller of the two
///   amounts, so every transfer settles at least one member.
/// - Beyond that, transfers go from the largest debtor to the largest creditor (greedy) until at
///   most ``exactLimit`` remain, and the rest is planned exactly; the plan then says `.greedy`.
///
/// Ties are broken by user id, so the same balances always give the same transfers in the same order.
///
/// ```swift
/// let plan = SettlementPlanner.plan(balances: [(1, "ann", 30), (2, "bob", -10), (3, "cy", -20)])
/// // cy → ann 20, bob → ann 10
/// ```
package enum SettlementPlanner {
    /// The largest number of non-zero members planned exactly.
    package static let exactLimit = 15

    /// The plan that settles `balances` (`net` > 0: is owed; < 0: owes). The nets should sum to zero;
    /// when they do not, the plan settles as much as it can and leaves the difference.
    ///
    /// - Complexity: O(n · 2ⁿ) per transfer for the exact part (n ≤ 15), O(n) per greedy transfer.
    package static func plan(balances: [(userId: Int64, username: String, net: Int64)]) -> SettlementPlan {
        var people = balances.filter { $0.net != 0 }.sorted { $0.userId < $1.userId }
        var method = SettlementPlan.Method.exact
        var transfers: [Settlement] = []
        let total = people.reduce(Int128(0)) { $0 + Int128($1.net) }
        while true {
            let greedy = total != 0 || people.count > exactLimit
            let nets = people.map(\.net)
            guard case let (d, c, amount)? = greedy ? greedyStep(nets) : exactStep(nets) else { break }
            if greedy { method = .greedy }
            transfers.append(Settlement(fromUserId: people[d].userId, fromUsername: people[d].username,
                                        toUserId: people[c].userId, toUsername: people[c].username, amount: amount))
            people[d].net += amount
            people[c].net -= amount
            people.removeAll { $0.net == 0 }
        }
        return SettlementPlan(method: method, transfers: transfers)
    }

    /// A plan made only of greedy steps (largest debtor pays largest creditor), for comparison.
    static func greedyPlan(nets: [Int64]) -> [(from: Int, to: Int, amount: Int64)] {
        var nets = nets
        var out: [(Int, Int, Int64)] = []
        while let (d, c, a) = greedyStep(nets) {
            out.append((d, c, a))
            nets[d] += a; nets[c] -= a
        }
        return out
    }

    /// The largest debtor and largest creditor (lowest index on ties) and the smaller amount, or nil when settled.
    static func greedyStep(_ nets: [Int64]) -> (Int, Int, Int64)? {
        var d = -1, c = -1
        for (i, v) in nets.enumerated() {
            if v < 0, d < 0 || v < nets[d] { d = i }
            if v > 0, c < 0 || v > nets[c] { c = i }
        }
        guard d >= 0, c >= 0 else { return nil }
        return (d, c, min(-nets[d], nets[c]))
    }

    /// The first transfer of a minimum plan for `nets` (which sum to zero), or nil when all are settled.
    static func exactStep(_ nets: [Int64]) -> (Int, Int, Int64)? {
        let n = nets.count
        guard n >= 2 else { return nil }
        let full = (1 << n) - 1
        var sums = [Int64](repeating: 0, count: full + 1)
        var best = [UInt8](repeating: 0, count: full + 1)
        for mask in 1...full {
            let low = mask & -mask
            sums[mask] = sums[mask ^ low] &+ nets[low.trailingZeroBitCount]
            var b: UInt8 = 0
            var rest = mask
            while rest != 0 {
                let bit = rest & -rest
                rest ^= bit
                let v = best[mask ^ bit]
                if v > b { b = v }
            }
            best[mask] = b + (sums[mask] == 0 ? 1 : 0)
        }
        // Walk down from the full set, removing the lowest member that keeps the optimum; the
        // smallest non-empty zero-sum set on the way is one group of an optimal partition.
        var mask = full
        var group = full
        while mask != 0 {
            if sums[mask] == 0 { group = mask }
            let target = best[mask] - (sums[mask] == 0 ? 1 : 0)
            var rest = mask
            var next = -1
            while rest != 0 {
                let bit = rest & -rest
                rest ^= bit
                if best[mask ^ bit] == target { next = mask ^ bit; break }
            }
            mask = next
        }
        // Inside that group: its largest debtor pays its largest creditor.
        var d = -1, c = -1
        for i in 0..<n where group & (1 << i) != 0 {
            let v = nets[i]
            if v < 0, d < 0 || v < nets[d] { d = i }
            if v > 0, c < 0 || v > nets[c] { c = i }
        }
        guard d >= 0, c >= 0 else { return nil }
        return (d, c, min(-nets[d], nets[c]))
    }
}
