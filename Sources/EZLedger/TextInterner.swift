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
    private struct Entry {
        var hash: UInt64
        var bytes: [UInt8]
        var string: String
    }

    private var slots: [Entry?]
    private var mask: Int
    private var count = 0
    private let capacity: Int
    /// Texts longer than this are not kept (descriptions are short; a long one is rarely repeated).
    private let longest = 96

    /// An empty table that keeps at most `capacity` texts.
    init(capacity: Int = 4096) {
        self.capacity = capacity
        self.slots = Array(repeating: nil, count: 64)
        self.mask = 63
    }

    /// The `String` for `bytes`, from the table when these bytes were seen before.
    ///
    /// - Complexity: O(n) in the number of bytes (hash and one compare), amortised.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.count <= longest else { return String(decoding: bytes, as: UTF8.self) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var i = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
        while let entry = slots[i] {
            if entry.hash == hash, entry.bytes.count == bytes.count,
               bytes.isEmpty || entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return entry.string
            }
            i = (i + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        guard count < capacity else { return string }
        slots[i] = Entry(hash: hash, bytes: Array(bytes), string: string)
        count += 1
        if count * 2 > slots.count { grow() }
        return string
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        mask = slots.count - 1
        for case let entry? in old {
            var i = Int(truncatingIfNeeded: entry.hash ^ (entry.hash >> 29)) & mask
            while slots[i] != nil { i = (i + 1) & mask }
            slots[i] = entry
        }
    }
}
