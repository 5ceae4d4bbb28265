import CCairo
@testable import EZCairo
import EZRenderingTestSupport
import Foundation
import Synchronization
import XCTest

/// ezreport's own font configurations: text the report fonts cover is laid out on them alone,
/// exactly as on the machine's whole font set; other text on the machine's; and Cairo never
/// closes a face another thread is drawing with.
final class FontConfigurationTests: XCTestCase {
    /// Texts the report fonts cover: Latin with accents and currency signs, Greek, Cyrillic, CJK,
    /// kana, and the spaces and controls Pango never chooses a font for.
    private let covered = [
        "Groceries 1.234,50 € · -12,00 CHF", "Zoë Müller-Łukasiewicz", "Νίκος Παππάς", "Иван Петров",
        "山田 さくら 東京", "Tab\tand\nnew line", "KW 39/2026 — 3º trimestre", "1 234,56\u{202F}€",
    ]

    func testTheReportFontsAreTheRequestedFamiliesAndCoverTheirScripts() throws {
        let report = try XCTUnwrap(FontConfiguration.report, "Noto Sans and Droid Sans Fallback are installed by scripts/setup.sh")
        // Debian's rules bind Noto Sans CJK SC, TC and HK strongly for Chinese only, and after Droid
        // Sans Fallback: they are not kept (their CFF faces would cost ~2 MB each).
        XCTAssertEqual(report.families, ["Noto Sans", "Droid Sans Fallback"])
        XCTAssertTrue(report.files.contains { $0.hasSuffix("NotoSans-Regular.ttf") })
        XCTAssertLessThan(report.files.count, 20, "only the requested families' fonts: \(report.files)")
        for text in covered { XCTAssertTrue(report.covers(text), text) }
        // U+2212 MINUS SIGN (ICU's minus in Swedish or Finnish) is not in Noto Sans: DejaVu Sans gives it.
        for text in ["سارة", "דוד", "สมชาย", "राहुल", "🌮", "ℕ∑ maths", "−12,00 kr"] {
            XCTAssertFalse(report.covers(text), text)
        }
    }

    func testTheMachineConfigurationHasEveryFontAndCoversNothingByItself() throws {
        let machine = try XCTUnwrap(FontConfiguration.machine)
        let report = try XCTUnwrap(FontConfiguration.report)
        XCTAssertNil(machine.families)
        XCTAssertGreaterThan(machine.files.count, report.files.count)
        XCTAssertTrue(Set(report.files).isSubset(of: Set(machine.files)))
        XCTAssertFalse(machine.covers("a"))
    }

    /// Each text drawn from its layout on the report fonts and on the machine's, in a PNG: the
    /// pixels (glyphs, fonts, positions) must be the same.
    func testTextTheReportFontsCoverDrawsAsOnTheMachinesFonts() throws {
        for font in ["Noto Sans 9", "Noto Sans Bold 14", "Noto Sans 8"] {
            for text in covered {
                let onReport = try drawn(text, font: font, machine: false)
                let onMachine = try drawn(text, font: font, machine: true)
                XCTAssertTrue(onReport == onMachine, "\(font): \(text) draws differently")
            }
        }
    }

    /// Pango's own set-up (`FcInit`, on a thread of its own when its first font map is made) finds
    /// the report fonts' configuration current and does not parse and build the machine's
    /// configuration once more.
    func testPangosSetUpDoesNotLoadFontconfigsDefaultConfigurationAgain() throws {
        let report = try XCTUnwrap(FontConfiguration.report)
        let surface = try CairoSurface(imageWidth: 200, height: 40, background: .white)
        let ctx = try CairoContext(surface: surface)
        let label = TextLayout(context: ctx, font: "Noto Sans 10")
        label.text = "Groceries 12.50"
        label.draw(at: Point(x: 4, y: 4), color: .ink)
        try ctx.checkStatus()
        XCTAssertTrue(FcConfigGetCurrent() == report.config, "fontconfig's current configuration is the report fonts'")
    }

    /// "∑" is in Noto Sans CJK, a family Debian's rules bind strongly only for Chinese: on the
    /// report fonts alone it would come from there, on the machine's from DejaVu Sans. Such a text
    /// must go to the machine's fonts, and TextLayout must draw it as they do.
    func testATextWithACharacterOnlyAFallbackHasIsLaidOutOnTheMachinesFonts() throws {
        let text = "ℕ∑ maths"
        XCTAssertFalse(try drawn(text, font: "Noto Sans 10", machine: false) == drawn(text, font: "Noto Sans 10", machine: true),
                       "the case this test is about: the report fonts alone would draw it differently")
        let surface = try CairoSurface(imageWidth: 300, height: 40, background: .white)
        let ctx = try CairoContext(surface: surface)
        let label = TextLayout(context: ctx, font: "Noto Sans 10")
        label.text = text
        label.draw(at: Point(x: 4, y: 4), color: .ink)
        try ctx.checkStatus()
        XCTAssertTrue(try surface.pngData() == drawn(text, font: "Noto Sans 10", machine: true), "TextLayout draws it as the machine's fonts do")
    }

    /// Four threads draw statements' worth of text in ~20 font files at once, each into PDFs
    /// finished on its own thread. With Cairo opening the font files itself, it closed a face once
    /// more than ten were open, while another thread drew with it: SIGSEGV in FreeType.
    func testDrawingInManyFontFilesOnSeveralThreadsAtOnce() throws {
        let texts = [
            "سارة العلي", "דוד כהן", "สมชาย ใจดี", "राहुल शर्मा", "🌮 🎁", "ℕ∑ maths", "민준", "বাংলা", "தமிழ்",
            "ქართული", "Հայերեն", "አማርኛ", "ភាសាខ្មែរ", "ພາສາລາວ", "සිංහල", "ગુજરાતી", "ਪੰਜਾਬੀ", "తెలుగు",
            "Groceries 12,50 €", "山田",
        ]
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<6 {
                do {
                    let surface = try CairoSurface(pdfInMemoryWidth: 595, height: 842)
                    let ctx = try CairoContext(surface: surface)
                    for (i, text) in texts.enumerated() {
                        let label = TextLayout(context: ctx, font: i % 2 == 0 ? "Noto Sans 9" : "Noto Sans Bold 11")
                        label.text = "\(text) \(worker)·\(round)"
                        label.draw(at: Point(x: 20, y: 20 + Double(i) * 30), color: .ink)
                    }
                    try ctx.checkStatus()
                    try surface.finish()
                    let pdf = try surface.pdfData()
                    if pdf.count < 1000 { failures.withLock { $0.append("\(worker)·\(round): \(pdf.count) bytes") } }
                } catch {
                    failures.withLock { $0.append("\(worker)·\(round): \(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
    }

    /// Tamil is laid out in Noto Sans Tamil whole: under `LANG=C.UTF-8` Pango's language (`c`)
    /// gave Tamil no preference, and fontconfig's fallback drew ப from Noto Sans Grantha and its
    /// vowel sign from Noto Sans Tamil, on a dotted circle ("பிப்." as "ப◌ிப◌்.": outside languages test).
    func testTamilIsDrawnInOneTamilFontWhateverTheProcesssLocale() throws {
        let surface = try CairoSurface(pdfInMemoryWidth: 300, height: 100)
        let ctx = try CairoContext(surface: surface)
        let label = TextLayout(context: ctx, font: "Noto Sans 10")
        label.text = "பிப். ஏப். செப். காபி"
        label.draw(at: Point(x: 10, y: 10), color: .ink)
        try ctx.checkStatus()
        try surface.finish()
        let pdf = String(decoding: try surface.pdfData(), as: UTF8.self)
        XCTAssertTrue(pdf.contains("NotoSansTamil"), "the Tamil font is used")
        XCTAssertFalse(pdf.contains("Grantha"), "no letter comes from the Grantha font")
    }

    // MARK: - Helpers

    /// `text` laid out in `font` on this thread's report or machine context and drawn into a PNG.
    private func drawn(_ text: String, font: String, machine: Bool) throws -> [UInt8] {
        let surface = try CairoSurface(imageWidth: 300, height: 40, background: .white)
        let ctx = try CairoContext(surface: surface)
        let pango = ctx.pango
        let parsed = pango.fontDescription(font)
        let binding = pango.binding(for: ctx)
        let key = PangoBinding.LayoutKey(text: text, font: parsed.canonicalName, width: -1, height: -1,
                                         ellipsize: PANGO_ELLIPSIZE_NONE.rawValue, wrap: PANGO_WRAP_WORD.rawValue,
                                         alignment: PANGO_ALIGN_LEFT.rawValue)
        let context = machine ? binding.systemContext : try XCTUnwrap(binding.reportContext)
        let laidOut = LaidOutText(context: context, key: key, font: parsed.description, usesMachineFonts: machine)
        ctx.setColor(.ink)
        ctx.move(to: Point(x: 4, y: 4))
        pango_cairo_show_layout(ctx.pointer, laidOut.layout)
        try ctx.checkStatus()
        return try surface.pngData()
    }
}
