import CFastNumberFormat
import EZBatch
import EZCore
import EZTestSupport
import Foundation
import XCTest

/// ``FastNumberFormat``: every number the fast path prints is the one glibc would print, byte for
/// byte; whatever it does not cover is left to glibc; the shipped binary's PDFs go through it and
/// come out identical to glibc's.
final class FastNumberFormatTests: XCTestCase {
    override func tearDown() {
        FastNumberFormat.isEnabled = true
    }

    /// glibc's `vsnprintf` and the fast path on the same format and arguments: (glibc, fast path or nil).
    private func both(_ format: String, _ args: [CVarArg]) -> (glibc: String, fast: String?) {
        var glibc = [CChar](repeating: 0, count: 512), fast = [CChar](repeating: 0, count: 512)
        _ = withVaList(args) { vsnprintf(&glibc, glibc.count, format, $0) }
        let length = withVaList(args) { ezr_fast_vsnprintf(&fast, fast.count, format, $0) }
        func text(_ buffer: [CChar]) -> String {
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return (text(glibc), length < 0 ? nil : text(fast))
    }

    private func assertSameAsGlibc(_ format: String, _ args: [CVarArg], file: StaticString = #filePath, line: UInt = #line) {
        let (glibc, fast) = both(format, args)
        XCTAssertNotNil(fast, "\(format) \(args) should be covered", file: file, line: line)
        XCTAssertEqual(fast, glibc, "\(format) \(args)", file: file, line: line)
    }

    func testTheFastPathIsInEffectInThisProcess() {
        XCTAssertTrue(FastNumberFormat.isActive, "the test binary must export __snprintf_chk")
        XCTAssertTrue(FastNumberFormat.isEnabled, "on unless turned off")
    }

    /// Cairo's "%f" and "%.*f" (coordinates, colours; up to 18 decimals below 0.1), rounded as
    /// glibc rounds the exact binary value: ties to even, negative zero and tiny negatives keep "-".
    func testFixedPointMatchesGlibcOnEdgeValues() {
        let edges: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 1e-7, -1e-9, 5e-7, 4.9999999e-7,
                               9.9999995, 999_999.9999995, 0.1, 0.05, 1e15, 9.2e18, .leastNonzeroMagnitude,
                               .leastNormalMagnitude, 0.0000015, 0.0000025, 841.889764, 595.275591]
        for d in edges {
            assertSameAsGlibc("%f", [d])
            for precision in 0...18 {
                assertSameAsGlibc("%.*f", [Int32(precision), d])
                assertSameAsGlibc("%.\(precision)f", [d])
            }
        }
    }

    func testFixedPointMatchesGlibcOnRandomValuesOfEveryMagnitude() {
        var rng = SplitMix(seed: 0x5eed_f00d)
        for i in 0..<60_000 {
            let bits = rng.next()
            let d: Double
            switch i % 4 {
            case 0: d = Double(bitPattern: bits)  // any finite or not; uncovered ones are checked below
            case 1: d = Double(Int64(bitPattern: bits) >> 20) / 1_048_576
            case 2: d = Double(sign: bits & 1 == 0 ? .plus : .minus, exponent: Int(bits >> 56) - 160, significand: 1 + Double(bits >> 12) / 0x1p52)
            default: d = (Double(bits % 2_000_000) + 0.5) / [1, 10, 100, 1_000, 10_000][Int(bits >> 60) % 5]
            }
            let precision = Int32(rng.next() % 19)
            let (glibc, fast) = both("%.*f", [precision, d])
            if let fast {
                XCTAssertEqual(fast, glibc, "%.\(precision)f of \(d.bitPattern)")
            } else {
                XCTAssertTrue(!d.isFinite || abs(d) >= 0x1p63, "\(d) should be covered")
            }
        }
    }

    /// Cairo's integer specifications ("%d", "%ld", "%04x", "%02x", "%03o", "%010ld", "%04X", "%u", "%lu").
    func testIntegerConversionsMatchGlibc() {
        var rng = SplitMix(seed: 42)
        let intFormats = ["%d", "%i", "%u", "%x", "%X", "%o", "%04x", "%02x", "%03o", "%04X", "%5d", "%05d", "%0d", "%40d"]
        let longFormats = ["%ld", "%lu", "%lx", "%010ld", "%lX", "%lo", "%020lu", "%3ld"]
        let ints: [Int32] = [0, 1, -1, 9, 10, -10, .max, .min, 255, 4096]
        let longs: [Int] = [0, -1, .max, .min, 1 << 40, -(1 << 33)]
        for f in intFormats {
            for v in ints { assertSameAsGlibc(f, [v]) }
            for _ in 0..<500 { assertSameAsGlibc(f, [Int32(truncatingIfNeeded: rng.next() >> (rng.next() % 64))]) }
        }
        for f in longFormats {
            for v in longs { assertSameAsGlibc(f, [v]) }
            for _ in 0..<500 { assertSameAsGlibc(f, [Int(truncatingIfNeeded: rng.next() >> (rng.next() % 64))]) }
        }
    }

    func testWhatItDoesNotCoverIsLeftToGlibc() {
        XCTAssertNil(both("%g", [1.5]).fast, "other conversions")
        XCTAssertNil(both("%.17g", [1.5]).fast)
        XCTAssertNil(both("%s", ["text"]).fast)
        XCTAssertNil(both("%+d", [Int32(5)]).fast, "other flags")
        XCTAssertNil(both("%*d", [Int32(4), Int32(5)]).fast, "'*' widths")
        XCTAssertNil(both("%8.2f", [1.5]).fast, "widths on doubles")
        XCTAssertNil(both("%.f", [1.5]).fast, "an empty precision")
        XCTAssertNil(both("%.19f", [1.5]).fast, "more than 18 decimals")
        XCTAssertNil(both("x%d", [Int32(5)]).fast, "text around the specification")
        XCTAssertNil(both("%f", [Double.infinity]).fast)
        XCTAssertNil(both("%f", [Double.nan]).fast)
        XCTAssertNil(both("%f", [1e300]).fast, "|x| ≥ 2^63")
        var small = [CChar](repeating: 0x7f, count: 4)
        let length = withVaList([123.5]) { ezr_fast_vsnprintf(&small, small.count, "%f", $0) }
        XCTAssertEqual(length, -1, "a result that does not fit is glibc's to truncate")
        XCTAssertEqual(small, [0x7f, 0x7f, 0x7f, 0x7f], "and nothing is written")
    }

    /// The PDF Cairo writes through the fast path is the one it writes through glibc, and the fast
    /// path did answer its numbers.
    func testAnExportedPDFIsByteIdenticalWithAndWithoutTheFastPath() throws {
        let fixture = try SampleFixture.shared()
        let asOf = try XCTUnwrap(CivilDate(iso: fixture.asOf))
        let settings = ReportSettings(ledgerPath: fixture.ledger, ledgerSHA256: String(repeating: "0", count: 64),
                                      period: try Period.parse(fixture.period, asOf: asOf), asOf: asOf, formats: [.pdf])
        let before = FastNumberFormat.callsOnThisThread
        let fast = try XCTUnwrap(ExportRun.run(settings: settings, user: "\(fixture.markedUser)", destination: .standardOutput).bytes)
        let answered = FastNumberFormat.callsOnThisThread - before
        FastNumberFormat.isEnabled = false
        let glibc = try XCTUnwrap(ExportRun.run(settings: settings, user: "\(fixture.markedUser)", destination: .standardOutput).bytes)
        XCTAssertEqual(FastNumberFormat.callsOnThisThread - before, answered, "off means glibc answers every call")
        XCTAssertGreaterThan(answered, 2_000, "a statement PDF prints thousands of numbers")
        XCTAssertEqual(fast.count, glibc.count)
        XCTAssertTrue(fast == glibc, "the two PDFs differ")
    }
}
