import XCTest
@testable import EZCharts

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
}
