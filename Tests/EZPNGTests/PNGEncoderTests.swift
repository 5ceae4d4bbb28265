import CCairo
import CZlib
@testable import EZCairo
import EZCore
@testable import EZPNG
import Foundation
import EZRenderingTestSupport
import XCTest
@testable import EZCharts

/// The PNG encoder's files, decoded by libpng (through Cairo's PNG reader, not the encoder under
/// test), hold exactly the surface's pixels, stay within 1.5× the size of Cairo's own writer, and
/// are byte-identical for identical pixels.
final class ChartsPNGEncoderTests: XCTestCase {
    // MARK: - Helpers

    /// The pixels of a PNG as Cairo's premultiplied ARGB32, decoded by libpng.
    private func decode(_ png: [UInt8]) throws -> (Int, Int, [UInt32]) {
        let d = try PNGInfo.decodePixels(png)
        return (d.width, d.height, d.pixels)
    }

    private func pixels(of data: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { out.append(row[x]) }
        }
        return out
    }

    /// The surface's own pixels.
    private func pixels(of surface: CairoSurface) -> [UInt32] {
        cairo_surface_flush(surface.pointer)
        return pixels(of: cairo_image_surface_get_data(surface.pointer)!,
                      width: Int(cairo_image_surface_get_width(surface.pointer)),
                      height: Int(cairo_image_surface_get_height(surface.pointer)),
                      stride: Int(cairo_image_surface_get_stride(surface.pointer)))
    }

    /// A statement chart drawn as `ChartRenderer.png` draws it, before encoding.
    private func render(_ named: NamedChart) throws -> CairoSurface {
        try ChartRenderer.surface(named.chart)
    }

    /// Encodes `argb` (premultiplied, `width` × `height`, no padding) with the default encoder.
    private func encode(_ argb: [UInt32], width: Int, height: Int) throws -> [UInt8] {
        try argb.withUnsafeBytes { raw in
            try PNGEncoder.encode(argb32: raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                  width: width, height: height, stride: width * 4)
        }
    }

    /// What Cairo's own writer and reader make of `argb`: the reference for translucent pixels.
    private func cairoRoundTrip(_ argb: [UInt32], width: Int, height: Int) throws -> [UInt32] {
        var copy = argb
        let png: [UInt8] = copy.withUnsafeMutableBytes { raw in
            let s = cairo_image_surface_create_for_data(raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                                        CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(width * 4))!
            defer { cairo_surface_destroy(s) }
            final class Sink { var bytes: [UInt8] = [] }
            let sink = Sink()
            let status = cairo_surface_write_to_png_stream(s, { closure, data, length in
                Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue().bytes
                    .append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque())
            XCTAssertEqual(status, CAIRO_STATUS_SUCCESS)
            return sink.bytes
        }
        return try decode(png).2
    }

    /// Deterministic pseudo-random numbers (xorshift), so a failure can be reproduced.
    private struct Noise {
        var state: UInt64
        mutating func next() -> UInt32 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt32(truncatingIfNeeded: state >> 16)
        }
    }

    // MARK: - Real charts

    func testEveryStatementChartDecodesToTheSurfacePixelsExactly() throws {
        for named in StatementCharts.charts(for: ChartsFixtures.statement()) {
            let surface = try render(named)
            let png = try surface.pngData()
            XCTAssertEqual(png[25], 2, "\(named.fileName): an opaque chart is written as RGB")
            let (w, h, decoded) = try decode(png)
            XCTAssertEqual(w, 1600); XCTAssertEqual(h, 1000)
            let source = pixels(of: surface)
            let firstDifference = source.indices.first { source[$0] != decoded[$0] }
            XCTAssertNil(firstDifference, "\(named.fileName): pixel \(firstDifference ?? 0) differs after decoding")
        }
    }

    func testEveryStatementChartIsWithinOneAndAHalfTimesCairosSize() throws {
        // Cairo's writer as shipped: libpng at zlib's own default level.
        for style in [User.ChartStyle.doughnut, .pie] {
            for named in StatementCharts.charts(for: ChartsFixtures.statement(style: style)) {
                let surface = try render(named)
                let ours = try surface.pngData().count, cairo = try surface.cairoPNGData().count
                XCTAssertLessThanOrEqual(Double(ours), 1.5 * Double(cairo),
                                         "\(named.fileName) (\(style)): \(ours) bytes against Cairo's \(cairo)")
            }
        }
    }

    func testSamePixelsGiveIdenticalBytes() throws {
        let named = StatementCharts.charts(for: ChartsFixtures.statement())[2]
        XCTAssertEqual(try render(named).pngData(), try render(named).pngData())
    }

    // MARK: - Edge cases

    func testNoiseAndTinyOpaqueImagesRoundTripExactly() throws {
        var noise = Noise(state: 0x9E37_79B9_7F4A_7C15)
        for (w, h) in [(1, 1), (1, 5), (2, 3), (3, 1), (17, 9), (300, 40)] {
            // Random colours, repeated rows, runs and a repeated pixel pattern, all opaque.
            var argb: [UInt32] = []
            for y in 0..<h {
                for x in 0..<w {
                    let kind = (y / 3 + x / 7) % 4
                    argb.append(0xFF00_0000 | (kind == 0 ? noise.next() & 0xFF_FFFF : kind == 1 ? 0xFF_FFFF : UInt32(x % 3) * 0x40_2010))
                }
                if y % 4 == 3 { argb.replaceSubrange((y * w)..<(y * w + w), with: argb[((y - 1) * w)..<(y * w)]) }
            }
            let png = try encode(argb, width: w, height: h)
            XCTAssertEqual(png[25], 2, "\(w)×\(h) opaque → RGB")
            let (dw, dh, decoded) = try decode(png)
            XCTAssertEqual([dw, dh], [w, h])
            XCTAssertEqual(decoded, argb, "\(w)×\(h)")
        }
    }

    func testShortMatchesAtEveryOffsetAndRowEndRoundTripExactly() throws {
        // Noise with short matches of every kind the encoder looks for: a repeated pixel, a grey
        // pixel (equal bytes, a run at distance 1 once Up-filtered), a pixel copied from two rows
        // up (the last unfiltered row) and one equal to the pixel above; they start at every
        // offset, the last ones in a row's final bytes, for widths that are no multiple of 8.
        var noise = Noise(state: 0x5EED)
        for w in [2, 3, 5, 7, 9, 11, 13, 17, 23, 33, 64, 65] {
            let h = 16
            var argb: [UInt32] = []
            for y in 0..<h {
                for x in 0..<w {
                    let random = 0xFF00_0000 | noise.next() & 0xFF_FFFF
                    switch (x * 7 + y * 3 + Int(noise.next() % 3)) % 6 {
                    case 0 where x > 0: argb.append(argb[argb.count - 1])
                    case 1: let g = noise.next() & 0xFF; argb.append(0xFF00_0000 | g << 16 | g << 8 | g)
                    case 2 where y > 1: argb.append(argb[(y - 2) * w + x])
                    case 3 where y > 0: argb.append(argb[(y - 1) * w + x])
                    default: argb.append(random)
                    }
                }
            }
            let png = try encode(argb, width: w, height: h)
            XCTAssertEqual(try decode(png).2, argb, "\(w)×\(h)")
            XCTAssertEqual(png, try encode(argb, width: w, height: h), "\(w)×\(h): not deterministic")
        }
    }

    func testRowsChangedInOneSpanRoundTripExactly() throws {
        // Each row differs from the one above in one span: at the start, at the end, one pixel,
        // the whole row, or in the middle, for widths that are no multiple of 4; opaque (RGB) and
        // with translucent pixels (RGBA, compared with Cairo's own writer).
        var noise = Noise(state: 0xC0FFEE)
        for translucent in [false, true] {
            for w in [1, 2, 3, 4, 5, 6, 7, 9, 13, 31, 64, 67] {
                let h = 24
                var argb = (0..<w).map { _ in 0xFF00_0000 | noise.next() & 0xFF_FFFF }
                for y in 1..<h {
                    var row = Array(argb[((y - 1) * w)..<(y * w)])
                    let spans = [(0, 1), (w - 1, w), (0, w), (w / 2, w / 2 + 1), (w / 3, w - w / 3), (0, (w + 1) / 2), (w / 2, w)]
                    let (lo, hi) = spans[y % spans.count]
                    for x in lo..<max(hi, lo + 1) where x < w {
                        let a: UInt32 = translucent && x % 2 == 1 ? noise.next() & 0xFF : 255
                        let c = noise.next()
                        row[x] = a << 24 | (c & 0xFF) % (a + 1) << 16 | (c >> 8 & 0xFF) % (a + 1) << 8 | (c >> 16 & 0xFF) % (a + 1)
                    }
                    argb += row
                }
                let png = try encode(argb, width: w, height: h)
                let anyTranslucent = argb.contains { $0 >> 24 != 255 }
                XCTAssertEqual(png[25], anyTranslucent ? 6 : 2, "\(w)×\(h)")
                let expected = anyTranslucent ? try cairoRoundTrip(argb, width: w, height: h) : argb
                XCTAssertEqual(try decode(png).2, expected, "\(w)×\(h), translucent: \(translucent)")
            }
        }
    }

    func testTranslucentPixelsDecodeAsCairosOwnWriterWrites() throws {
        var noise = Noise(state: 42)
        let w = 64, h = 24
        var argb: [UInt32] = []
        for y in 0..<h {
            for x in 0..<w {
                let a = y < 4 ? 0 : (x < 32 ? 255 : noise.next() & 0xFF)
                // Premultiplied: every colour channel at most alpha.
                let r = a == 0 ? 0 : noise.next() % (a + 1), g = a == 0 ? 0 : noise.next() % (a + 1), b = a == 0 ? 0 : noise.next() % (a + 1)
                argb.append(a << 24 | r << 16 | g << 8 | b)
            }
        }
        let png = try encode(argb, width: w, height: h)
        XCTAssertEqual(png[25], 6, "translucent → RGBA")
        XCTAssertEqual(try decode(png).2, try cairoRoundTrip(argb, width: w, height: h))
    }

    // MARK: - Adler-32

    func testAdler32MatchesZlibOnEveryLengthAndBlockBoundary() {
        var noise = Noise(state: 7)
        // All 255s is the worst case for the lane sums; lengths straddle 16-byte steps and 16 KiB blocks.
        let bytes: [UInt8] = (0..<70_000).map { $0 < 40_000 ? 255 : UInt8(truncatingIfNeeded: noise.next()) }
        bytes.withUnsafeBufferPointer { buf in
            for (start, length) in [(0, 0), (0, 1), (3, 15), (0, 16), (1, 17), (0, 16_383), (0, 16_384), (5, 16_400),
                                    (0, 40_000), (39_990, 4_801), (100, 69_900), (12, 6_401)] {
                var adler = Adler32()
                adler.update(buf.baseAddress! + start, count: length)
                XCTAssertEqual(UInt(adler.value), adler32(1, buf.baseAddress! + start, uInt(length)), "\(start)+\(length)")
            }
            // Piecewise, including an identical Up-filtered row ([2, 0, 0, …]), as the encoder feeds it.
            var adler = Adler32()
            var zlib = adler32(0, nil, 0)
            let upRow = [UInt8](repeating: 0, count: 4_800)
            for (start, length) in [(0, 4_801), (4_801, 4_801), (60_000, 7)] {
                adler.update(buf.baseAddress! + start, count: length)
                zlib = adler32(zlib, buf.baseAddress! + start, uInt(length))
                adler.update(byte: 2, zeros: upRow.count)
                zlib = adler32(zlib, [2], 1)
                zlib = adler32(zlib, upRow, uInt(upRow.count))
            }
            XCTAssertEqual(UInt(adler.value), zlib)
            // An Up-filtered row changed in one span: the filter byte, zeros, the span, zeros.
            for (before, span, after) in [(0, 7, 0), (3, 1, 4_000), (4_799, 1, 0), (65_521, 20, 131_043), (0, 0, 17)] {
                adler.update(byte: 2, zeros: before)
                adler.update(buf.baseAddress! + 50_000, count: span)
                adler.update(zeros: after)
                let zeros = [UInt8](repeating: 0, count: max(before, after))
                zlib = adler32(zlib, [2], 1)
                zlib = adler32(zlib, zeros, uInt(before))
                zlib = adler32(zlib, buf.baseAddress! + 50_000, uInt(span))
                zlib = adler32(zlib, zeros, uInt(after))
                XCTAssertEqual(UInt(adler.value), zlib, "\(before) zeros, \(span) bytes, \(after) zeros")
            }
        }
    }

    // MARK: - Huffman codes

    /// The cost of an optimal code for `frequencies`: the sum of every merged node's weight.
    private func optimalCost(_ frequencies: [Int]) -> Int {
        var weights = frequencies.filter { $0 > 0 }
        var cost = 0
        while weights.count > 1 {
            weights.sort()
            let merged = weights[0] + weights[1]
            cost += merged
            weights.replaceSubrange(0..<2, with: [merged])
        }
        return cost
    }

    /// Whether `codes` (bit-reversed, as deflate writes them) form a prefix code for `lengths`.
    private func isPrefixFree(_ lengths: [UInt8], _ codes: [UInt16]) -> Bool {
        let used = lengths.indices.filter { lengths[$0] > 0 }
        for a in used {
            for b in used where a != b && lengths[a] <= lengths[b] {
                let mask = UInt16((1 << Int(lengths[a])) - 1)
                if codes[b] & mask == codes[a] { return false }
            }
        }
        return true
    }

    func testHuffmanCodesAreOptimalCompletePrefixCodes() {
        var noise = Noise(state: 99)
        let alphabets: [[Int]] = [
            (0..<286).map { _ in 100 + Int(noise.next() % 900) },  // shallow enough for the 15-bit limit
            (0..<286).map { $0 % 7 == 0 ? Int(noise.next() % 50_000) : 0 },
            (0..<30).map { _ in 5 },                          // all ties
            [0, 0, 3, 0, 1] + [Int](repeating: 0, count: 25),  // two symbols
        ]
        for (k, frequencies) in alphabets.enumerated() {
            let code = HuffmanCode(frequencies: frequencies, maxBits: 15, fallback: (0, 1))
            let cost = frequencies.indices.reduce(0) { $0 + frequencies[$1] * Int(code.lengths[$1]) }
            XCTAssertEqual(cost, optimalCost(frequencies), "alphabet \(k): not an optimal code")
            let kraft = code.lengths.reduce(0.0) { $1 == 0 ? $0 : $0 + 1.0 / Double(1 << Int($1)) }
            XCTAssertEqual(kraft, 1.0, "alphabet \(k): the code is not complete")
            XCTAssertTrue(isPrefixFree(code.lengths, code.codes), "alphabet \(k)")
            XCTAssertEqual(HuffmanCode(frequencies: frequencies, maxBits: 15, fallback: (0, 1)).lengths, code.lengths)
        }
    }

    func testHuffmanCodesStayWithinTheLengthLimit() {
        // Fibonacci weights make an optimal code 24 bits deep; deflate allows 15 (7 for the length code).
        XCTAssertEqual(optimalCost([1, 1, 2, 3, 5]), 1 * 4 + 1 * 4 + 2 * 3 + 3 * 2 + 5 * 1)
        var fibonacci = [1, 1]
        while fibonacci.count < 25 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for maxBits in [15, 7] {
            let code = HuffmanCode(frequencies: fibonacci, maxBits: maxBits, fallback: (0, 1))
            XCTAssertLessThanOrEqual(code.lengths.max()!, UInt8(maxBits))
            let kraft = code.lengths.reduce(0.0) { $1 == 0 ? $0 : $0 + 1.0 / Double(1 << Int($1)) }
            XCTAssertLessThanOrEqual(kraft, 1.0)
            XCTAssertTrue(code.lengths.allSatisfy { $0 > 0 })
            XCTAssertTrue(isPrefixFree(code.lengths, code.codes))
        }
    }
}
