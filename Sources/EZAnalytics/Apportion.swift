import EZCore

/// The largest-remainder method: splitting an integer total in proportion to weights so that
/// the parts add up to exactly the total.
enum Apportion {
    /// Splits `total` in proportion to `weights` (all ≥ 0, with a positive sum): each part is
    /// `weights[i] × total / Σweights` rounded down, and the units left over go one each to the
    /// largest remainders; ties go to the earlier index unless `tieBreak` says otherwise
    /// (`tieBreak(i, j)` true when `i` should win over `j`).
    ///
    /// - Complexity: O(n log n) in the number of weights.
    static func largestRemainder(total: Int64, weights: [Int64], tieBreak: ((Int, Int) -> Bool)? = nil) -> [Int64] {
        let n = weights.count
        var sum: Int128 = 0
        for w in weights { sum += Int128(w) }
        guard sum > 0 else { return [Int64](repeating: 0, count: n) }
        var parts = [Int64](repeating: 0, count: n)
        var remainders = [Int128](repeating: 0, count: n)
        var assigned: Int128 = 0
        let t = Int128(total)
        for i in 0..<n {
            let p = Int128(weights[i]) * t
            var q = p / sum
            var r = p % sum
            if r < 0 { q -= 1; r += sum }   // floor for negative totals
            parts[i] = Int64(q)
            remainders[i] = r
            assigned += q
        }
        var left = Int(t - assigned)
        if left > 0 {
            let order = (0..<n).sorted { a, b in
                if remainders[a] != remainders[b] { return remainders[a] > remainders[b] }
                if let tieBreak { return tieBreak(a, b) }
                return a < b
            }
            var k = 0
            while left > 0 { parts[order[k % n]] += 1; left -= 1; k += 1 }
        }
        return parts
    }

    /// `n / d` rounded half-to-even (`d` ≠ 0), clamped to 64 bits.
    @inline(__always)
    static func divideHalfEven(_ n: Int128, _ d: Int128) -> Int64 {
        Int64(clamping: MinorUnits.divideRoundingHalfEven(n, d))
    }

    /// The change from `base` to `current`, with no percent when the base is zero.
    static func change(from base: Int64, to current: Int64) -> Change {
        let diff = current &- base
        return Change(absolute: diff, percent: Percent.of(diff, base.magnitude > UInt64(Int64.max) ? Int64.max : abs(base)))
    }
}
