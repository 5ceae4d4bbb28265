// MARK: - Deflate symbols (RFC 1951, 3.2.5)

/// The deflate length and distance alphabets: the symbol and extra bits for a match length or distance.
enum DeflateSymbols {
    /// Base lengths of length symbols 257…285.
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                                    67, 83, 99, 115, 131, 163, 195, 227, 258]
    /// Extra bits of length symbols 257…285.
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                     4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// Base distances of distance symbols 0…29.
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                                      1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    /// Extra bits of distance symbols 0…29.
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
                                       9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The length symbol index (0…28, add 257) of every length 0…258 (entries below 3 unused).
    static let lengthIndex: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        for i in 0..<29 {
            let end = i == 28 ? 259 : lengthBase[i] + (1 << lengthExtra[i])
            for len in lengthBase[i]..<min(end, 259) { table[len] = UInt8(i) }
        }
        table[258] = 28
        return table
    }()

    /// The distance symbol (0…29) of `distance` (1…32768).
    @inline(__always)
    static func distanceSymbol(_ distance: Int) -> Int {
        // Symbols pair up per power of two: 2 * (floor(log2(d - 1))) + the next bit, for d > 4.
        let d = distance - 1
        if d < 4 { return d }
        let log = (Int.bitWidth - 1) - d.leadingZeroBitCount
        return 2 * log + ((d >> (log - 1)) & 1)
    }
}

// MARK: - Huffman codes

/// A canonical, length-limited Huffman code for one deflate alphabet.
struct HuffmanCode {
    /// Code length per symbol (0: unused).
    var lengths: [UInt8]
    /// The code of each symbol with its bits reversed, ready for deflate's LSB-first bit order.
    var codes: [UInt16]

    /// The code for `frequencies`, no code longer than `maxBits`. At least two symbols always get
    /// a code (`fallback` ones are added if needed), so the code is complete for every decoder.
    init(frequencies: [Int], maxBits: Int, fallback: (Int, Int)) {
        var freq = frequencies
        if freq.lazy.filter({ $0 > 0 }).count < 2 {
            if freq[fallback.0] == 0 { freq[fallback.0] = 1 }
            if freq.lazy.filter({ $0 > 0 }).count < 2 { freq[fallback.1] = max(freq[fallback.1], 1) }
        }
        var lengths = HuffmanCode.lengths(freq)
        // Rare for charts: flatten the frequencies until the deepest code fits.
        while (lengths.max() ?? 0) > maxBits {
            freq = freq.map { $0 == 0 ? 0 : max(1, $0 >> 1) }
            lengths = HuffmanCode.lengths(freq)
        }
        self.lengths = lengths
        self.codes = HuffmanCode.canonicalCodes(lengths)
    }

    /// Optimal (unlimited) code lengths: Huffman's algorithm over the used symbols, with two
    /// queues: the leaves sorted by weight (ties by symbol) and the merged nodes, which are made
    /// in order of weight; a leaf goes first on a tie, so the result is deterministic.
    /// - Complexity: O(n log n) in the number of used symbols (at most 286).
    private static func lengths(_ freq: [Int]) -> [UInt8] {
        var leaves: [(weight: Int, symbol: Int)] = []
        for (symbol, f) in freq.enumerated() where f > 0 { leaves.append((f, symbol)) }
        leaves.sort { $0.weight != $1.weight ? $0.weight < $1.weight : $0.symbol < $1.symbol }
        let m = leaves.count, nodes = 2 * m - 1
        var weight = [Int](repeating: 0, count: nodes), parent = [Int](repeating: 0, count: nodes)
        for i in 0..<m { weight[i] = leaves[i].weight }
        var leaf = 0, merged = m
        for node in m..<nodes {
            var pair = (0, 0)
            for k in 0..<2 {
                let next: Int
                if leaf < m && (merged >= node || weight[leaf] <= weight[merged]) { next = leaf; leaf += 1 } else { next = merged; merged += 1 }
                if k == 0 { pair.0 = next } else { pair.1 = next }
            }
            weight[node] = weight[pair.0] + weight[pair.1]
            parent[pair.0] = node; parent[pair.1] = node
        }
        var depth = [Int](repeating: 0, count: nodes)
        for node in stride(from: nodes - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        var lengths = [UInt8](repeating: 0, count: freq.count)
        for i in 0..<m { lengths[leaves[i].symbol] = UInt8(depth[i]) }
        return lengths
    }

    /// Canonical codes (RFC 1951, 3.2.2), bit-reversed.
    private static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        var count = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { count[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + count[bits - 1]) << 1
            next[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            var c = next[Int(l)], reversed = 0
            next[Int(l)] += 1
            for _ in 0..<Int(l) { reversed = reversed << 1 | (c & 1); c >>= 1 }
            codes[symbol] = UInt16(reversed)
        }
        return codes
    }
}

// MARK: - Bits

/// Writes deflate's LSB-first bit stream into a preallocated buffer.
struct BitWriter {
    private let buffer: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var bits: UInt64 = 0
    private var filled = 0

    /// A writer into `buffer`, which the caller sized for everything to be written.
    init(buffer: UnsafeMutablePointer<UInt8>) { self.buffer = buffer }

    /// Appends the low `n` bits (n ≤ 32) of `value`.
    @inline(__always)
    mutating func write(_ value: UInt32, _ n: Int) {
        bits |= UInt64(value) << UInt64(filled)
        filled += n
        if filled >= 32 {
            UnsafeMutableRawPointer(buffer + count).storeBytes(of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
            count += 4
            bits >>= 32
            filled -= 32
        }
    }

    /// Adds the low `n` bits of `value` without storing them: at most 56 bits may be pending,
    /// so call ``flush()`` before the first `add` after ``write(_:_:)`` and after at most 48 bits.
    @inline(__always)
    mutating func add(_ value: UInt64, _ n: Int) {
        bits |= value &<< UInt64(filled)
        filled &+= n
    }

    /// Stores the pending whole bytes, without a branch: 8 bytes are written and `count` moves
    /// on by the whole ones (the buffer needs 8 bytes of room past everything written).
    @inline(__always)
    mutating func flush() {
        UnsafeMutableRawPointer(buffer + count).storeBytes(of: bits.littleEndian, as: UInt64.self)
        let whole = filled &>> 3
        count &+= whole
        bits = bits &>> UInt64(whole &<< 3)
        filled &= 7
    }

    /// Appends raw bytes (after `alignToByte`).
    mutating func writeByte(_ byte: UInt8) { write(UInt32(byte), 8) }

    /// Pads with zero bits to a byte boundary and flushes everything.
    mutating func finish() {
        while filled > 0 {
            buffer[count] = UInt8(truncatingIfNeeded: bits)
            count += 1
            bits >>= 8
            filled = max(0, filled - 8)
        }
    }
}

// MARK: - Adler-32

/// The running Adler-32 of a zlib stream (RFC 1950), exact, kept as its two sums.
///
/// ``update(_:count:)`` adds 16 bytes per step in 16 lanes (the loop vectorises): each lane sums
/// its bytes and, for the second sum, the running lane sums before each step; both are folded in
/// and reduced once per block of at most 16 KiB. zlib's `adler32` adds one byte at a time.
struct Adler32 {
    private static let modulus: UInt64 = 65521
    private var a: UInt64 = 1
    private var b: UInt64 = 0

    /// The checksum of everything added so far.
    var value: UInt32 { UInt32(b << 16 | a) }

    /// Adds `count` bytes from `bytes`.
    mutating func update(_ bytes: UnsafePointer<UInt8>, count: Int) {
        var p = UnsafeRawPointer(bytes), left = count
        var a = self.a, b = self.b
        while left >= 16 {
            // At most 1024 steps: a lane's second sum stays below 255 · 1024 · 1025 / 2 < 2^28.
            let steps = min(left / 16, 1024)
            var lanes = SIMD16<UInt32>(repeating: 0), before = SIMD16<UInt32>(repeating: 0)
            for s in 0..<steps {
                before &+= lanes
                lanes &+= SIMD16<UInt32>(truncatingIfNeeded: p.loadUnaligned(fromByteOffset: s * 16, as: SIMD16<UInt8>.self))
            }
            // Byte k of step s weighs 16 · (steps − s) − k in the second sum.
            var sum: UInt64 = 0, weighted: UInt64 = 0, runs: UInt64 = 0
            for k in 0..<16 {
                sum += UInt64(lanes[k]); weighted += UInt64(k) * UInt64(lanes[k]); runs += UInt64(before[k]) + UInt64(lanes[k])
            }
            let n = steps * 16
            b = (b + UInt64(n) * a + 16 * runs - weighted) % Adler32.modulus
            a = (a + sum) % Adler32.modulus
            p += n; left -= n
        }
        for i in 0..<left {
            a += UInt64(p.load(fromByteOffset: i, as: UInt8.self)); b += a
        }
        self.a = a % Adler32.modulus; self.b = b % Adler32.modulus
    }

    /// Adds `byte` followed by `zeros` zero bytes (an Up-filtered row identical to the one above).
    mutating func update(byte: UInt8, zeros: Int) {
        a = (a + UInt64(byte)) % Adler32.modulus
        b = (b + UInt64(zeros + 1) % Adler32.modulus * a) % Adler32.modulus
    }

    /// Adds `count` zero bytes: each adds the first sum to the second.
    mutating func update(zeros count: Int) {
        b = (b + UInt64(count) % Adler32.modulus * a) % Adler32.modulus
    }
}
