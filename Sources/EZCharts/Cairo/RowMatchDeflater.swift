import CCairo

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
struct RowMatchDeflater {
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
    private var literalFrequencies = [Int](repeating: 0, count: 286)
    private var distanceFrequencies = [Int](repeating: 0, count: 30)

    /// A deflater for `height` rows of `width` ARGB32 pixels `stride` bytes apart, written as RGB
    /// (`opaque`) or un-premultiplied RGBA, each row behind a filter byte 0 (None).
    init(width: Int, height: Int, stride: Int, opaque: Bool) {
        self.width = width; self.height = height; self.stride = stride; self.opaque = opaque
        pixelBytes = opaque ? 3 : 4
        lineBytes = width * pixelBytes + 1
        tokenCapacity = max(1 << 16, height * 64)
        tokens = .allocate(capacity: tokenCapacity)
    }

    /// Frees the token buffer; call once when done.
    func deallocate() { tokens.deallocate() }

    /// The zlib stream (header, one deflate block, Adler-32) of the image.
    mutating func zlibStream(_ data: UnsafePointer<UInt8>) -> [UInt8] {
        let adler = tokenize(data)
        return encode(adler: UInt(adler))
    }

    // MARK: - Matching

    /// Fills `tokens` and the frequencies; returns the Adler-32 of the uncompressed stream.
    ///
    /// A row identical to the one above is written with the Up filter: a filter byte 2 and zeros,
    /// coded as one run at distance 1 (a few bits per 258 bytes; a match one row up would cost 11
    /// extra bits each). Unfiltered rows are also matched against the last unfiltered row when it
    /// is inside deflate's 32 KiB window: the stream bytes that far back are that row's.
    private mutating func tokenize(_ data: UnsafePointer<UInt8>) -> UInt32 {
        let L = lineBytes
        let reference = UnsafeMutablePointer<UInt8>.allocate(capacity: L)
        var above = UnsafeMutablePointer<UInt8>.allocate(capacity: L)
        var current = UnsafeMutablePointer<UInt8>.allocate(capacity: L)
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: L)
        defer { reference.deallocate(); above.deallocate(); current.deallocate(); filtered.deallocate() }
        var adler = Adler32()
        var referenceDistance = Int.max  // bytes back to the last unfiltered row
        for y in 0..<height {
            let src = data + y * stride
            if y > 0 && memcmp(src, src - stride, width * 4) == 0 {
                emitLiteral(2)
                emitLiteral(0)
                if L - 2 >= 3 { emitMatch(L - 2, distance: 1) } else { for _ in 2..<L { emitLiteral(0) } }
                adler.update(byte: 2, zeros: L - 1)
                if referenceDistance <= 32768 { referenceDistance += L }
                continue
            }
            current[0] = 0
            PNGEncoder.convert(UnsafeRawPointer(src).assumingMemoryBound(to: UInt32.self), width: width,
                               opaque: opaque, into: current + 1)
            // Whichever of Up (mostly zeros where the row above is the same) and None (matched
            // against the last unfiltered row) codes in fewer estimated bits.
            var upBits = Int.max
            if y > 0 {
                filtered[0] = 2
                for i in 1..<L { filtered[i] = current[i] &- above[i] }
                upBits = scan(filtered, runDistance: 1, reference: nil, referenceDistance: 0, emit: false)
            }
            let vertical = referenceDistance <= 32768 ? reference : nil
            if upBits < Int.max
                && upBits <= scan(current, runDistance: pixelBytes, reference: vertical, referenceDistance: referenceDistance, emit: false) {
                adler.update(filtered, count: L)
                _ = scan(filtered, runDistance: 1, reference: nil, referenceDistance: 0, emit: true)
                if referenceDistance <= 32768 { referenceDistance += L }
                swap(&above, &current)
                continue
            }
            adler.update(current, count: L)
            _ = scan(current, runDistance: pixelBytes, reference: vertical, referenceDistance: referenceDistance, emit: true)
            reference.update(from: current, count: L)
            referenceDistance = L
            swap(&above, &current)
        }
        return adler.value
    }

    /// Matches one line greedily, emitting the tokens or only estimating their bits: a literal
    /// about 7, a match 6 plus its distance's extra bits. Candidates: a run at `runDistance`, a run
    /// of the pixel to the left, and the same bytes of `reference` (`referenceDistance` back).
    private mutating func scan(_ line: UnsafeMutablePointer<UInt8>, runDistance: Int, reference: UnsafeMutablePointer<UInt8>?,
                               referenceDistance: Int, emit: Bool) -> Int {
        let L = lineBytes
        let farBits = reference == nil ? 0 : DeflateSymbols.distanceExtra[DeflateSymbols.distanceSymbol(referenceDistance)]
        var bits = 0
        var i = 0
        while i < L {
            let remaining = L - i
            let v = reference.map { matchLength(line + i, $0 + i, remaining) } ?? 0
            let r = i > runDistance ? matchLength(line + i, line + i - runDistance, remaining) : 0
            let h = runDistance != pixelBytes && i > pixelBytes ? matchLength(line + i, line + i - pixelBytes, remaining) : 0
            if v >= 3 && v > r && v > h {
                bits += (v / 258 + 1) * (6 + farBits)
                if emit { emitMatch(v, distance: referenceDistance) }
                i += v
            } else if r >= 3 && r >= h {
                bits += (r / 258 + 1) * 6
                if emit { emitMatch(r, distance: runDistance) }
                i += r
            } else if h >= 3 {
                bits += (h / 258 + 1) * 7
                if emit { emitMatch(h, distance: pixelBytes) }
                i += h
            } else {
                bits += 7
                if emit { emitLiteral(line[i]) }
                i += 1
            }
        }
        return bits
    }

    /// How many bytes from `a` equal those from `b`, up to `limit`; 8 at a time.
    @inline(__always)
    private func matchLength(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ limit: Int) -> Int {
        var n = 0
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        while n + 8 <= limit {
            let x = ra.loadUnaligned(fromByteOffset: n, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: n, as: UInt64.self)
            if x != 0 { return n + UInt64(littleEndian: x).trailingZeroBitCount / 8 }
            n += 8
        }
        while n < limit && a[n] == b[n] { n += 1 }
        return n
    }

    private mutating func reserve(_ n: Int) {
        guard tokenCount + n > tokenCapacity else { return }
        let grown = UnsafeMutablePointer<UInt32>.allocate(capacity: max(tokenCapacity * 2, tokenCount + n))
        grown.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = grown
        tokenCapacity = max(tokenCapacity * 2, tokenCount + n)
    }

    @inline(__always)
    private mutating func emitLiteral(_ byte: UInt8) {
        reserve(1)
        tokens[tokenCount] = UInt32(byte)
        tokenCount += 1
        literalFrequencies[Int(byte)] += 1
    }

    /// A match of any length ≥ 3, as pieces of at most 258 bytes (none shorter than 3).
    private mutating func emitMatch(_ total: Int, distance: Int) {
        var left = total
        reserve(left / 258 + 2)
        let distanceSymbol = DeflateSymbols.distanceSymbol(distance)
        while left >= 3 {
            var n = min(left, 258)
            if left - n > 0 && left - n < 3 { n = left - 3 }
            tokens[tokenCount] = 1 << 31 | UInt32(n) << 16 | UInt32(distance)
            tokenCount += 1
            literalFrequencies[257 + Int(DeflateSymbols.lengthIndex[n])] += 1
            distanceFrequencies[distanceSymbol] += 1
            left -= n
        }
    }

    // MARK: - Coding

    private func encode(adler: UInt) -> [UInt8] {
        var litFreq = literalFrequencies
        litFreq[256] = 1  // end of block
        let lit = HuffmanCode(frequencies: litFreq, maxBits: 15, fallback: (0, 256))
        let dist = HuffmanCode(frequencies: distanceFrequencies, maxBits: 15, fallback: (0, 1))
        // At most 15 + 5 + 15 + 13 bits per token, plus the header and the zlib wrapper.
        let capacity = tokenCount * 6 + 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var out = BitWriter(buffer: buffer)
        out.writeByte(0x78); out.writeByte(0x01)  // zlib: deflate, 32 KiB window, "fastest"
        out.write(1, 1)  // final block
        out.write(2, 2)  // dynamic Huffman
        writeTrees(&out, lit, dist)
        let lengthBase = DeflateSymbols.lengthBase, lengthExtra = DeflateSymbols.lengthExtra
        let distanceBase = DeflateSymbols.distanceBase, distanceExtra = DeflateSymbols.distanceExtra
        let lengthIndex = DeflateSymbols.lengthIndex
        lit.lengths.withUnsafeBufferPointer { litLen in
        lit.codes.withUnsafeBufferPointer { litCode in
        dist.lengths.withUnsafeBufferPointer { distLen in
        dist.codes.withUnsafeBufferPointer { distCode in
            for t in 0..<tokenCount {
                let token = tokens[t]
                if token < 256 {
                    out.write(UInt32(litCode[Int(token)]), Int(litLen[Int(token)]))
                    continue
                }
                let length = Int(token >> 16 & 0x1FF), distance = Int(token & 0xFFFF)
                let li = Int(lengthIndex[length])
                out.write(UInt32(litCode[257 + li]), Int(litLen[257 + li]))
                if lengthExtra[li] > 0 { out.write(UInt32(length - lengthBase[li]), lengthExtra[li]) }
                let ds = DeflateSymbols.distanceSymbol(distance)
                out.write(UInt32(distCode[ds]), Int(distLen[ds]))
                if distanceExtra[ds] > 0 { out.write(UInt32(distance - distanceBase[ds]), distanceExtra[ds]) }
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
