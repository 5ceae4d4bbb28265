import XCTest
@testable import EZLedger

/// The interner gives the same text for the same bytes, never mixes up different bytes, repairs
/// invalid UTF-8 as `String(cString:)` does, and keeps working past its capacity.
final class TextInternerTests: XCTestCase {
    private func intern(_ interner: inout TextInterner, _ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { interner.string($0) }
    }

    func testEqualBytesGiveEqualTextsAndDifferentBytesDifferentOnes() {
        var interner = TextInterner()
        var expected: [String] = []
        var got: [String] = []
        for round in 0..<3 {
            for i in 0..<2000 {
                let text = "description number \(i) " + String(repeating: "x", count: i % 40)
                got.append(intern(&interner, Array(text.utf8)))
                if round == 0 { expected.append(text) }
            }
        }
        XCTAssertEqual(got, expected + expected + expected)
    }

    func testInvalidUTF8IsRepairedLikeCString() {
        var interner = TextInterner()
        for bytes: [UInt8] in [[0x43, 0x61, 0x66, 0xC3, 0xA9, 0x20, 0xE9], [0xFF, 0xFE], [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80, 0x80]] {
            let cString = (bytes + [0]).withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            XCTAssertEqual(intern(&interner, bytes), cString)
            XCTAssertEqual(intern(&interner, bytes), cString, "from the table")
        }
    }

    func testPastItsCapacityAndForLongTextsItStillReturnsTheRightText() {
        var interner = TextInterner(capacity: 4)
        let texts = (0..<50).map { "t\($0)" } + [String(repeating: "long ", count: 40)]
        for _ in 0..<2 {
            XCTAssertEqual(texts.map { intern(&interner, Array($0.utf8)) }, texts)
        }
        XCTAssertEqual(intern(&interner, []), "")
    }
}
