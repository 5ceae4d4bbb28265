import CCairo

/// Encodes Cairo's ARGB32 pixels as PNG with zlib directly, several times faster than Cairo's
/// own writer (which deflates at zlib's default level through libpng).
///
/// Opaque images are written as 8-bit RGB, others as 8-bit RGBA (un-premultiplied). The file has
/// only IHDR, IDAT and IEND: no time or text chunks, so identical pixels give identical bytes.
public enum PNGEncoder {
    /// The PNG scan-line filter applied to every row.
    public enum Filter: UInt8, Sendable {
        case none = 0, sub = 1, up = 2
    }

    /// Compression settings.
    public struct Options: Hashable, Sendable {
        /// zlib level 1 (fastest) … 9 (smallest).
        public var level: Int32
        /// The row filter.
        public var filter: Filter
        /// zlib strategy: `Z_DEFAULT_STRATEGY` (0), `Z_FILTERED` (1), `Z_RLE` (3).
        public var strategy: Int32
        /// Options with the given level, filter and strategy.
        public init(level: Int32, filter: Filter, strategy: Int32 = 0) {
            self.level = level; self.filter = filter; self.strategy = strategy
        }
        /// The default: zlib level 1 without row filters. Measured on the statement charts
        /// (1600 × 1000, loaded 2-core machine): 15.7 ms and 90.6 KB per chart against Cairo's
        /// writer at 111 ms and 76.7 KB (1.18× the size). Flat chart colours compress better
        /// unfiltered: deflate already matches the row above; the Up filter gave 99.9 KB.
        public static let fast = Options(level: 1, filter: .none, strategy: 0)
        /// Smallest files, slowest.
        public static let small = Options(level: 9, filter: .up, strategy: 0)
    }

    /// Encodes `height` rows of `width` premultiplied native-endian ARGB32 pixels, `stride` bytes apart.
    public static func encode(argb32 data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int,
                              options: Options = .fast) throws(CairoError) -> [UInt8] {
        // Cairo's ARGB32 is a native-endian UInt32; read it as such so byte order never matters.
        let opaque = isOpaque(data, width: width, height: height, stride: stride)
        let channels = opaque ? 3 : 4
        let rowBytes = width * channels
        let rawCount = (rowBytes + 1) * height
        var raw = [UInt8](repeating: 0, count: rawCount)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        raw.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                current.withUnsafeMutableBufferPointer { cur in
                    if opaque {
                        for x in 0..<width {
                            let p = row[x]
                            cur[x * 3] = UInt8(truncatingIfNeeded: p >> 16)
                            cur[x * 3 + 1] = UInt8(truncatingIfNeeded: p >> 8)
                            cur[x * 3 + 2] = UInt8(truncatingIfNeeded: p)
                        }
                    } else {
                        for x in 0..<width {
                            let p = row[x]
                            let a = UInt32(p >> 24)
                            var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                            if a != 0 && a != 255 {
                                r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
                            }
                            cur[x * 4] = UInt8(r); cur[x * 4 + 1] = UInt8(g); cur[x * 4 + 2] = UInt8(b)
                            cur[x * 4 + 3] = UInt8(a)
                        }
                    }
                }
                let base = y * (rowBytes + 1)
                out[base] = options.filter.rawValue
                current.withUnsafeBufferPointer { cur in
                    previous.withUnsafeBufferPointer { prev in
                        switch options.filter {
                        case .none:
                            for i in 0..<rowBytes { out[base + 1 + i] = cur[i] }
                        case .sub:
                            for i in 0..<channels { out[base + 1 + i] = cur[i] }
                            for i in channels..<max(channels, rowBytes) { out[base + 1 + i] = cur[i] &- cur[i - channels] }
                        case .up:
                            for i in 0..<rowBytes { out[base + 1 + i] = cur[i] &- prev[i] }
                        }
                    }
                }
                swap(&previous, &current)
            }
        }
        let idat = try deflate(raw, options: options)

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

    private static func isOpaque(_ data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> Bool {
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where row[x] >> 24 != 0xFF { return false }
        }
        return true
    }

    private static func deflate(_ input: [UInt8], options: Options) throws(CairoError) -> [UInt8] {
        var stream = z_stream()
        let initStatus = ez_deflate_init(&stream, options.level, options.strategy)
        guard initStatus == Z_OK else {
            throw CairoError("encoding a PNG", message: "zlib deflateInit2 failed (\(initStatus))")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let status: Int32 = input.withUnsafeBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: inp.baseAddress)
                stream.avail_in = uInt(inp.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return CCairo.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else {
            throw CairoError("encoding a PNG", message: "zlib deflate failed (\(status))")
        }
        output.removeSubrange(Int(stream.total_out)...)
        return output
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
