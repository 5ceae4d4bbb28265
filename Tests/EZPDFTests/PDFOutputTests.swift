import EZAnalytics
import EZCairo
import EZLocale
import EZRenderingTestSupport
import Foundation
@testable import EZPDF
import Synchronization
import XCTest

/// A statement written straight to a file is the statement rendered to bytes, and a long
/// table's rows are made as they are measured and drawn instead of being held.
final class PDFOutputTests: XCTestCase {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-pdfoutput-\(UUID().uuidString)-\(name)").path
    }

    func testAStatementWrittenToAFileHasTheBytesOfTheRenderedOne() throws {
        for (locale, rows) in [("it_IT", 164), ("de_DE", PDFAccessibility.rowLimit + 100)] {
            let figures = PDFFixtures.statement(locale: locale, transactionCount: rows)
            let path = temporaryPath("statement.pdf")
            defer { try? FileManager.default.removeItem(atPath: path) }
            try StatementPDF.write(figures, provenance: PDFFixtures.provenance(), to: path)
            let written = try XCTUnwrap(FileManager.default.contents(atPath: path))
            XCTAssertEqual(Array(written), try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                           "\(locale), \(rows) rows")
        }
    }

    func testAStatementDrawnFirstAndFinishedLaterHasTheBytesOfTheRenderedOne() throws {
        // What the batch does for a long statement: draw, let the figures go, then let qpdf finish.
        let figures = PDFFixtures.statement(locale: "fr_FR", transactionCount: 300)
        let drawn = try StatementPDF.draw(figures, provenance: PDFFixtures.provenance())
        let path = temporaryPath("drawn.pdf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try drawn.finish(to: .file(path: path)), [])
        let written = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertEqual(Array(written), try StatementPDF.render(figures, provenance: PDFFixtures.provenance()))
        let again = try StatementPDF.draw(figures, provenance: PDFFixtures.provenance())
        XCTAssertEqual(try again.finish(to: .bytes), Array(written), "finished to bytes or to a file, the same document")
    }

    func testFinishedBytesAreDeliveredToTheFileOrReturned() throws {
        let bytes: [UInt8] = Array("%PDF-1.7 test".utf8)
        XCTAssertEqual(try PDFOutput.bytes.deliver(bytes), bytes)
        let path = temporaryPath("direct.pdf")
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertEqual(try PDFOutput.file(path: path).deliver(bytes), [])
        XCTAssertEqual(FileManager.default.contents(atPath: path).map(Array.init), bytes)
    }

    func testAFileThatCannotBeWrittenIsAOneLineErrorNamingIt() {
        let path = "/nonexistent-folder-\(UUID().uuidString)/statement.pdf"
        XCTAssertThrowsError(try PDFOutput.file(path: path).deliver([1, 2, 3])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path), text)
            XCTAssertTrue(text.contains("No such file or directory"), text)
            XCTAssertFalse(text.contains("\n"))
        }
    }

    func testEachRowOfALazyTableIsMadeOncePerPassNotOncePerFittedColumn() throws {
        let made = Mutex(0)
        let count = 300
        let rows = PDFTable.Rows(count: count) { i in
            made.withLock { $0 += 1 }
            return [.text("2026-10-\(i % 28 + 1)"), .text("Row \(i)"), .text("Food"), .text("€\(i).00")]
        }
        let table = PDFTable(columns: [
            .init(title: "Date", weight: 1, fit: true), .init(title: "Description", weight: 3),
            .init(title: "Category", weight: 1, fit: true), .init(title: "Amount", weight: 1, align: .right, fit: true),
        ], rows: rows)
        let metrics = PDFTextMetrics()
        let tr = Translator(locale: "en_GB")
        let geometry = PageGeometry(paper: .a4)
        for measuring in [true, false] {
            made.withLock { $0 = 0 }
            let c = try PDFComposer(geometry: geometry, isMeasuring: measuring, totalPages: measuring ? nil : 9,
                                    footerTitle: "Rows", tr: tr, metrics: metrics)
            try c.draw(table, continuation: "Rows")
            let pages = c.page
            let bytes = try c.finish()
            // Measuring reads every row once for the fitted columns' widths; drawing once to draw it.
            XCTAssertEqual(made.withLock { $0 }, count, measuring ? "measuring pass" : "drawing pass")
            XCTAssertGreaterThan(pages, 1)
            XCTAssertEqual(bytes.isEmpty, measuring)
        }
    }

    func testALazyTableDrawsWhatTheSameRowsHeldDraw() throws {
        let cells: [[PDFTable.Cell]] = (0..<120).map { i in [.text("Row \(i)"), .text(i % 3 == 0 ? "Rent" : "Food"), .text("\(i * 7).50")] }
        let columns: [PDFTable.Column] = [
            .init(title: "Description", weight: 3), .init(title: "Category", weight: 1, fit: true),
            .init(title: "Amount", weight: 1, align: .right, fit: true),
        ]
        func render(_ table: PDFTable) throws -> [UInt8] {
            let tr = Translator(locale: "en_GB")
            let metrics = PDFTextMetrics()
            let measure = try PDFComposer(geometry: PageGeometry(paper: .a4), isMeasuring: true, totalPages: nil,
                                          footerTitle: "Rows", tr: tr, metrics: metrics)
            try measure.draw(table, continuation: "Rows")
            let draw = try PDFComposer(geometry: PageGeometry(paper: .a4), isMeasuring: false, totalPages: measure.page,
                                       footerTitle: "Rows", tr: tr, metrics: metrics)
            // A fixed date, as every report sets: Cairo's default is the clock's second, and two
            // renders straddling a second differed in /CreationDate alone (a flaky test).
            try draw.surface.setMetadata(PDFMetadata(createDate: "2026-10-31T00:00:00Z"))
            try draw.draw(table, continuation: "Rows")
            return try draw.finish()
        }
        let held = try render(PDFTable(columns: columns, rows: cells, footer: [.text("Total"), .text(""), .text("1.00")]))
        let lazy = try render(PDFTable(columns: columns, rows: PDFTable.Rows(count: cells.count) { cells[$0] },
                                       footer: [.text("Total"), .text(""), .text("1.00")]))
        XCTAssertEqual(held, lazy)
    }
}
