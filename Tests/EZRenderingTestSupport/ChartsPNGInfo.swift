import CCairo
import CZlib
import Foundation

/// An independent reading of a PNG for the chart tests: IHDR and the chunk list parsed by hand,
/// pixels decoded by libpng (through cairo's PNG reader), not by the encoder under test.
package struct PNGInfo {
    package var width: Int
    package var height: Int
    package var colorType: UInt8
    package var chunkTypes: [String]
    /// Number of distinct ARGB pixel values.
    package var distinctColors: Int
    /// Share of pixels equal to the most common one (the background), 0…1.
    package var dominantShare: Double

    package struct Failure: Error, CustomStringConvertible { package var description: String }

    package init(_ png: [UInt8]) throws {
        guard png.count > 33, Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure(description: "not a PNG")
        }
        func u32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        var types: [String] = []
        var i = 8
        while i + 8 <= png.count {
            let len = u32(i)
            types.append(String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self))
            i += 12 + len
        }
        guard types.first == "IHDR" else { throw Failure(description: "IHDR is not first") }
        width = u32(16); height = u32(20); colorType = png[25]; chunkTypes = types

        let (_, _, pixels) = try Self.decodePixels(png)
        var counts: [UInt32: Int] = [:]
        for p in pixels { counts[p, default: 0] += 1 }
        distinctColors = counts.count
        dominantShare = Double(counts.values.max() ?? 0) / Double(max(1, width * height))
    }

    /// The pixels as Cairo's premultiplied ARGB32, row by row, decoded by libpng (through Cairo's
    /// PNG reader): an independent decoder for checking the engine's own PNG encoder.
    package static func decodePixels(_ png: [UInt8]) throws -> (width: Int, height: Int, pixels: [UInt32]) {
        final class Reader { var bytes: [UInt8]; var at = 0; init(_ b: [UInt8]) { bytes = b } }
        let reader = Reader(png)
        let surface = cairo_image_surface_create_from_png_stream({ closure, data, length in
            let r = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
            let n = Int(length)
            guard r.at + n <= r.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
            for k in 0..<n { data[k] = r.bytes[r.at + k] }
            r.at += n
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(reader).toOpaque())!
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw Failure(description: "libpng could not decode: " + String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var out: [UInt32] = []
        out.reserveCapacity(width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { out.append(row[x]) }
        }
        return (width, height, out)
    }
}
