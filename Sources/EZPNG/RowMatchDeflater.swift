import Glibc


/// A deflate (zlib) encoder specialised for chart images: a row identical to the one above is
/// Up-filtered (all zeros, one run). Every other row is matched twice, greedily, and written the
/// cheaper way (estimated bits): Up-filtered with runs of a byte or of a pixel, or unfiltered with
/// runs of a pixel and copies of the last unfiltered row above; everything else is a literal.
/// One dynamic Huffman block codes the result.
///
/// Chart images are mostly flat colour, so nearly every byte is covered by one of those matches:
/// a repeated row costs one `memcmp` of the source pixels, and the match search in other rows
/// compares 8 bytes at a time. zlib level 1 hashes and compares every byte: about 2.3× slower on
/// the statement charts, for files about 10 % smaller (`EZBench png`, `EZBench png-sizes`).
struct RowMatchDeflater: ~Copyable {
    private let width: Int
    private let height: Int
    private let stride: Int
    private let opaque: Bool
    private let pixelBytes: Int
    private let lineBytes: Int

    /// Tokens: a literal byte (< 256) or `1 << 31 | length << 16 | distance`.
    private var tokens: UnsafeMutablePointer<UInt32>
    private var tokenCount = 0
    private var tokenCapacity: Int
    /// Symbol counts of the literal/length (286) and distance (30) alphabets.
    private let literalFrequencies: UnsafeMutablePointer<Int>
    private let distanceFrequencies: UnsafeMutablePointer<Int>
    /// One line's tokens for the Up filter and for None, before the cheaper is kept (a line never
    /// has more tokens than bytes).
    private let upTokens: UnsafeMutablePointer<UInt32>
    private let noneTokens: UnsafeMutablePointer<UInt32>

    /// A deflater for `height` rows of `width` ARGB32 pixels `stride` bytes apart, written as RGB
    /// (`opaque`) or un-premultiplied RGBA, each row behind a filter byte 0 (None).
    init(width: Int, height: Int, stride: Int, opaque: Bool) {
        self.width = width; self.height = height; self.stride = stride; self.opaque = opaque
        pixelBytes = opaque ? 3 : 4
        lineBytes = width * pixelBytes + 1
        tokenCapacity = max(1 << 16, height * 64)
        tokens = .allocate(capacity: tokenCapacity)
        literalFrequencies = .allocate(capacity: 286)
        literalFrequencies.initialize(repeating: 0, count: 286)
        distanceFrequencies = .allocate(capacity: 30)
        distanceFrequencies.initialize(repeating: 0, count: 30)
        upTokens = .allocate(capacity: lineBytes)
        noneTokens = .allocate(capacity: lineBytes)
    }

    /// Frees the buffers: the deflater owns them, and cannot be copied, so they are freed exactly once.
    deinit {
        tokens.deallocate(); literalFrequencies.deallocate(); distanceFrequencies.deallocate()
        upTokens.deallocate(); noneTokens.deallocate()
    }

    /// The zlib stream (header, one deflate block, Adler-32) of the image; nil if the deflater
    /// writes RGB (`opaque`) and a pixel is not opaque.
    mutating func zlibStream(_ data: UnsafePointer<UInt8>) -> [UInt8]? {
        guard let adler = tokenize(data) else { return nil }
        return encode(adler: UInt(adler))
    }

    // MARK: - Matching

    /// Fills `tokens` and the frequencies; returns the Adler-32 of the uncompressed stream, or nil
    /// as soon as a pixel is not opaque when writing RGB (a repeated row has the alpha of the
    /// row above, so converting the changed rows checks every pixel).
    ///
    /// A row identical to the one above is written with the Up filter: a filter byte 2 and zeros,
    /// coded as one run at distance 1 (a few bits per 258 bytes; a match one row up would cost 11
    /// extra bits each). Unfiltered rows are also matched against the last unfiltered row when it
    /// is inside deflate's 32 KiB window: the stream bytes that far back are that row's.
    ///
    /// Each changed row is scanned once per filter, its tokens kept aside: the filter that won the
    /// previous row goes first, and the other's scan stops as soon as it cannot be cheaper.
    ///
    /// One function on purpose: it is the encoder's per-row loop, whose line buffers, running
    /// Adler-32 and last-filter choice stay in registers and locals; split into calls, those would
    /// be passed and reloaded for each of the image's ~1000 rows (measured: `EZBench png-time`).
    private mutating func tokenize(_ data: UnsafePointer<UInt8>) -> UInt32? {
        let L = lineBytes
        // Each line buffer has 8 bytes of slack for `matchLength`'s last compare.
        func line() -> UnsafeMutablePointer<UInt8> {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: L + 8)
            buffer.initialize(repeating: 0, count: L + 8)
            return buffer
        }
        let reference = line()
        var above = line()
        var current = line()
        let filtered = line()
        defer { reference.deallocate(); above.deallocate(); current.deallocate(); filtered.deallocate() }
        filtered[0] = 2
        var adler = Adler32()
        var referenceDistance = Int.max  // bytes back to the last unfiltered row
        var upFirst = false
        for y in 0..<height {
            let src = data + y * stride
            if y > 0 && memcmp(src, src - stride, width * 4) == 0 {
                var n = 0
                put(literal: 2, upTokens, &n)
                put(literal: 0, upTokens, &n)
                if L - 2 >= 3 { put(match: L - 2, distance: 1, upTokens, &n) } else { for _ in 2..<L { put(literal: 0, upTokens, &n) } }
                commit(upTokens, n)
                adler.update(byte: 2, zeros: L - 1)
                if referenceDistance <= 32768 { referenceDistance += L }
                continue
            }
            current[0] = 0
            let pixels = UnsafeRawPointer(src).assumingMemoryBound(to: UInt32.self)
            // The bytes of the changed pixels (the whole row for the first).
            var spanStart = 1, spanEnd = L
            if y == 0 {
                guard PNGEncoder.convert(pixels, width: width, opaque: opaque, into: current + 1) else { return nil }
            } else {
                // Only the pixels from the first to the last one that differ from the row above
                // are converted; the rest is the row above's, already converted (and checked).
                let (lo, hi) = changedSpan(pixels, pixels - stride / 4)
                let P = pixelBytes
                spanStart = 1 + lo * P; spanEnd = 1 + hi * P
                (current + 1).update(from: above + 1, count: lo * P)
                guard PNGEncoder.convert(pixels + lo, width: hi - lo, opaque: opaque, into: current + 1 + lo * P) else { return nil }
                (current + 1 + hi * P).update(from: above + 1 + hi * P, count: (width - hi) * P)
            }
            // Whichever of Up (mostly zeros where the row above is the same) and None (matched
            // against the last unfiltered row) codes in fewer estimated bits; Up on a tie.
            let vertical = referenceDistance <= 32768 ? reference : nil
            var useUp = false
            var upCount = 0, noneCount = 0
            if y > 0 {
                // Up-filtered, the row is zero outside the span.
                (filtered + 1).update(repeating: 0, count: spanStart - 1)
                for i in spanStart..<spanEnd { filtered[i] = current[i] &- above[i] }
                (filtered + spanEnd).update(repeating: 0, count: L - spanEnd)
                if upFirst {
                    let upBits = scan(filtered, runDistance: 1, reference: nil, referenceDistance: 0, limit: Int.max,
                                      into: upTokens, count: &upCount, zeros: (spanStart, spanEnd))
                    // None wins only below upBits.
                    useUp = scan(current, runDistance: pixelBytes, reference: vertical, referenceDistance: referenceDistance,
                                 limit: upBits - 1, into: noneTokens, count: &noneCount) == Int.max
                } else {
                    let noneBits = scan(current, runDistance: pixelBytes, reference: vertical, referenceDistance: referenceDistance,
                                        limit: Int.max, into: noneTokens, count: &noneCount)
                    useUp = scan(filtered, runDistance: 1, reference: nil, referenceDistance: 0, limit: noneBits,
                                 into: upTokens, count: &upCount, zeros: (spanStart, spanEnd)) != Int.max
                }
            } else {
                _ = scan(current, runDistance: pixelBytes, reference: vertical, referenceDistance: referenceDistance,
                         limit: Int.max, into: noneTokens, count: &noneCount)
            }
            upFirst = useUp
            if useUp {
                commit(upTokens, upCount)
                adler.update(byte: 2, zeros: spanStart - 1)
                adler.update(filtered + spanStart, count: spanEnd - spanStart)
                adler.update(zeros: L - spanEnd)
                if referenceDistance <= 32768 { referenceDistance += L }
                swap(&above, &current)
                continue
            }
            commit(noneTokens, noneCount)
            adler.update(current, count: L)
            reference.update(from: current, count: L)
            referenceDistance = L
            swap(&above, &current)
        }
        return adler.value
    }

    /// Matches one line greedily into `out` (`count` tokens) and returns their estimated bits: a
    /// literal about 7, a match 6 plus its distance's extra bits; `Int.max` as soon as the bits
    /// exceed `limit`. Candidates: a run at `runDistance`, a run of the pixel to the left, and the
    /// same bytes of `reference` (`referenceDistance` back); the longest wins, ties in that order.
    /// Bytes `1..<zeros.before` and from `zeros.after` on are known to be zero (an Up-filtered row
    /// outside its changed span): runs there are not compared byte by byte.
    ///
    /// A candidate is measured only if it can win: the one after the run must be longer than the
    /// best so far, so its byte at that length is compared first (as zlib checks a match's end),
    /// and none is tried once the best reaches the end of the line.
    private func scan(_ line: UnsafeMutablePointer<UInt8>, runDistance: Int, reference: UnsafeMutablePointer<UInt8>?,
                      referenceDistance: Int, limit: Int, into out: UnsafeMutablePointer<UInt32>, count n: inout Int,
                      zeros: (before: Int, after: Int) = (0, Int.max)) -> Int {
        let L = lineBytes
        let farBits = reference == nil ? 0 : DeflateSymbols.distanceExtra[DeflateSymbols.distanceSymbol(referenceDistance)]
        let pixelRuns = runDistance != pixelBytes
        let vertical = reference ?? line  // only read when `reference` is not nil
        var bits = 0
        var i = 0
        n = 0
        // From here on every candidate applies, so a position starts no match exactly when no
        // candidate's next 3 bytes are equal: tested for 6 positions at once.
        let everyCandidate = max(runDistance, pixelRuns ? pixelBytes : 0) &+ 1
        while i < L {
            let remaining = L &- i
            let p = line + i
            if i >= everyCandidate && remaining >= 8 {
                var starts = matchStarts(p, p - runDistance)
                if pixelRuns { starts |= matchStarts(p, p - pixelBytes) }
                if reference != nil { starts |= matchStarts(p, vertical + i) }
                let literals = starts == 0 ? 6 : starts.trailingZeroBitCount &>> 3
                if literals > 0 {
                    // 8 tokens stored, `literals` kept: a line never has more tokens than bytes,
                    // so `out` has room for the 8 bytes left from here.
                    let bytes = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)
                    UnsafeMutableRawPointer(out + n).storeBytes(of: SIMD8<UInt32>(truncatingIfNeeded: bytes), as: SIMD8<UInt32>.self)
                    n &+= literals
                    bits &+= 7 &* literals
                    i &+= literals
                    if bits > limit { return Int.max }
                    continue
                }
            }
            // best: the winner's length so far (0: a literal); kind 0 literal, 1 run, 2 pixel run, 3 reference.
            var best = 0, kind = 0
            if i > runDistance {
                let r = matchLength(p, p - runDistance, remaining, from: knownEqual(i, runDistance, remaining, zeros))
                if r >= 3 { best = r; kind = 1 }
            }
            if pixelRuns && i > pixelBytes {
                let need = max(3, best &+ 1)
                if need <= remaining && p[need &- 1] == p[need &- 1 &- pixelBytes] {
                    let h = matchLength(p, p - pixelBytes, remaining, from: knownEqual(i, pixelBytes, remaining, zeros))
                    if h >= need { best = h; kind = 2 }
                }
            }
            if reference != nil {
                let need = max(3, best &+ 1)
                let q = vertical + i
                if need <= remaining && p[need &- 1] == q[need &- 1] {
                    let v = matchLength(p, q, remaining)
                    if v >= need { best = v; kind = 3 }
                }
            }
            switch kind {
            case 3:
                bits &+= (best / 258 &+ 1) &* (6 &+ farBits)
                put(match: best, distance: referenceDistance, out, &n)
            case 1:
                bits &+= (best / 258 &+ 1) &* 6
                put(match: best, distance: runDistance, out, &n)
            case 2:
                bits &+= (best / 258 &+ 1) &* 7
                put(match: best, distance: pixelBytes, out, &n)
            default:
                bits &+= 7
                put(literal: p[0], out, &n)
                best = 1
            }
            i &+= best
            if bits > limit { return Int.max }
        }
        return bits
    }

    /// The pixels `lo..<hi` of `row` from its first to its last one that differs from `above`
    /// (the rows differ); 4 pixels compared at a time from each end.
    private func changedSpan(_ row: UnsafePointer<UInt32>, _ above: UnsafePointer<UInt32>) -> (Int, Int) {
        let a = UnsafeRawPointer(row), b = UnsafeRawPointer(above)
        var lo = 0
        while lo &+ 4 <= width && a.loadUnaligned(fromByteOffset: lo &* 4, as: SIMD4<UInt32>.self)
                == b.loadUnaligned(fromByteOffset: lo &* 4, as: SIMD4<UInt32>.self) { lo &+= 4 }
        while lo < width && row[lo] == above[lo] { lo &+= 1 }
        var hi = width
        while hi &- 4 >= lo && a.loadUnaligned(fromByteOffset: (hi &- 4) &* 4, as: SIMD4<UInt32>.self)
                == b.loadUnaligned(fromByteOffset: (hi &- 4) &* 4, as: SIMD4<UInt32>.self) { hi &-= 4 }
        while hi > lo && row[hi &- 1] == above[hi &- 1] { hi &-= 1 }
        return (lo, hi)
    }

    /// How many bytes from position `i` are known to equal those `distance` back, both being in
    /// a stretch of zeros (bytes `1..<zeros.before`, or from `zeros.after` on), up to `remaining`.
    @inline(__always)
    private func knownEqual(_ i: Int, _ distance: Int, _ remaining: Int, _ zeros: (before: Int, after: Int)) -> Int {
        if i &- distance >= 1 && i < zeros.before { return zeros.before &- i }
        if i &- distance >= zeros.after { return remaining }
        return 0
    }

    /// Which of the 6 positions from `a` start at least 3 bytes equal to those from `b`: the high
    /// bit of byte k is set for position k (reads 8 bytes from each).
    @inline(__always)
    private func matchStarts(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>) -> UInt64 {
        let x = UInt64(littleEndian: UnsafeRawPointer(a).loadUnaligned(as: UInt64.self) ^ UnsafeRawPointer(b).loadUnaligned(as: UInt64.self))
        // The high bit of each zero byte of x, exactly (no borrow crosses bytes).
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let zero = ~(((x & low) &+ low) | x | low)
        return zero & zero &>> 8 & zero &>> 16 & 0x0000_8080_8080_8080
    }

    /// How many bytes from `a` equal those from `b`, up to `limit` (at least 1); 8 at a time,
    /// the last 8 too: it reads up to 7 bytes past `limit` (the line buffers have that much
    /// slack), which never count.
    @inline(__always)
    private func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ limit: Int, from start: Int = 0) -> Int {
        if start >= limit { return limit }
        var n = start
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while true {
            let x = UInt64(littleEndian: ra.loadUnaligned(fromByteOffset: n, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: n, as: UInt64.self))
            if x != 0 { return min(n &+ x.trailingZeroBitCount &>> 3, limit) }
            n &+= 8
            if n >= limit { return limit }
        }
    }

    @inline(__always)
    private func put(literal byte: UInt8, _ out: UnsafeMutablePointer<UInt32>, _ n: inout Int) {
        out[n] = UInt32(byte)
        n += 1
    }

    /// A match of any length ≥ 3, as pieces of at most 258 bytes (none shorter than 3).
    @inline(__always)
    private func put(match total: Int, distance: Int, _ out: UnsafeMutablePointer<UInt32>, _ n: inout Int) {
        var left = total
        while left >= 3 {
            var piece = min(left, 258)
            if left - piece > 0 && left - piece < 3 { piece = left - 3 }
            out[n] = 1 << 31 | UInt32(piece) << 16 | UInt32(distance)
            n += 1
            left -= piece
        }
    }

    /// Appends a line's `count` tokens from `line` and counts their symbols.
    private mutating func commit(_ line: UnsafeMutablePointer<UInt32>, _ count: Int) {
        if tokenCount + count > tokenCapacity {
            let capacity = max(tokenCapacity * 2, tokenCount + count)
            let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
            grown.moveInitialize(from: tokens, count: tokenCount)
            tokens.deallocate()
            tokens = grown
            tokenCapacity = capacity
        }
        // Copied and counted in one pass (a count cannot overflow: at most one per byte of the image).
        let target = tokens + tokenCount, literals = literalFrequencies, distances = distanceFrequencies
        tokenCount += count
        DeflateSymbols.lengthIndex.withUnsafeBufferPointer { lengthIndex in
            for t in 0..<count {
                let token = line[t]
                target[t] = token
                if token < 256 {
                    literals[Int(token)] &+= 1
                } else {
                    literals[257 &+ Int(lengthIndex[Int(token &>> 16 & 0x1FF)])] &+= 1
                    distances[DeflateSymbols.distanceSymbol(Int(token & 0xFFFF))] &+= 1
                }
            }
        }
    }

    // MARK: - Coding

    private func encode(adler: UInt) -> [UInt8] {
        var litFreq = Array(UnsafeBufferPointer(start: literalFrequencies, count: 286))
        litFreq[256] = 1  // end of block
        let lit = HuffmanCode(frequencies: litFreq, maxBits: 15, fallback: (0, 256))
        let dist = HuffmanCode(frequencies: Array(UnsafeBufferPointer(start: distanceFrequencies, count: 30)), maxBits: 15, fallback: (0, 1))
        // At most 15 + 5 + 15 + 13 bits per token, plus the header and the zlib wrapper.
        let capacity = tokenCount * 6 + 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var out = BitWriter(buffer: buffer)
        out.writeByte(0x78); out.writeByte(0x01)  // zlib: deflate, 32 KiB window, "fastest"
        out.write(1, 1)  // final block
        out.write(2, 2)  // dynamic Huffman
        writeTrees(&out, lit, dist)
        // Each length's code and extra bits as one value (the extra bits above the code).
        var lengthCode = [UInt32](repeating: 0, count: 259), lengthBits = [UInt8](repeating: 0, count: 259)
        for length in 3...258 {
            let li = Int(DeflateSymbols.lengthIndex[length])
            let codeBits = Int(lit.lengths[257 + li])
            lengthCode[length] = UInt32(lit.codes[257 + li]) | UInt32(length - DeflateSymbols.lengthBase[li]) << codeBits
            lengthBits[length] = UInt8(codeBits + DeflateSymbols.lengthExtra[li])
        }
        let distanceBase = DeflateSymbols.distanceBase, distanceExtra = DeflateSymbols.distanceExtra
        // One token is at most 15 + 5 + 15 + 13 = 48 bits: added whole, then flushed once.
        out.flush()
        lit.lengths.withUnsafeBufferPointer { litLen in
        lit.codes.withUnsafeBufferPointer { litCode in
        lengthCode.withUnsafeBufferPointer { lengthCode in
        lengthBits.withUnsafeBufferPointer { lengthBits in
            for t in 0..<tokenCount {
                let token = tokens[t]
                if token < 256 {
                    out.add(UInt64(litCode[Int(token)]), Int(litLen[Int(token)]))
                } else {
                    let length = Int(token >> 16 & 0x1FF), distance = Int(token & 0xFFFF)
                    out.add(UInt64(lengthCode[length]), Int(lengthBits[length]))
                    let ds = DeflateSymbols.distanceSymbol(distance)
                    let codeBits = Int(dist.lengths[ds])
                    out.add(UInt64(dist.codes[ds]) | UInt64(distance &- distanceBase[ds]) &<< UInt64(codeBits),
                            codeBits &+ distanceExtra[ds])
                }
                out.flush()
            }
        }}}}
        out.write(UInt32(lit.codes[256]), Int(lit.lengths[256]))
        out.finish()
        for shift in [24, 16, 8, 0] { out.writeByte(UInt8(truncatingIfNeeded: adler >> UInt(shift))) }
        return Array(UnsafeBufferPointer(start: buffer, count: out.count))
    }

    /// The dynamic block header: HLIT, HDIST, HCLEN, the code-length code, and both codes' lengths
    /// run-length coded (RFC 1951, 3.2.7).
    private func writeTrees(_ out: inout BitWriter, _ lit: HuffmanCode, _ dist: HuffmanCode) {
        var hlit = 286
        while hlit > 257 && lit.lengths[hlit - 1] == 0 { hlit -= 1 }
        var hdist = 30
        while hdist > 1 && dist.lengths[hdist - 1] == 0 { hdist -= 1 }
        let all = Array(lit.lengths[0..<hlit]) + Array(dist.lengths[0..<hdist])
        // Run-length code the lengths: (symbol, extra value, extra bits).
        var runs: [(Int, Int, Int)] = []
        var i = 0
        while i < all.count {
            let l = all[i]
            var run = 1
            while i + run < all.count && all[i + run] == l { run += 1 }
            if l == 0 && run >= 3 {
                let n = min(run, 138)
                runs.append(n >= 11 ? (18, n - 11, 7) : (17, n - 3, 3))
                i += n
            } else if l != 0 && run >= 4 {
                runs.append((Int(l), 0, 0))
                let n = min(run - 1, 6)
                runs.append((16, n - 3, 2))
                i += 1 + n
            } else {
                runs.append((Int(l), 0, 0))
                i += 1
            }
        }
        var freq = [Int](repeating: 0, count: 19)
        for r in runs { freq[r.0] += 1 }
        let lengthCode = HuffmanCode(frequencies: freq, maxBits: 7, fallback: (0, 1))
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var hclen = 19
        while hclen > 4 && lengthCode.lengths[order[hclen - 1]] == 0 { hclen -= 1 }
        out.write(UInt32(hlit - 257), 5)
        out.write(UInt32(hdist - 1), 5)
        out.write(UInt32(hclen - 4), 4)
        for k in 0..<hclen { out.write(UInt32(lengthCode.lengths[order[k]]), 3) }
        for (symbol, extra, bits) in runs {
            out.write(UInt32(lengthCode.codes[symbol]), Int(lengthCode.lengths[symbol]))
            if bits > 0 { out.write(UInt32(extra), bits) }
        }
    }
}
