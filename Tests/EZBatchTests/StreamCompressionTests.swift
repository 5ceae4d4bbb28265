import CCairo
import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// ``StreamCompression``: a library's request for zlib's default level gets ezreport's level; an
/// explicit level is left alone; the shipped binary deflates its PDF streams at level 1.
final class StreamCompressionTests: XCTestCase {
    override func tearDown() {
        StreamCompression.defaultLevel = 1
    }

    /// The second byte of the zlib header a fresh stream writes for `level` requested through
    /// `deflateInit2_`, the entry point minizip calls (Cairo's `deflateInit_` goes through it too).
    private func zlibHeaderLevelByte(requesting level: Int32) throws -> UInt8 {
        var stream = z_stream()
        XCTAssertEqual(ez_deflate_init(&stream, level, Z_DEFAULT_STRATEGY), Z_OK)
        defer { deflateEnd(&stream) }
        var input = Array("ledger ".utf8), output = [UInt8](repeating: 0, count: 64)
        let status = input.withUnsafeMutableBufferPointer { inp in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = inp.baseAddress; stream.avail_in = UInt32(inp.count)
                stream.next_out = out.baseAddress; stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        XCTAssertEqual(status, Z_STREAM_END)
        XCTAssertEqual(output[0], 0x78, "a zlib stream with a 32 KB window")
        return output[1]
    }

    // FLEVEL in the zlib header: 0x01 for level 1, 0x9C for 2…6 (the default), 0xDA for 7…9.

    func testTheSubstitutionIsInEffectInThisProcess() {
        XCTAssertTrue(StreamCompression.isActive, "the test binary must export deflateInit_ and deflateInit2_")
    }

    func testADefaultRequestGetsTheChosenLevel() throws {
        XCTAssertEqual(StreamCompression.defaultLevel, 1, "level 1 unless changed")
        XCTAssertEqual(try zlibHeaderLevelByte(requesting: Z_DEFAULT_COMPRESSION), 0x01)
        StreamCompression.defaultLevel = 9
        XCTAssertEqual(try zlibHeaderLevelByte(requesting: Z_DEFAULT_COMPRESSION), 0xDA)
    }

    func testNilRestoresZlibsOwnDefault() throws {
        StreamCompression.defaultLevel = nil
        XCTAssertNil(StreamCompression.defaultLevel)
        XCTAssertEqual(try zlibHeaderLevelByte(requesting: Z_DEFAULT_COMPRESSION), 0x9C)
    }

    func testAnExplicitLevelIsLeftAlone() throws {
        XCTAssertEqual(try zlibHeaderLevelByte(requesting: 9), 0xDA)
        StreamCompression.defaultLevel = 9
        XCTAssertEqual(try zlibHeaderLevelByte(requesting: 1), 0x01)
    }

    func testTheExportedPDFsStreamsAreDeflatedAtLevelOne() throws {
        let fixture = try SampleFixture.shared()
        let run = try CLI.run(["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period,
                               "--as-of", fixture.asOf, "--format", "pdf", "--out", "-"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let pdf = [UInt8](run.stdout)
        let marker = Array("/FlateDecode".utf8), start = Array("stream\n".utf8)
        var headers: [UInt8] = []
        var i = 0
        while let f = pdf.firstRange(of: marker, from: i), let s = pdf.firstRange(of: start, from: f.upperBound) {
            headers.append(pdf[s.upperBound + 1])
            XCTAssertEqual(pdf[s.upperBound], 0x78, "stream at byte \(s.upperBound) is not a zlib stream")
            i = s.upperBound
        }
        XCTAssertGreaterThan(headers.count, 3, "content and font streams")
        XCTAssertEqual(Set(headers), [0x01], "every Flate stream of the PDF at level 1")
    }
}

private extension Array where Element == UInt8 {
    func firstRange(of needle: [UInt8], from: Int) -> Range<Int>? {
        guard needle.count <= count - from else { return nil }
        var i = from
        while i <= count - needle.count {
            if self[i] == needle[0] && Array(self[i..<i + needle.count]) == needle { return i..<i + needle.count }
            i += 1
        }
        return nil
    }
}
