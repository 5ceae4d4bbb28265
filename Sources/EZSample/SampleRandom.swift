/// The generator's own pseudo-random numbers: xoshiro256** seeded through SplitMix64.
///
/// Swift's `SystemRandomNumberGenerator` and hashing are seeded per process, so the sample
/// generator never uses them: every draw comes from one of these, seeded from
/// ``SampleOptions/seed`` and a fixed stream number, which makes the ledger reproducible.
struct SampleRandom {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A stream for `seed` and `stream` (e.g. a user id): streams are independent of each other,
    /// so a change in one part of the generator does not shift the draws of another.
    init(seed: UInt64, stream: UInt64 = 0) {
        var state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        func splitMix(_ x: inout UInt64) -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(&state); s1 = splitMix(&state); s2 = splitMix(&state); s3 = splitMix(&state)
    }

    /// The next 64 random bits.
    @inline(__always)
    mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = (s3 << 45) | (s3 >> 19)
        return result
    }

    /// A uniform integer in `0..<n` (`n > 0`), by Lemire's multiply-high (bias below 2⁻³²).
    @inline(__always)
    mutating func below(_ n: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(n)).high)
    }

    /// A uniform integer in `range`.
    @inline(__always)
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// A uniform value in [0, 1).
    @inline(__always)
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// True with probability `p`.
    @inline(__always)
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// One element of a non-empty array.
    @inline(__always)
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// An index drawn with the given (non-negative, not all zero) integer weights.
    mutating func weighted(_ weights: [Int]) -> Int {
        var total = 0
        for w in weights { total += w }
        var r = below(total)
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    /// A value in `low...high` skewed towards `low` (most purchases are small, a few are large).
    @inline(__always)
    mutating func skewed(_ low: Int, _ high: Int) -> Int {
        let u = unit()
        return low + Int(Double(high - low) * u * u)
    }
}
