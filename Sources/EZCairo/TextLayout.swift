import CCairo

/// A paragraph of text laid out by Pango and drawn with Cairo: shaping, font fallback (accents,
/// CJK, right-to-left scripts, colour emoji), wrapping and ellipsizing.
///
/// Reuse one layout for many strings. Text is laid out once per thread for each set of settings
/// (``PangoBinding`` keeps recent layouts), so measuring a text and then drawing it, or drawing the
/// same label on the next chart, shapes it once. The Pango contexts and parsed fonts are made once
/// per thread (``PangoThreadCache``) and shared by every ``CairoContext``.
///
/// ```swift
/// let label = TextLayout(context: ctx, font: "Noto Sans 10")
/// label.text = "Caffè ☕ 東京"
/// label.width = 120; label.ellipsize = .end
/// let size = label.size            // in points
/// label.draw(at: Point(x: 20, y: 40))  // top-left corner of the text box
/// ```
package final class TextLayout {
    /// Where text is cut when it does not fit ``width``.
    package enum Ellipsize: Sendable { case none, start, middle, end }
    /// How lines break when text is wider than ``width``.
    package enum Wrap: Sendable { case word, char, wordChar }
    /// Horizontal alignment of lines inside ``width``.
    package enum Alignment: Sendable { case left, center, right }

    /// The context drawn into.
    package let context: CairoContext
    /// The text laid out for the current settings (from the thread's cache, see ``PangoBinding``);
    /// nil until asked for after a change.
    private(set) var laidOut: LaidOutText?
    /// How far right of the drawing point ``laidOut`` is drawn, in Pango units: non-zero when a
    /// line that fits ``width`` is drawn from its natural layout and aligned here (see ``layout``).
    private var alignmentOffset: Int32 = 0

    /// A layout with the given Pango font description ("Noto Sans 10", "Noto Sans Bold 14").
    package init(context: CairoContext, font: String = "Noto Sans 10") {
        self.context = context
        self.font = font
    }

    // MARK: - Properties

    /// The Pango font description, e.g. "Noto Sans Bold 12" (size in points).
    package var font: String { didSet { if font != oldValue { laidOut = nil } } }

    /// The text (plain, not markup), at most ``CairoText/maximumCharacters`` of it: a longer one
    /// is cut with '…' when it is set (see ``CairoText/bounded(_:to:)``).
    package var text: String {
        get { boundedText }
        set {
            let bounded = CairoText.bounded(newValue)
            if bounded != boundedText { boundedText = bounded; laidOut = nil }
        }
    }
    private var boundedText = ""

    /// The maximum line width in points; nil for no limit (one line per paragraph).
    package var width: Double? { didSet { if width != oldValue { laidOut = nil } } }

    /// At most this many lines when ``width`` is set and ``ellipsize`` is not `.none`; nil for no limit.
    package var maxLines: Int? { didSet { if maxLines != oldValue { laidOut = nil } } }

    /// Where text is ellipsized when it does not fit.
    package var ellipsize: Ellipsize = .none { didSet { if ellipsize != oldValue { laidOut = nil } } }

    /// How lines wrap.
    package var wrap: Wrap = .word { didSet { if wrap != oldValue { laidOut = nil } } }

    /// Line alignment inside ``width``.
    package var alignment: Alignment = .left { didSet { if alignment != oldValue { laidOut = nil } } }

    // MARK: - Measuring

    /// The logical size of the laid-out text in points (width is the ink-independent advance).
    package var size: Size {
        withLayout { layout in
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_size(layout, &w, &h)
            return Size(width: Double(w) / Double(PANGO_SCALE), height: Double(h) / Double(PANGO_SCALE))
        }
    }

    /// Where the first line's ink ends, in points from the layout's left edge: for a line cut
    /// with '…', the end of the ellipsis (``size`` gives the width the text was laid out in, and
    /// the line's logical width includes the ellipsis' wide advance).
    package var firstLineInkEnd: Double {
        withLayout { layout in
            guard let line = pango_layout_get_line_readonly(layout, 0) else { return 0 }
            var ink = PangoRectangle()
            pango_layout_line_get_extents(line, &ink, nil)
            return Double(ink.x + ink.width) / Double(PANGO_SCALE)
        }
    }

    /// The distance from the top of the text box to the first line's baseline, in points.
    package var baseline: Double { withLayout { Double(pango_layout_get_baseline($0)) / Double(PANGO_SCALE) } }

    /// The number of lines after wrapping.
    package var lineCount: Int { withLayout { Int(pango_layout_get_line_count($0)) } }

    /// Whether some text was cut off with an ellipsis.
    package var isEllipsized: Bool { withLayout { pango_layout_is_ellipsized($0) != 0 } }

    /// Whether Pango laid the first line out right to left (its resolved base direction).
    package var firstLineIsRightToLeft: Bool {
        withLayout { layout in
            guard let line = pango_layout_get_line_readonly(layout, 0) else { return false }
            return pango_layout_line_get_resolved_direction(line) == PANGO_DIRECTION_RTL
        }
    }

    // MARK: - Drawing

    /// Draws the text with its box's top-left corner at `point`, in the context's current colour.
    package func draw(at point: Point) {
        let text = laidOutText
        if text.usesMachineFonts { context.surface.drawsMachineFonts = true }
        if alignmentOffset == 0 {
            context.move(to: point)
        } else {
            context.move(to: Point(x: point.x + Double(alignmentOffset) / Double(PANGO_SCALE), y: point.y))
        }
        let cr = context.pointer
        MachineFontLock.run(if: text.usesMachineFonts) { pango_cairo_show_layout(cr, text.layout) }
    }

    /// Draws the text in `color` with its top-left at `point`.
    package func draw(at point: Point, color: Color) {
        context.setColor(color)
        draw(at: point)
    }

    // MARK: - Layout

    /// Runs `body` on the `PangoLayout` for the current settings (under ``MachineFontLock`` when
    /// it is laid out on the machine's fonts: Pango lays it out on first use).
    private func withLayout<T: Sendable>(_ body: (OpaquePointer) -> T) -> T {
        let text = laidOutText
        return MachineFontLock.run(if: text.usesMachineFonts) { body(text.layout) }
    }

    /// The laid-out text for the current settings.
    ///
    /// A text given a ``width`` that it fits on one line is laid out exactly as without one: no
    /// wrapping and no ellipsis, only the alignment inside the width differs. Such a text reuses
    /// its natural layout (the one measuring it made, or the one for the same text in a column of
    /// another width), and ``alignmentOffset`` places it as Pango would have.
    private var laidOutText: LaidOutText {
        if let l = laidOut { return l }
        let pango = context.pango
        let parsed = pango.fontDescription(font)
        let binding = pango.binding(for: context)
        let natural = PangoBinding.LayoutKey(
            text: text, font: parsed.canonicalName, width: -1, height: -1,
            ellipsize: PANGO_ELLIPSIZE_NONE.rawValue, wrap: PANGO_WRAP_WORD.rawValue, alignment: PANGO_ALIGN_LEFT.rawValue)
        let naturalLayout = binding.layout(natural, font: parsed)
        alignmentOffset = 0
        guard let width else {
            laidOut = naturalLayout
            return naturalLayout
        }
        let widthUnits = Int32((width * Double(PANGO_SCALE)).rounded())
        let pangoAlignment = alignment.pango
        if let offset = MachineFontLock.run(if: naturalLayout.usesMachineFonts, {
            naturalLayout.offsetOfSingleLine(within: widthUnits, alignment: pangoAlignment)
        }) {
            alignmentOffset = offset
            laidOut = naturalLayout
            return naturalLayout
        }
        let key = PangoBinding.LayoutKey(
            text: text, font: parsed.canonicalName, width: widthUnits,
            height: maxLines.map { -Int32($0) } ?? -1,
            ellipsize: ellipsize.pango.rawValue, wrap: wrap.pango.rawValue, alignment: alignment.pango.rawValue)
        let l = binding.layout(key, font: parsed)
        laidOut = l
        return l
    }
}

extension TextLayout.Ellipsize {
    var pango: PangoEllipsizeMode {
        switch self {
        case .none: return PANGO_ELLIPSIZE_NONE
        case .start: return PANGO_ELLIPSIZE_START
        case .middle: return PANGO_ELLIPSIZE_MIDDLE
        case .end: return PANGO_ELLIPSIZE_END
        }
    }
}

extension TextLayout.Wrap {
    var pango: PangoWrapMode {
        switch self {
        case .word: return PANGO_WRAP_WORD
        case .char: return PANGO_WRAP_CHAR
        case .wordChar: return PANGO_WRAP_WORD_CHAR
        }
    }
}

extension TextLayout.Alignment {
    var pango: PangoAlignment {
        switch self {
        case .left: return PANGO_ALIGN_LEFT
        case .center: return PANGO_ALIGN_CENTER
        case .right: return PANGO_ALIGN_RIGHT
        }
    }
}
