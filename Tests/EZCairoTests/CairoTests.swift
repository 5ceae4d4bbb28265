import CCairo
@testable import EZCairo
import Foundation
import EZRenderingTestSupport
import XCTest

/// The Cairo boundary: surfaces, PNG encoding, PDF output and Pango text.
final class ChartsCairoTests: XCTestCase {
    func testImageSurfaceEncodesPNGWithExpectedSizeAndSignature() throws {
        let surface = try CairoSurface(imageWidth: 320, height: 200)
        let ctx = try CairoContext(surface: surface)
        ctx.fill(Rect(x: 0, y: 0, width: 320, height: 200), .white)
        let text = TextLayout(context: ctx, font: "Noto Sans 14")
        text.text = "Caffè ☕ 東京 שלום 1.234,50 €"
        text.draw(at: Point(x: 10, y: 10), color: .ink)
        try ctx.checkStatus()
        let png = try surface.pngData()
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let info = try PNGInfo(png)
        XCTAssertEqual(info.width, 320)
        XCTAssertEqual(info.height, 200)
        XCTAssertGreaterThan(text.size.width, 100)
        try Data(png).write(to: URL(fileURLWithPath: "/tmp/ezcharts-smoke.png"))
    }

    func testInMemoryPDFHasHeaderMetadataAndOutline() throws {
        let surface = try CairoSurface(pdfInMemoryWidth: 595.276, height: 841.89)
        try surface.setMetadata(PDFMetadata(title: "Statement", author: "ezreport", subject: "March",
                                            creator: "ezreport", createDate: "2026-03-31T00:00:00Z"))
        let ctx = try CairoContext(surface: surface)
        let text = TextLayout(context: ctx, font: "Noto Sans 12")
        text.text = "Page one"
        text.draw(at: Point(x: 40, y: 40), color: .ink)
        try ctx.showPage()
        text.text = "Page two"
        text.draw(at: Point(x: 40, y: 40), color: .ink)
        try ctx.showPage()
        let first = try surface.addOutline(name: "Summary", page: 1)
        try surface.addOutline(parent: first, name: "Details", page: 2)
        try surface.finish()
        let pdf = try surface.pdfData()
        try Data(pdf).write(to: URL(fileURLWithPath: "/tmp/ezcharts-smoke.pdf"))
        XCTAssertEqual(String(decoding: pdf.prefix(5), as: UTF8.self), "%PDF-")
        let body = String(decoding: pdf, as: UTF8.self)
        XCTAssertTrue(body.contains("/Title (Statement)"), "metadata title missing")
        XCTAssertTrue(body.contains("/Outlines"), "outline missing")
        // cairo 1.16 writes the date without the "D:" prefix; what matters is that it is ours, not the clock.
        XCTAssertTrue(body.contains("/CreationDate (20260331000000Z)"), "creation date not taken from the given date")
    }

    /// Cairo refuses Unicode's noncharacters (U+FFFE, U+FFFF, U+FDD0…, U+1FFFE…) though they are
    /// valid UTF-8: one pasted into a description failed the page ("input string not valid
    /// UTF-8"), and with it the whole statement of its owner and every group member (outside
    /// standards test). Text, metadata, bookmarks and tags now show them as U+FFFD, and a
    /// bookmark's line breaks as spaces.
    func testNoncharactersInTextMetadataAndBookmarksGiveAWholePDF() throws {
        let hostile = "Pasted \(nonchar(0xFFFE)) text \(nonchar(0xFFFF)) \(nonchar(0xFDD0)) \(nonchar(0x1FFFE)) \(nonchar(0x10FFFF)) end"
        let surface = try CairoSurface(pdfInMemoryWidth: 595.276, height: 841.89)
        try surface.setMetadata(PDFMetadata(title: hostile, author: "ezreport", subject: hostile,
                                            creator: "ezreport", createDate: "2026-03-31T00:00:00Z"))
        let ctx = try CairoContext(surface: surface)
        ctx.beginTag("P")
        let text = TextLayout(context: ctx, font: "Noto Sans 12")
        text.text = hostile
        text.draw(at: Point(x: 40, y: 40), color: .ink)
        ctx.endTag("P")
        try ctx.showPage()
        try surface.addOutline(name: "Line one\nline two\t\(nonchar(0xFFFF))", page: 1)
        try surface.finish()
        let tool = try PDFToolRunner(bytes: try surface.pdfData(), name: "noncharacters.pdf")
        let extracted = try tool.text()
        XCTAssertTrue(extracted.contains("Pasted \u{FFFD} text \u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD} end"), extracted)
        XCTAssertEqual(try tool.outlineTitles(), ["Line one line two \u{FFFD}"])
        XCTAssertEqual(try tool.qpdfCheck().status, 0)
        tool.cleanUp()
        XCTAssertEqual(CairoText.drawable("plain ë 食 🍣"), "plain ë 食 🍣")
        XCTAssertEqual(CairoText.oneLine("a\nb\tc\(nonchar(0xFFFF))"), "a b c\u{FFFD}")
    }

    /// A ledger's names have no length limit: a 1,000,000-character category name, laid out
    /// whole wherever it appeared, made one statement PDF take 106 s and 467 MB (outside scale
    /// test). What is laid out, and a PDF's title and bookmarks, keep 1,000 characters, the last
    /// an ellipsis; a text of at most that many is untouched, whatever its bytes.
    func testALongTextIsCutTo1000CharactersWhereverItIsLaidOutOrSetAsTitle() throws {
        let huge = String(repeating: "G", count: 1_000_000)
        let surface = try CairoSurface(pdfInMemoryWidth: 595.276, height: 841.89)
        try surface.setMetadata(PDFMetadata(title: huge, author: "ezreport", subject: "March",
                                            creator: "ezreport", createDate: "2026-03-31T00:00:00Z"))
        let ctx = try CairoContext(surface: surface)
        let text = TextLayout(context: ctx, font: "Noto Sans 12")
        text.text = huge
        XCTAssertEqual(text.text.count, CairoText.maximumCharacters)
        XCTAssertEqual(text.text.last, "…")
        XCTAssertTrue(text.size.width > 0)
        text.draw(at: Point(x: 40, y: 40), color: .ink)
        try ctx.showPage()
        try surface.addOutline(name: huge, page: 1)
        try surface.finish()
        let pdf = try surface.pdfData()
        XCTAssertLessThan(pdf.count, 100_000, "the 1 MB title or bookmark reached the file")
        let tool = try PDFToolRunner(bytes: pdf, name: "long-text.pdf")
        XCTAssertEqual(try tool.outlineTitles(), [String(repeating: "G", count: 999) + "…"])
        tool.cleanUp()

        let exactly = String(repeating: "食", count: CairoText.maximumCharacters)  // 3,000 bytes
        XCTAssertEqual(CairoText.bounded(exactly), exactly)
        XCTAssertEqual(CairoText.bounded("e\u{301}" + exactly).count, CairoText.maximumCharacters)
        XCTAssertEqual(CairoText.bounded("short"), "short")
    }

    func testAddingOutlineToImageSurfaceThrows() throws {
        let surface = try CairoSurface(imageWidth: 10, height: 10)
        XCTAssertThrowsError(try surface.addOutline(name: "x", page: 1))
    }
}

extension ChartsCairoTests {
    func testSamePDFDrawingGivesIdenticalBytes() throws {
        func render() throws -> [UInt8] {
            let surface = try CairoSurface(pdfInMemoryWidth: 595.276, height: 841.89)
            try surface.setMetadata(PDFMetadata(title: "Statement", author: "ezreport", createDate: "2026-03-31T00:00:00Z"))
            let ctx = try CairoContext(surface: surface)
            let text = TextLayout(context: ctx, font: "Noto Sans 12")
            text.text = "Caffè ☕ 東京 1.234,50 €"
            text.draw(at: Point(x: 40, y: 40), color: .ink)
            try ctx.showPage()
            try surface.addOutline(name: "Summary", page: 1)
            try surface.finish()
            return try surface.pdfData()
        }
        XCTAssertEqual(try render(), try render())
    }

    func testRingedDotsAreFilledInsideAndRingedAtTheirEdgesOnAnImage() throws {
        let surface = try CairoSurface(imageWidth: 80, height: 40)
        let ctx = try CairoContext(surface: surface)
        ctx.scale(x: 2, y: 2)
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 20), .white)
        let ring = Color(red: 0, green: 0, blue: 1)
        // Two dots in one call: each is whole, and nothing joins them (a path of several circles
        // would draw a line between them without a new sub-path each).
        ctx.ringedDots([Point(x: 10, y: 10), Point(x: 30, y: 10)], radius: 5, ringWidth: 2,
                       fill: Color(red: 1, green: 0, blue: 0), ring: ring)
        try ctx.checkStatus()
        let (w, _, pixels) = try PNGInfo.decodePixels(try surface.pngData())
        assertTwoRingedDots { x, y in pixels[y * w + x] & 0x00FF_FFFF }
    }

    /// Checks the pixels (2 px per point) of red dots of radius 5 pt at (10, 10) and (30, 10),
    /// ringed in blue 2 pt wide, on white.
    private func assertTwoRingedDots(_ at: (Int, Int) -> UInt32, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(at(20, 20), 0xFF0000, "inside: the fill", file: file, line: line)
        XCTAssertEqual(at(60, 20), 0xFF0000, "the second dot's inside", file: file, line: line)
        XCTAssertEqual(at(40, 20), 0xFFFFFF, "between the dots (20 pt): the background", file: file, line: line)
        XCTAssertEqual(at(20 + 10, 20), 0x0000FF, "on the edge (radius 5 pt = 10 px): the ring", file: file, line: line)
        XCTAssertEqual(at(20 + 13, 20), 0xFFFFFF, "past the ring's outer edge (6 pt): the background", file: file, line: line)
        XCTAssertEqual(at(20 + 6, 20), 0xFF0000, "inside the ring's inner edge (4 pt): the fill", file: file, line: line)
    }

    func testASurfaceWithABackgroundStartsAllBackgroundEvenOnReusedPixels() throws {
        for round in 0..<3 {
            let surface = try CairoSurface(imageWidth: 64, height: 48, background: Color(red: 0, green: 0.5, blue: 1))
            let (w, h, pixels) = try PNGInfo.decodePixels(try surface.pngData())
            XCTAssertEqual(w * h, 64 * 48)
            XCTAssertTrue(pixels.allSatisfy { $0 == 0xFF00_80FF }, "round \(round): a pixel is not the background")
            // Leave ink behind for the next round's surface, which may get the same memory.
            let ctx = try CairoContext(surface: surface)
            ctx.fill(Rect(x: 0, y: 0, width: 64, height: 48), .ink)
            try ctx.checkStatus()
        }
    }

    func testIdlePixelBlocksAreHandedBackAndTheNextSurfaceStillStartsAllBackground() throws {
        let background = Color(red: 0, green: 0.5, blue: 1)
        do { _ = try CairoSurface(imageWidth: 64, height: 48, background: background) }
        XCTAssertGreaterThan(PixelMemory.idleBlockCount, 0, "a destroyed surface's block waits in the pool")
        CairoSurface.releaseIdlePixelMemory()
        XCTAssertEqual(PixelMemory.idleBlockCount, 0)
        let surface = try CairoSurface(imageWidth: 64, height: 48, background: background)
        let (_, _, pixels) = try PNGInfo.decodePixels(try surface.pngData())
        XCTAssertTrue(pixels.allSatisfy { $0 == 0xFF00_80FF })
    }

    // MARK: - Dots and pills on a PDF

    /// A 40 × 40 pt PDF page with two ringed dots (centres (10, 10) and (30, 10), radius 5, ring 2)
    /// and a pill (x 5…35, y 25…31), rasterised by poppler at 2 px per point.
    private func dotsAndPillOnPDF() throws -> (pixel: (Int, Int) -> UInt32, content: String) {
        let surface = try CairoSurface(pdfInMemoryWidth: 40, height: 40)
        let ctx = try CairoContext(surface: surface)
        ctx.fill(Rect(x: 0, y: 0, width: 40, height: 40), .white)
        ctx.ringedDots([Point(x: 10, y: 10), Point(x: 30, y: 10)], radius: 5, ringWidth: 2,
                       fill: Color(red: 1, green: 0, blue: 0), ring: Color(red: 0, green: 0, blue: 1))
        ctx.fillRoundedRectangle(Rect(x: 5, y: 25, width: 30, height: 6), radius: 3, Color(red: 0, green: 1, blue: 0))
        try ctx.showPage()
        try surface.finish()
        let tool = try PDFToolRunner(bytes: try surface.pdfData(), name: "dots.pdf")
        defer { tool.cleanUp() }
        let ppm = tool.folder.appendingPathComponent("page")
        XCTAssertEqual(try tool.run("pdftoppm", ["-r", "144", "-aa", "no", "-aaVector", "no", "-singlefile", tool.file.path, ppm.path]).status, 0)
        let image = [UInt8](try Data(contentsOf: ppm.appendingPathExtension("ppm")))
        // P6 header: "P6\n80 80\n255\n", then RGB bytes.
        let header = String(decoding: image.prefix(15), as: UTF8.self)
        XCTAssertTrue(header.hasPrefix("P6\n80 80\n255\n"), header)
        let offset = "P6\n80 80\n255\n".utf8.count
        let content = try tool.run("qpdf", ["--qdf", "--object-streams=disable", tool.file.path, "-"]).output
        return ({ x, y in
            let i = offset + (y * 80 + x) * 3
            return UInt32(image[i]) << 16 | UInt32(image[i + 1]) << 8 | UInt32(image[i + 2])
        }, content)
    }

    func testRingedDotsOnAPDFAreFilledInsideAndRingedAtTheirEdges() throws {
        let (at, _) = try dotsAndPillOnPDF()
        assertTwoRingedDots(at)
    }

    func testAPillOnAPDFIsARoundEndedBarWrittenWithoutCurves() throws {
        let (at, content) = try dotsAndPillOnPDF()
        XCTAssertEqual(at(40, 56), 0x00FF00, "the middle of the pill")
        XCTAssertEqual(at(12, 56), 0x00FF00, "inside the left round end")
        XCTAssertEqual(at(10, 50), 0xFFFFFF, "the corner the round end leaves out")
        XCTAssertEqual(at(69, 61), 0xFFFFFF, "the other corner")
        XCTAssertEqual(at(40, 66), 0xFFFFFF, "under the pill")
        // Dots and pill are round-capped lines: 4 numbers each instead of curves' 6 per segment.
        let operators = content.split(whereSeparator: { $0 == " " || $0 == "\n" })
        XCTAssertFalse(operators.contains("c"), "no Bézier curve operators expected")
        XCTAssertTrue(content.contains("1 J"), "round caps")
    }

    /// The coarser tolerance of fills and strokes on a PDF (``CairoContext/pdfPaintTolerance``)
    /// only makes Cairo's bounding boxes cheaper: arcs of every radius, rounded corners, round
    /// joins and caps, dashes and text are written exactly as at Cairo's default tolerance.
    func testThePDFToleranceChangesNoByteOfThePDF() throws {
        func render(coarsePaint: Bool) throws -> [UInt8] {
            let surface = try CairoSurface(pdfInMemoryWidth: 595, height: 842)
            try surface.setMetadata(PDFMetadata(title: "Tolerance", createDate: "2026-03-31T00:00:00Z"))
            let ctx = try CairoContext(surface: surface)
            XCTAssertEqual(ctx.paintTolerance, CairoContext.pdfPaintTolerance)
            if !coarsePaint { ctx.paintTolerance = nil }  // Cairo's default tolerance throughout
            for (i, r) in [2.6, 12.0, 90.0, 260.0, 400.0].enumerated() {
                ctx.newPath()
                ctx.arc(center: Point(x: 297, y: 421), radius: r, from: 0.3 * Double(i), to: 5.5)
                ctx.setColor(.ink); ctx.setLineWidth(1.5); ctx.stroke()
            }
            ctx.roundedRectangle(Rect(x: 40, y: 40, width: 515, height: 300), radius: 6)
            ctx.setLineWidth(0.6); ctx.stroke()
            ctx.setLineJoin(.round); ctx.setDash([5, 3.5])
            ctx.move(to: Point(x: 50, y: 700)); ctx.line(to: Point(x: 120, y: 650)); ctx.line(to: Point(x: 190, y: 720))
            ctx.stroke()
            ctx.setDash([])
            ctx.ringedDots([Point(x: 60, y: 780), Point(x: 90, y: 790)], radius: 2.6, ringWidth: 1.6, fill: .white, ring: .ink)
            ctx.fillRoundedRectangle(Rect(x: 200, y: 780, width: 120, height: 5), radius: 2.5, .ink)
            let text = TextLayout(context: ctx, font: "Noto Sans 9")
            text.text = "Groceries 1.234,50 €"
            text.draw(at: Point(x: 300, y: 60), color: .ink)
            try ctx.showPage()
            try surface.finish()
            return try surface.pdfData()
        }
        let ours = try render(coarsePaint: true), cairosDefault = try render(coarsePaint: false)
        XCTAssertGreaterThan(ours.count, 1000)
        XCTAssertTrue(ours == cairosDefault, "the PDF differs from the one drawn at Cairo's default tolerance")
    }

    /// A long statement's PDF is megabytes: the renderer takes the bytes from the surface, which
    /// then keeps none, so editing them makes no second copy.
    func testTakingAnInMemoryPDFHandsOverItsBytesAndLeavesNoneBehind() throws {
        let surface = try CairoSurface(pdfInMemoryWidth: 200, height: 200)
        let ctx = try CairoContext(surface: surface)
        XCTAssertThrowsError(try surface.takePDFData(), "an unfinished PDF has no bytes to take")
        try ctx.showPage()
        try surface.finish()
        let seen = try surface.pdfData()
        let taken = try surface.takePDFData()
        XCTAssertEqual(taken, seen)
        XCTAssertTrue(taken.starts(with: Array("%PDF-".utf8)))
        XCTAssertTrue(try surface.pdfData().isEmpty, "the surface still holds the bytes")
    }

    /// The noncharacter U+`value` as a string (Swift's literals refuse noncharacters).
    func nonchar(_ value: UInt32) -> String { String(Unicode.Scalar(value)!) }
}
