import EZRenderingTestSupport
import Foundation
@testable import EZPDF
import XCTest

/// Completing a tagged PDF by copying the objects it does not change (``PDFObjectSplicer``) makes
/// the document qpdf's full rewrite made, object for object; a document whose layout cannot be
/// read is still completed, by qpdf.
final class PDFObjectSplicingTests: XCTestCase {
    private func drawnStatement(locale: String = "fr_FR", rows: Int = 120) throws -> DrawnPDF {
        try StatementPDF.draw(PDFFixtures.statement(locale: locale, transactionCount: rows), provenance: PDFFixtures.provenance())
    }

    private func complete(_ drawn: DrawnPDF, bytes: [UInt8]? = nil, splicing: Bool) throws -> [UInt8] {
        try PDFAccessibility.complete(bytes ?? drawn.cairoBytes, language: drawn.language,
                                      figureDescriptions: drawn.figureDescriptions, splicing: splicing)
    }

    /// The document as qpdf's QDF mode writes it (objects renumbered in the order they are
    /// reached, streams uncompressed), without what only says where things lie: the comments
    /// naming original numbers, the cross-reference entries and offsets, and the `/ID`.
    private func normalized(_ pdf: [UInt8], _ name: String) throws -> [Substring] {
        let tools = try PDFToolRunner(bytes: pdf, name: name)
        defer { tools.cleanUp() }
        let out = tools.folder.appendingPathComponent("qdf-" + name).path
        let result = try tools.run("qpdf", ["--static-id", "--qdf", "--object-streams=disable", tools.file.path, out])
        XCTAssertEqual(result.status, 0, result.output)
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !line.hasPrefix("%% Original object ID") && !line.contains("/ID [")
                && !(line.count >= 18 && line.prefix(10).allSatisfy(\.isNumber) && (line.contains(" n") || line.contains(" f")))
                && !(line.allSatisfy(\.isNumber) && !line.isEmpty)
        }
    }

    func testASplicedStatementHasEveryObjectQpdfsRewriteHas() throws {
        for (locale, rows) in [("fr_FR", 120), ("ja_JP", 30), ("de_DE", PDFAccessibility.rowLimit + 100)] {
            let drawn = try drawnStatement(locale: locale, rows: rows)
            let spliced = try complete(drawn, splicing: true)
            let rewritten = try complete(drawn, splicing: false)
            XCTAssertNotEqual(spliced, rewritten, "the spliced document keeps Cairo's numbering and layout")
            let a = try normalized(spliced, "spliced.pdf"), b = try normalized(rewritten, "rewritten.pdf")
            XCTAssertEqual(a.count, b.count, locale)
            for (i, (x, y)) in zip(a, b).enumerated() where x != y {
                XCTFail("\(locale), \(rows) rows: line \(i) differs: \(x.prefix(120)) | \(y.prefix(120))")
                break
            }
        }
    }

    func testASplicedStatementPassesQpdfsCheckAndFreesTheFurnitureItTookOut() throws {
        let drawn = try drawnStatement()
        let spliced = try complete(drawn, splicing: true)
        let tools = try PDFToolRunner(bytes: spliced, name: "spliced.pdf")
        defer { tools.cleanUp() }
        let check = try tools.qpdfCheck()
        XCTAssertEqual(check.status, 0, check.output)
        XCTAssertFalse(check.output.contains("WARNING"), check.output)
        // Every footer's element is gone from the file, its number free in the table.
        let layout = try XCTUnwrap(spliced.withUnsafeBufferPointer { PDFObjectLayout($0) }, "the result is laid out plainly too")
        XCTAssertGreaterThan(layout.free.count, 1, "furniture elements and replaced lengths are free entries")
        let text = String(decoding: spliced, as: UTF8.self)
        XCTAssertFalse(text.contains("/S /Private"), "no furniture element is left in the file")
        XCTAssertTrue(text.contains("/Lang (fr)"))
    }

    func testTheLayoutOfCairosDocumentNamesEveryObjectWhereItLies() throws {
        let drawn = try drawnStatement(rows: 40)
        let bytes = drawn.cairoBytes
        let layout = try XCTUnwrap(bytes.withUnsafeBufferPointer { PDFObjectLayout($0) })
        XCTAssertEqual(layout.free, [0])
        XCTAssertEqual(layout.objects.count, Int(layout.size) - 1)
        XCTAssertEqual(Array(bytes[layout.header].prefix(8)), Array("%PDF-1.5".utf8))
        for object in layout.objects {
            let text = String(decoding: bytes[object.range], as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("\(object.number) 0 obj"), "\(object.number): \(text.prefix(20))")
            XCTAssertTrue(text.hasSuffix("endobj\n"), "\(object.number)")
        }
        XCTAssertEqual(zip(layout.objects, layout.objects.dropFirst()).filter { $0.range.upperBound != $1.range.lowerBound }.count, 0,
                       "objects follow each other with nothing between them")
    }

    func testALayoutOtherThanCairosIsNotRead() throws {
        let bytes = try drawnStatement(rows: 10).cairoBytes
        func layout(_ pdf: [UInt8]) -> PDFObjectLayout? { pdf.withUnsafeBufferPointer { PDFObjectLayout($0) } }
        XCTAssertNotNil(layout(bytes))
        // An offset that does not point at its object.
        var shifted = bytes
        let table = try XCTUnwrap(lastRange(of: "\nxref\n0 ", in: shifted)).upperBound
        let firstEntry = try XCTUnwrap(shifted[table...].firstIndex(of: UInt8(ascii: "\n"))) + 21   // object 1's entry
        shifted[firstEntry + 9] = shifted[firstEntry + 9] == UInt8(ascii: "1") ? UInt8(ascii: "2") : UInt8(ascii: "1")
        XCTAssertNil(layout(shifted))
        // An incremental update (a trailer with /Prev).
        var updated = bytes
        let trailer = try XCTUnwrap(lastRange(of: "trailer\n<<", in: updated)).upperBound
        updated.replaceSubrange(trailer..<trailer, with: Array(" /Prev 9".utf8))
        XCTAssertNil(layout(updated))
        // A cross-reference stream, as qpdf writes with object streams.
        let tools = try PDFToolRunner(bytes: bytes, name: "cairo.pdf")
        defer { tools.cleanUp() }
        let out = tools.folder.appendingPathComponent("streams.pdf").path
        XCTAssertEqual(try tools.run("qpdf", ["--object-streams=generate", tools.file.path, out]).status, 0)
        XCTAssertNil(layout(Array(try Data(contentsOf: URL(fileURLWithPath: out)))))
        // Not a PDF at all, and a truncated one.
        XCTAssertNil(layout(Array("hello".utf8)))
        XCTAssertNil(layout(Array(bytes.prefix(bytes.count / 2))))
    }

    func testDamageAnywhereInTheTableOrTrailerIsRefusedOrReadWithinTheDocument() throws {
        // The layout is read from bytes Cairo wrote, but a damaged table must never make it read
        // outside them or name an object that is not there: it is refused, and qpdf writes.
        let bytes = try drawnStatement(rows: 10).cairoBytes
        let table = try XCTUnwrap(lastRange(of: "\nxref\n", in: bytes)).lowerBound
        var random = SystemRandomNumberGenerator()
        var refused = 0
        for round in 0..<1_500 {
            var damaged = bytes
            switch round % 3 {
            case 0:   // a byte of the table, the trailer or startxref changed
                damaged[Int.random(in: table..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1:   // the document cut short somewhere in its last part
                damaged.removeLast(Int.random(in: 1...(bytes.count - table), using: &random))
            default:  // a digit of an entry's offset changed
                let entry = table + 10 + 20 * Int.random(in: 1..<40, using: &random) + Int.random(in: 0..<10, using: &random)
                damaged[entry] = UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &random)
            }
            guard let layout = damaged.withUnsafeBufferPointer({ PDFObjectLayout($0) }) else { refused += 1; continue }
            for object in layout.objects {
                XCTAssertTrue(object.range.upperBound <= damaged.count && object.range.lowerBound >= layout.header.upperBound)
                XCTAssertTrue(damaged[object.range].starts(with: Array("\(object.number) 0 obj".utf8)), "round \(round)")
            }
        }
        XCTAssertGreaterThan(refused, 300, "most damage is refused")
    }

    func testADocumentWhoseLayoutCannotBeReadIsCompletedByQpdf() throws {
        let drawn = try drawnStatement(rows: 20)
        var bytes = drawn.cairoBytes
        // startxref points one byte off: qpdf rebuilds the table, the layout is not read.
        let marker = try XCTUnwrap(lastRange(of: "startxref\n", in: bytes)).upperBound
        bytes[marker + 1] = bytes[marker + 1] == UInt8(ascii: "9") ? UInt8(ascii: "8") : bytes[marker + 1] + 1
        XCTAssertNil(bytes.withUnsafeBufferPointer { PDFObjectLayout($0) })
        let completed = try complete(drawn, bytes: bytes, splicing: true)
        let tools = try PDFToolRunner(bytes: completed, name: "recovered.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.qpdfCheck().status, 0)
        XCTAssertEqual(try tools.info()["Tagged"], "yes")
        XCTAssertTrue(String(decoding: completed, as: UTF8.self).contains("/Lang (fr)"))
    }

    func testASplicedStatementWrittenToAFileIsTheReturnedOneAndAnUnwritableFileIsNamed() throws {
        let drawn = try drawnStatement(rows: 50)
        let bytes = drawn.cairoBytes
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezpdf-splice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("statement.pdf").path
        XCTAssertEqual(try PDFAccessibility.complete(bytes, language: "fr", figureDescriptions: drawn.figureDescriptions,
                                                     to: .file(path: path)), [])
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path))),
                       try PDFAccessibility.complete(bytes, language: "fr", figureDescriptions: drawn.figureDescriptions))
        let missing = folder.appendingPathComponent("no-such-folder/statement.pdf").path
        XCTAssertThrowsError(try PDFAccessibility.complete(bytes, language: "fr", figureDescriptions: [], to: .file(path: missing))) {
            XCTAssertEqual("\($0)", "cannot write the PDF to \(missing): No such file or directory")
        }
    }

    func testAPagesCompressedContentIsHeldAtItsOwnSize() throws {
        // A long statement holds every page's new content until it is written: held in a buffer
        // sized for the worst case, a 2,228-page statement's pass took 60 MB more (158 MB peak).
        let page = Array(String(repeating: "BT /f-0-0 9 Tf 56.7 700.2 Td [(Groceries)] TJ ET\n", count: 500).utf8)
        let compressed = try QPDFDocument.deflated(page)
        XCTAssertLessThan(compressed.count, page.count / 20)
        XCTAssertLessThan(compressed.capacity, compressed.count * 2, "no room kept for the uncompressed size")
    }

    private func lastRange(of text: String, in bytes: [UInt8]) -> Range<Int>? {
        let needle = Array(text.utf8)
        var i = bytes.count - needle.count
        while i >= 0 {
            if bytes[i..<i + needle.count].elementsEqual(needle) { return i..<i + needle.count }
            i -= 1
        }
        return nil
    }
}
