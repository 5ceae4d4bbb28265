import EZRenderingTestSupport
import XCTest
@testable import EZPDF

/// The pure layout rules of the PDF reports: paper per locale and table pagination.
final class PDFLayoutTests: XCTestCase {
    // MARK: - Paper

    func testUSAndCanadianLocalesGetUSLetterAndOthersA4() {
        for locale in ["en_US", "en_CA", "fr_CA", "en-US", "en_US.UTF-8", "es_US"] {
            XCTAssertEqual(PaperSize.for(locale: locale), .usLetter, locale)
        }
        for locale in ["it_IT", "de_DE", "en_GB", "fr_FR", "ja_JP", "he_IL", "en", "", "C", "zh_Hant_TW", "ca_ES"] {
            XCTAssertEqual(PaperSize.for(locale: locale), .a4, locale)
        }
    }

    func testPaperSizesAreTheStandardPointSizes() {
        XCTAssertEqual(PaperSize.usLetter.width, 8.5 * 72)
        XCTAssertEqual(PaperSize.usLetter.height, 11 * 72)
        XCTAssertEqual(PaperSize.a4.width, 210 / 25.4 * 72, accuracy: 0.01)
        XCTAssertEqual(PaperSize.a4.height, 297 / 25.4 * 72, accuracy: 0.01)
    }

    // MARK: - Table pagination

    func testEveryRowLandsOnExactlyOnePageInOrder() {
        let heights = (0..<173).map { Double(12 + $0 % 3 * 6) }
        let slices = TablePagination.slices(rowHeights: heights, headerHeight: 20, firstPageSpace: 250, fullPageSpace: 700)
        XCTAssertEqual(slices.first?.rows.lowerBound, 0)
        XCTAssertEqual(slices.last?.rows.upperBound, heights.count)
        for (a, b) in zip(slices, slices.dropFirst()) {
            XCTAssertEqual(a.rows.upperBound, b.rows.lowerBound)
            XCTAssertEqual(b.pageOffset, a.pageOffset + 1)
        }
        XCTAssertTrue(slices.allSatisfy { !$0.rows.isEmpty })
    }

    func testNoPageHoldsMoreThanItsSpaceIncludingTheRepeatedHeader() {
        let heights = (0..<160).map { Double(10 + ($0 * 7) % 13) }
        let header = 22.0, first = 333.0, full = 690.0
        let slices = TablePagination.slices(rowHeights: heights, headerHeight: header, firstPageSpace: first, fullPageSpace: full)
        XCTAssertGreaterThan(slices.count, 2)
        for s in slices {
            let used = header + heights[s.rows].reduce(0, +)
            XCTAssertLessThanOrEqual(used, s.pageOffset == 0 ? first : full)
            // And the next row would not have fitted: pages are filled, not left half empty.
            if s.rows.upperBound < heights.count {
                XCTAssertGreaterThan(used + heights[s.rows.upperBound], s.pageOffset == 0 ? first : full)
            }
        }
    }

    func testATableStartsOnTheNextPageWhenOnlyItsHeaderWouldFit() {
        let slices = TablePagination.slices(rowHeights: Array(repeating: 15, count: 10), headerHeight: 20,
                                            firstPageSpace: 40, fullPageSpace: 700)
        XCTAssertEqual(slices, [TablePagination.Slice(pageOffset: 1, rows: 0..<10)])
    }

    func testARowTallerThanAPageGetsAPageOfItsOwn() {
        let slices = TablePagination.slices(rowHeights: [10, 900, 10], headerHeight: 20, firstPageSpace: 700, fullPageSpace: 700)
        XCTAssertEqual(slices.map(\.rows), [0..<1, 1..<2, 2..<3])
    }

    func testNoRowsMakeNoSlices() {
        XCTAssertEqual(TablePagination.slices(rowHeights: [], headerHeight: 20, firstPageSpace: 100, fullPageSpace: 700), [])
    }
}

/// The clean-up of cairo 1.16's repeated XObject names.
final class PDFResourceCleanupTests: XCTestCase {
    func testRepeatedXObjectNamesAreBlankedKeepingEveryOffset() {
        let text = "1 0 obj\n<<\n   /XObject << /x13 13 0 R /x62 62 0 R /x13 13 0 R /x13 13 0 R /x16 16 0 R >>\n>>\nendobj\n"
        var bytes = Array(text.utf8)
        PDFResourceCleanup.removeDuplicateXObjectNames(&bytes)
        XCTAssertEqual(bytes.count, text.utf8.count)
        let out = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(out.components(separatedBy: "/x13 13 0 R").count - 1, 1)
        XCTAssertTrue(out.contains("/x62 62 0 R") && out.contains("/x16 16 0 R"))
        XCTAssertTrue(out.hasSuffix(">>\n>>\nendobj\n"))
    }

    func testDictionariesWithoutRepeatsAreLeftAlone() {
        let text = "\n   /XObject << /x1 1 0 R /x2 2 0 R >>\n"
        var bytes = Array(text.utf8)
        PDFResourceCleanup.removeDuplicateXObjectNames(&bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), text)
    }
}
