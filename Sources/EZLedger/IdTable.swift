/// A small map from row ids to values, for lookups made once per transaction row.
///
/// One user's load refers to a handful of balances and categories millions of times over a
/// ledger; `Dictionary` hashes each `Int64` with SipHash, which showed in profiles. Ids are
/// spread by a multiplicative (Fibonacci) hash into an open-addressing table kept at most half full.
struct IdTable<Value> {
    private struct Slot {
        var key: Int64
        var value: Value?
    }

    private var slots: [Slot]
    private var shift: Int
    private(set) var count = 0

    /// An empty table.
    init() {
        slots = Array(repeating: Slot(key: 0, value: nil), count: 16)
        shift = 64 - 4
    }

    @inline(__always)
    private func slot(_ id: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The value stored for `id`, if any.
    subscript(id: Int64) -> Value? {
        var i = slot(id)
        let mask = slots.count - 1
        while slots[i].value != nil {
            if slots[i].key == id { return slots[i].value }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Stores `value` for `id` (replacing any earlier one).
    mutating func set(_ id: Int64, _ value: Value) {
        var i = slot(id)
        let mask = slots.count - 1
        while slots[i].value != nil {
            if slots[i].key == id { slots[i].value = value; return }
            i = (i + 1) & mask
        }
        slots[i] = Slot(key: id, value: value)
        count += 1
        if count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(key: 0, value: nil), count: old.count * 2)
        shift -= 1
        count = 0
        for s in old { if let v = s.value { set(s.key, v) } }
    }
}
