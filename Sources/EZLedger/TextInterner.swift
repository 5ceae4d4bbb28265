#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Turns UTF-8 bytes into `String`s, handing back the same `String` for the same bytes.
///
/// Transaction rows repeat a few texts (payment methods, descriptions) millions of times; making
/// a fresh `String` for each (validating, and for texts over 15 bytes allocating) cost more than
/// looking the bytes up. Entries are keyed by an FNV-1a hash of the bytes and compared byte for
/// byte, so two different texts never share a `String`. The table stops growing at
/// `capacity` entries (later new texts are made fresh each time), bounding its memory.
///
/// A text becomes a `String` exactly as `String(cString:)` makes it from the same bytes (invalid
/// UTF-8 repaired with U+FFFD); callers must not pass bytes holding a NUL (`String(cString:)`
/// would stop there).
struct TextInterner {
    /// Per slot: the hash (0 for an empty slot; real hashes have the low bit set), where the
    /// text's bytes start in `pool` and how many there are, and its `String`. Kept apart so that
    /// a probe reads numbers in place and copies no reference.
    private var hashes: [UInt64]
    private var starts: [Int32]
    private var lengths: [Int32]
    private var strings: [String]
    private var pool: [UInt8] = []
    private var mask: Int
    private var count = 0
    private let capacity: Int
    /// Texts longer than this are not kept (descriptions are short; a long one is rarely repeated).
    private let longest = 96

    /// An empty table that keeps at most `capacity` texts.
    init(capacity: Int = 4096) {
        self.capacity = capacity
        hashes = Array(repeating: 0, count: 64)
        starts = Array(repeating: 0, count: 64)
        lengths = Array(repeating: 0, count: 64)
        strings = Array(repeating: "", count: 64)
        mask = 63
    }

    /// The `String` for `bytes`, from the table when these bytes were seen before.
    ///
    /// - Complexity: O(n) in the number of bytes (hash and one compare), amortised.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= longest else { return String(decoding: bytes, as: UTF8.self) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        hash |= 1
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while hashes[i] != 0 {
            if hashes[i] == hash, Int(lengths[i]) == bytes.count, matches(bytes, at: Int(starts[i])) { return strings[i] }
            i = (i + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        guard count < capacity else { return string }
        hashes[i] = hash
        starts[i] = Int32(pool.count)
        lengths[i] = Int32(bytes.count)
        strings[i] = string
        pool.append(contentsOf: bytes)
        count += 1
        if count * 2 > hashes.count { grow() }
        return string
    }

    @inline(__always)
    private func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        bytes.isEmpty || pool.withUnsafeBufferPointer { memcmp($0.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0 }
    }

    private mutating func grow() {
        let (oldHashes, oldStarts, oldLengths, oldStrings) = (hashes, starts, lengths, strings)
        let size = hashes.count * 2
        hashes = Array(repeating: 0, count: size)
        starts = Array(repeating: 0, count: size)
        lengths = Array(repeating: 0, count: size)
        strings = Array(repeating: "", count: size)
        mask = size - 1
        for j in oldHashes.indices where oldHashes[j] != 0 {
            var i = Int(truncatingIfNeeded: oldHashes[j] ^ (oldHashes[j] >> 29)) & mask
            while hashes[i] != 0 { i = (i + 1) & mask }
            (hashes[i], starts[i], lengths[i], strings[i]) = (oldHashes[j], oldStarts[j], oldLengths[j], oldStrings[j])
        }
    }
}
