import CZlib

/// Encodes Cairo's ARGB32 pixels as PNG, about 12× faster than Cairo's own writer (which
/// deflates at zlib's default level through libpng): by default with ``RowMatchDeflater``,
/// optionally with zlib at a chosen level, filter and strategy.
///
/// Opaque images are written as 8-bit RGB, others as 8-bit RGBA (un-premultiplied). The file has
/// only IHDR, IDAT and IEND: no time or text chunks, so identical pixels give identical bytes.
package enum PNGEncoder {
    /// The PNG scan-line filter applied to every row.
    package enum Filter: UInt8, Sendable {
        case none = 0, sub = 1, up = 2
    }

    /// Which deflate encoder writes the image data.
    package enum Engine: Hashable, Sendable {
        /// zlib with the options' level, filter and strategy.
        case zlib
        /// ``RowMatchDeflater``: only run-of-pixel and row-above matches, one dynamic Huffman
        /// block (level, filter and strategy are ignored; rows are unfiltered).
        case rowMatch
    }

    /// Compression settings.
    package struct Options: Hashable, Sendable {
        /// zlib level 1 (fastest) … 9 (smallest).
        package var level: Int32
        /// The row filter.
        package var filter: Filter
        /// zlib strategy: `Z_DEFAULT_STRATEGY` (0), `Z_FILTERED` (1), `Z_RLE` (3).
        package var strategy: Int32
        /// The deflate encoder.
        package var engine: Engine
        /// Options with the given level, filter and strategy.
        package init(level: Int32, filter: Filter, strategy: Int32 = 0, engine: Engine = .zlib) {
            self.level = level; self.filter = filter; self.strategy = strategy; self.engine = engine
        }
        /// The default: ``RowMatchDeflater``. Measured on the 303 statement charts of the 50-user
        /// sample ledger (1600 × 1000, CPU time): 3.99 ms per chart against 8.64 ms for zlib level 1
        /// unfiltered and 50 ms for Cairo's writer, then about 1.5× less again (one scan per filter,
        /// a lane-wise Adler-32, no separate opacity pass: 3.8 against 5.4 ms in one `png-sizes`
        /// run), then about 1.45× less again with the same bytes (a match candidate measured only
        /// if it can win, 6 positions tested at once for a match start, only a changed row's span
        /// converted and filtered, a branch-free bit writer, an O(n log n) Huffman code: 1.78
        /// against 2.59 ms per chart in alternating `png-time` runs, 18.5 against 35.0 M
        /// instructions); 1.04–1.39× Cairo's size by median per chart kind, at worst 1.49×.
        /// `EZBench png`, `png-sizes` and `png-time` reproduce this.
        package static let fast = Options(level: 1, filter: .none, strategy: 0, engine: .rowMatch)
        /// Smallest files, slowest.
        package static let small = Options(level: 9, filter: .up, strategy: 0)
    }

    /// Encodes `height` rows of `width` premultiplied native-endian ARGB32 pixels, `stride` bytes apart.
    ///
    /// Rows are converted, filtered and deflated a band at a time (about 256 KB), so the filtered
    /// image never exists whole: no multi-megabyte buffers to zero and fault in per chart.
    package static func encode(argb32 data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                              options: Options = .fast) throws(PNGError) -> [UInt8] {
        // Cairo's ARGB32 is a native-endian UInt32; read it as such so byte order never matters.
        if options.engine == .rowMatch {
            // Charts are opaque: RGB is tried first and the alpha checked as rows are converted
            // (no separate pass over the image); a translucent pixel restarts the image as RGBA.
            for opaque in [true, false] {
                var deflater = RowMatchDeflater(width: width, height: height, stride: stride, opaque: opaque)
                if let idat = deflater.zlibStream(data) {
                    return container(width: width, height: height, opaque: opaque, idat: idat)
                }
            }
        }
        let opaque = isOpaque(data, width: width, height: height, stride: stride)
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        let lineBytes = rowBytes + 1
        let bandRows = max(1, min(height, (256 << 10) / max(lineBytes, 1)))

        var stream = z_stream()
        let initStatus = ez_deflate_init(&stream, options.level, options.strategy)
        guard initStatus == Z_OK else {
            throw PNGError(operation: "starting zlib's deflate", zlibStatus: initStatus)
        }
        defer { deflateEnd(&stream) }

        var idat: [UInt8] = []
        idat.reserveCapacity(max(64 << 10, rowBytes * height / 16))
        var band = [UInt8](repeating: 0, count: bandRows * lineBytes)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        var sink = [UInt8](repeating: 0, count: 64 << 10)
        var status = Z_OK
        var y = 0
        while y < height {
            let rows = min(bandRows, height - y)
            band.withUnsafeMutableBufferPointer { out in
                current.withUnsafeMutableBufferPointer { cur in
                    previous.withUnsafeMutableBufferPointer { prev in
                        for r in 0..<rows {
                            let line = out.baseAddress! + r * lineBytes
                            let src = UnsafeRawPointer(data + (y + r) * stride).assumingMemoryBound(to: UInt32.self)
                            // Unfiltered rows are converted straight into the band.
                            let target = options.filter == .none ? line + 1 : cur.baseAddress!
                            convert(src, width: width, opaque: opaque, into: target)
                            line[0] = options.filter.rawValue
                            switch options.filter {
                            case .none:
                                break
                            case .sub:
                                for i in 0..<min(channels, rowBytes) { line[1 + i] = cur[i] }
                                if rowBytes > channels {
                                    for i in channels..<rowBytes { line[1 + i] = cur[i] &- cur[i - channels] }
                                }
                            case .up:
                                for i in 0..<rowBytes { line[1 + i] = cur[i] &- prev[i] }
                                prev.baseAddress!.update(from: cur.baseAddress!, count: rowBytes)
                            }
                        }
                    }
                }
            }
            y += rows
            let flush = y == height ? Z_FINISH : Z_NO_FLUSH
            band.withUnsafeMutableBufferPointer { inp in
                stream.next_in = inp.baseAddress
                stream.avail_in = uInt(rows * lineBytes)
                repeat {
                    sink.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        status = CZlib.deflate(&stream, flush)
                        idat.append(contentsOf: UnsafeBufferPointer(start: out.baseAddress, count: out.count - Int(stream.avail_out)))
                    }
                } while stream.avail_out == 0 && (status == Z_OK || status == Z_BUF_ERROR)
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { break }
        }
        guard status == Z_STREAM_END else {
            throw PNGError(operation: "deflating the image data", zlibStatus: status)
        }

        return container(width: width, height: height, opaque: opaque, idat: idat)
    }

    /// The PNG file: signature, IHDR, one IDAT with `idat` (a zlib stream), IEND.
    private static func container(width: Int, height: Int, opaque: Bool, idat: [UInt8]) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(idat.count + 64)
        var ihdr: [UInt8] = []
        appendBigEndian(&ihdr, UInt32(width))
        appendBigEndian(&ihdr, UInt32(height))
        ihdr += [8, opaque ? 2 : 6, 0, 0, 0]  // bit depth, colour type RGB/RGBA, deflate, adaptive filters, no interlace
        appendChunk(&png, "IHDR", ihdr)
        appendChunk(&png, "IDAT", idat)
        appendChunk(&png, "IEND", [])
        return png
    }

    /// One row of premultiplied ARGB32 as RGB (opaque) or un-premultiplied RGBA bytes; returns
    /// whether the row's pixels are all opaque (only checked for RGB; true for RGBA).
    @inline(__always) @discardableResult
    static func convert(_ row: UnsafePointer<UInt32>, width: Int, opaque: Bool, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        if opaque {
            var o = out
            var all: UInt32 = 0xFFFF_FFFF
            for x in 0..<width {
                let p = row[x]
                all &= p
                o[0] = UInt8(truncatingIfNeeded: p >> 16)
                o[1] = UInt8(truncatingIfNeeded: p >> 8)
                o[2] = UInt8(truncatingIfNeeded: p)
                o += 3
            }
            return all >> 24 == 0xFF
        } else {
            for x in 0..<width {
                let p = row[x]
                let a = UInt32(p >> 24)
                var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                if a != 0 && a != 255 {
                    r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
                }
                out[x &* 4] = UInt8(truncatingIfNeeded: r); out[x &* 4 &+ 1] = UInt8(truncatingIfNeeded: g)
                out[x &* 4 &+ 2] = UInt8(truncatingIfNeeded: b); out[x &* 4 &+ 3] = UInt8(truncatingIfNeeded: a)
            }
            return true
        }
    }

    /// Whether every pixel has alpha 255: the alpha bytes are ANDed row by row (no early branch
    /// per pixel, so the loop vectorises).
    private static func isOpaque(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Bool {
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            var all: UInt32 = 0xFFFF_FFFF
            for x in 0..<width { all &= row[x] }
            if all >> 24 != 0xFF { return false }
        }
        return true
    }

    private static func appendBigEndian(_ out: inout [UInt8], _ v: UInt32) {
        out += [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    private static func appendChunk(_ out: inout [UInt8], _ type: String, _ data: [UInt8]) {
        appendBigEndian(&out, UInt32(data.count))
        let start = out.count
        out += Array(type.utf8)
        out += data
        let crc = out.withUnsafeBufferPointer { buf in
            crc32(0, buf.baseAddress! + start, uInt(buf.count - start))
        }
        appendBigEndian(&out, UInt32(crc))
    }
}
