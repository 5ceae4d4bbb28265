import EZAnalytics
import EZCore
@testable import EZCSV
import EZRenderingTestSupport
import Foundation
import XCTest

/// transactions.csv written to disk as it is built is byte for byte the file built in memory,
/// and a file that cannot be written is a one-line error naming it.
final class CSVStreamingTests: XCTestCase {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-csv-\(UUID().uuidString).csv").path
    }

    func testAStreamedTransactionsFileHasTheBytesOfTheOneBuiltInMemory() throws {
        // 3,000 rows make several 64 KB chunks.
        let figures = PDFFixtures.statement(locale: "it_IT", transactionCount: 3_000)
        let inMemory = StatementCSV.files(for: figures)
        let expected = try XCTUnwrap(inMemory.first { $0.name == "transactions.csv" }).bytes
        XCTAssertGreaterThan(expected.count, 3 * CSVWriter.outputChunk, "the file spans several chunks")
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try StatementCSV.writeTransactions(figures, to: path)
        XCTAssertEqual(Array(try XCTUnwrap(FileManager.default.contents(atPath: path))), expected)
        XCTAssertEqual(StatementCSV.filesAfterTransactions(for: figures), Array(inMemory.dropFirst()),
                       "the other files are the rest of files(for:), in order")
    }

    func testAStreamedEmptyStatementIsItsHeaderAlone() throws {
        let figures = RenderFixtures.emptyFigures()
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try StatementCSV.writeTransactions(figures, to: path)
        XCTAssertEqual(String(decoding: try XCTUnwrap(FileManager.default.contents(atPath: path)), as: UTF8.self),
                       StatementCSV.transactionColumns.joined(separator: ",") + "\r\n")
    }

    func testAFileThatCannotBeWrittenIsAOneLineErrorNamingIt() {
        let path = "/nonexistent-folder-\(UUID().uuidString)/transactions.csv"
        XCTAssertThrowsError(try StatementCSV.writeTransactions(RenderFixtures.figures(), to: path)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains(path), text)
            XCTAssertFalse(text.contains("\n"), text)
        }
    }
}
