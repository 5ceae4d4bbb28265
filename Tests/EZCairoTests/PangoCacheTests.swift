import CCairo
@testable import EZCairo
import Foundation
import EZRenderingTestSupport
import XCTest

/// The per-thread Pango set-up: contexts that share it lay text out as if each had its own.
final class ChartsPangoCacheTests: XCTestCase {
    /// Draws "Caffè ☕ 東京" on a 2×-scaled image and returns the PNG (pixels decide equality).
    private func scaledChart(_ measureOnPDFFirst: CairoContext?) throws -> [UInt8] {
        let surface = try CairoSurface(imageWidth: 400, height: 120)
        let ctx = try CairoContext(surface: surface)
        ctx.scale(x: 2, y: 2)
        ctx.fill(Rect(x: 0, y: 0, width: 200, height: 60), .white)
        let label = TextLayout(context: ctx, font: "Noto Sans 9")
        label.text = "Caffè ☕ 東京 1.234,50 €"
        _ = label.size
        if let pdf = measureOnPDFFirst {
            // Another context (another surface kind and transformation) uses the thread's Pango
            // context in between: this one must be re-bound before it draws.
            let other = TextLayout(context: pdf, font: "Noto Sans Bold 9")
            other.text = "Statement"
            _ = other.size
        }
        label.draw(at: Point(x: 4, y: 4), color: .ink)
        try ctx.checkStatus()
        return try surface.pngData()
    }

    func testTextDrawsTheSameWhenAnotherContextUsedThePangoContextInBetween() throws {
        let alone = try scaledChart(nil)
        let pdf = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let interleaved = try scaledChart(pdf)
        XCTAssertEqual(alone, interleaved)
    }

    func testLayoutSizeKeepsTheTransformOfItsContextsFirstText() throws {
        let a = try CairoContext(surface: try CairoSurface(imageWidth: 200, height: 100))
        let b = try CairoContext(surface: try CairoSurface(imageWidth: 200, height: 100))
        b.scale(x: 3, y: 3)
        let la = TextLayout(context: a, font: "Noto Sans 10")
        let lb = TextLayout(context: b, font: "Noto Sans 10")
        la.text = "Groceries 42"; lb.text = "Groceries 42"
        let first = la.size
        _ = lb.size
        // Later transforms of `a` do not change its layout.
        a.scale(x: 5, y: 5)
        la.text = "x"; la.text = "Groceries 42"
        XCTAssertEqual(la.size, first)
        XCTAssertGreaterThan(first.width, 40)
    }

    // MARK: - Laid-out text, reused

    func testTheSameTextAndSettingsAreLaidOutOnceAndReused() throws {
        let ctx = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let a = TextLayout(context: ctx, font: "Noto Sans 9")
        let b = TextLayout(context: ctx, font: "Noto Sans 9")
        let text = "Reused \(UUID().uuidString)"
        a.text = text; b.text = text
        XCTAssertEqual(a.size, b.size)
        XCTAssertNotNil(a.laidOut)
        XCTAssertTrue(a.laidOut === b.laidOut, "two layouts of one text share one Pango layout")
        b.text = text + "!"
        _ = b.size
        XCTAssertFalse(a.laidOut === b.laidOut)
    }

    func testEverySettingThatChangesTheLayoutChangesTheResult() throws {
        let ctx = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let l = TextLayout(context: ctx, font: "Noto Sans 9")
        l.text = "Amazon Marketplace order for the living room and the kitchen"
        let oneLine = l.size
        l.width = 80
        let wrapped = l.size
        XCTAssertGreaterThan(wrapped.height, oneLine.height, "a width wraps the cached one-line layout")
        l.maxLines = 1; l.ellipsize = .end
        XCTAssertTrue(l.isEllipsized)
        XCTAssertEqual(l.lineCount, 1)
        l.font = "Noto Sans Bold 9"
        XCTAssertEqual(l.lineCount, 1)
        l.maxLines = nil; l.ellipsize = .none; l.width = nil; l.font = "Noto Sans 9"
        XCTAssertEqual(l.size, oneLine, "going back to the first settings gives the first layout")
        l.font = "Noto Sans Bold 9"
        XCTAssertGreaterThan(l.size.width, oneLine.width, "bold text is wider: the font is part of the key")
    }

    func testContextsOfAnotherKindKeepTheirOwnLayouts() throws {
        let pdf = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let image = try CairoContext(surface: try CairoSurface(imageWidth: 400, height: 200))
        image.scale(x: 2, y: 2)
        let text = "Kind \(UUID().uuidString)"
        let lp = TextLayout(context: pdf, font: "Noto Sans 9"), li = TextLayout(context: image, font: "Noto Sans 9")
        lp.text = text; li.text = text
        _ = lp.size; _ = li.size
        XCTAssertFalse(pdf.pango.binding(for: pdf) === image.pango.binding(for: image))
        XCTAssertEqual(lp.size.width, li.size.width, accuracy: 0.5, "unhinted metrics: the same width on both")
    }

    func testTheCacheStaysBoundedWhileTheTextInUseSurvivesEviction() throws {
        let ctx = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let kept = TextLayout(context: ctx, font: "Noto Sans 9")
        kept.text = "Kept while evicted"
        let keptSize = kept.size
        let binding = ctx.pango.binding(for: ctx)
        let l = TextLayout(context: ctx, font: "Noto Sans 9")
        for i in 0..<(PangoBinding.generationLimit * 2 + 10) {
            l.text = "row \(i)"
            _ = l.size
        }
        XCTAssertLessThanOrEqual(binding.cachedCount, PangoBinding.generationLimit * 2)
        XCTAssertEqual(kept.size, keptSize)
        kept.draw(at: Point(x: 10, y: 10), color: .ink)
        try ctx.checkStatus()
    }

    // MARK: - Text that fits its width

    func testATextThatFitsItsWidthReusesItsNaturalLayout() throws {
        let ctx = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let measured = TextLayout(context: ctx, font: "Noto Sans 8")
        let cell = TextLayout(context: ctx, font: "Noto Sans 8")
        let text = "1.370,19 € \(UUID().uuidString.prefix(4))"
        measured.text = text; cell.text = text
        let natural = measured.size
        for (width, alignment) in [(natural.width + 20, TextLayout.Alignment.right), (natural.width + 7.3, .center),
                                   (natural.width, .left)] {
            cell.width = width; cell.alignment = alignment
            XCTAssertEqual(cell.size, natural)
            XCTAssertTrue(cell.laidOut === measured.laidOut, "\(alignment) in \(width) pt: the measured layout, not a new one")
        }
        cell.width = natural.width - 1
        XCTAssertEqual(cell.lineCount, 2, "a text wider than its width still wraps")
        XCTAssertFalse(cell.laidOut === measured.laidOut)
    }

    func testSpellingsOfOneFontShareLayouts() throws {
        let ctx = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let a = TextLayout(context: ctx, font: "Noto Sans 8"), b = TextLayout(context: ctx, font: "Noto Sans 8.0")
        let text = "Groceries \(UUID().uuidString.prefix(4))"
        a.text = text; b.text = text
        XCTAssertEqual(a.size, b.size)
        XCTAssertTrue(a.laidOut === b.laidOut)
    }

    /// The offset a fitting line is drawn at equals the x Pango itself gives that line in a
    /// layout of the width and alignment (`pango_layout_iter_get_line_extents`), for whole and
    /// fractional widths, and with left and right swapped for a right-to-left line.
    func testAFittingLineIsPlacedWherePangoPlacesItInALayoutOfThatWidth() throws {
        let ctx = try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842))
        let binding = ctx.pango.binding(for: ctx)
        let font = ctx.pango.fontDescription("Noto Sans 8")
        for text in ["-37,32 €", "Eating out", "שלום עולם", "مرحبا"] {
            let natural = binding.layout(.init(text: text, font: font.canonicalName, width: -1, height: -1,
                                               ellipsize: PANGO_ELLIPSIZE_NONE.rawValue, wrap: PANGO_WRAP_WORD.rawValue,
                                               alignment: PANGO_ALIGN_LEFT.rawValue), font: font)
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_size(natural.layout, &w, &h)
            for width in [w, w + 1, w + 333, w + 7 * PANGO_SCALE, (w / PANGO_SCALE + 9) * PANGO_SCALE] {
                for alignment in [PANGO_ALIGN_LEFT, PANGO_ALIGN_CENTER, PANGO_ALIGN_RIGHT] {
                    let (context, machine) = binding.context(for: text, font: font)
                    let constrained = LaidOutText(context: context, key: .init(
                        text: text, font: font.canonicalName, width: width, height: -1,
                        ellipsize: PANGO_ELLIPSIZE_NONE.rawValue, wrap: PANGO_WRAP_WORD.rawValue,
                        alignment: alignment.rawValue), font: font.description, usesMachineFonts: machine)
                    let iter = pango_layout_get_iter(constrained.layout)
                    var line = PangoRectangle()
                    pango_layout_iter_get_line_extents(iter, nil, &line)
                    pango_layout_iter_free(iter)
                    XCTAssertEqual(natural.offsetOfSingleLine(within: width, alignment: alignment), line.x,
                                   "\(text), width \(width), alignment \(alignment.rawValue)")
                }
            }
            XCTAssertNil(natural.offsetOfSingleLine(within: w - 1, alignment: PANGO_ALIGN_LEFT), "\(text) does not fit")
        }
    }
}
