import EZCore

/// The spend under each category name over some months, and how many users spent under each set
/// of names: no id, only what tells how many people a figure, or the spend outside a list, is about.
struct CategoryTally: Sendable {
    /// Each name's volume (report currency, minor units) and how many users spent under it.
    private(set) var volumes: [String: (volume: Int64, users: Int)] = [:]
    /// How many users spent under exactly each (sorted) set of names.
    private var sets: [[String]: Int] = [:]

    /// Adds one user's spend per category (`amounts[c]` under `names[c]`).
    mutating func add(_ amounts: [Int64], names: [String], user: Int64) throws(AnalyticsError) {
        var spent: [String] = []
        for (c, amount) in amounts.enumerated() where amount > 0 {
            let old = volumes[names[c]] ?? (0, 0)
            volumes[names[c]] = (try checkedAdd(old.volume, amount, user: user), old.users + 1)
            spent.append(names[c])
        }
        if !spent.isEmpty { sets[spent.sorted(), default: 0] += 1 }
    }

    /// The names a report lists, largest volume first, and how many of the ten it held back: the
    /// ten largest among `candidates` (every name when nil) that five users or more spent under,
    /// less the smallest while the spend under the names not listed is one to four users' (the
    /// volume less the listed categories' would be theirs: one person's "HIV medication").
    func listing(among candidates: Set<String>? = nil) -> (names: [String], heldBack: Int) {
        let minimum = UsageFigures.minimumUsers
        var top = volumes.filter { $0.value.users >= minimum && (candidates?.contains($0.key) ?? true) }
            .sorted { $0.value.volume != $1.value.volume ? $0.value.volume > $1.value.volume : $0.key < $1.key }
            .prefix(10).map(\.key)
        var heldBack = 0
        while !top.isEmpty, UsageAccumulator.isSmallComplement(usersSpending(outside: Set(top))) {
            top.removeLast()
            heldBack += 1
        }
        return (top, heldBack)
    }

    /// How many users spent under a name not in `listed`.
    private func usersSpending(outside listed: Set<String>) -> Int {
        sets.reduce(0) { sum, entry in sum + (entry.key.contains { !listed.contains($0) } ? entry.value : 0) }
    }
}
