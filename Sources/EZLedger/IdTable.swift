/// A small map from row ids to values, for lookups made once per transaction row.
///
/// One user's load refers to a handful of balances and categories millions of times over a
/// ledger; `Dictionary` hashes each `Int64` with SipHash, which showed in profiles. Ids are
/// spread by a multiplicative (Fibonacci) hash into an open-addressing table kept at most half full.
struct IdTable<Value> {
    private var keys: [Int64]
    private var values: [Value?]
    private var used: [Bool]
    private var shift: Int
    private(set) var count = 0

    /// An empty table.
    init() {
        keys = Array(repeating: 0, count: 16)
        values = Array(repeating: nil, count: 16)
        used = Array(repeating: false, count: 16)
        shift = 64 - 4
    }

    @inline(__always)
    private func slot(_ id: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The value stored for `id`, if any.
    subscript(id: Int64) -> Value? {
        var i = slot(id)
        let mask = keys.count - 1
        while used[i] {
            if keys[i] == id { return values[i] }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Stores `value` for `id` (replacing any earlier one).
    mutating func set(_ id: Int64, _ value: Value) {
        var i = slot(id)
        let mask = keys.count - 1
        while used[i] {
            if keys[i] == id { values[i] = value; return }
            i = (i + 1) & mask
        }
        keys[i] = id; values[i] = value; used[i] = true
        count += 1
        if count * 2 > keys.count { grow() }
    }

    private mutating func grow() {
        let (oldKeys, oldValues, oldUsed) = (keys, values, used)
        let size = keys.count * 2
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: nil, count: size)
        used = Array(repeating: false, count: size)
        shift -= 1
        count = 0
        for i in oldKeys.indices where oldUsed[i] { set(oldKeys[i], oldValues[i]!) }
    }
}
