import CCairo

/// A paragraph of text laid out by Pango and drawn with Cairo: shaping, font fallback (accents,
/// CJK, right-to-left scripts, colour emoji), wrapping and ellipsizing.
///
/// Reuse one layout for many strings: changing ``text`` only re-lays-out. The Pango context and
/// parsed fonts are made once per thread (``PangoThreadCache``) and shared by every ``CairoContext``.
///
/// ```swift
/// let label = TextLayout(context: ctx, font: "Noto Sans 10")
/// label.text = "Caffè ☕ 東京"
/// label.width = 120; label.ellipsize = .end
/// let size = label.size            // in points
/// label.draw(at: Point(x: 20, y: 40))  // top-left corner of the text box
/// ```
public final class TextLayout {
    /// Where text is cut when it does not fit ``width``.
    public enum Ellipsize: Sendable { case none, start, middle, end }
    /// How lines break when text is wider than ``width``.
    public enum Wrap: Sendable { case word, char, wordChar }
    /// Horizontal alignment of lines inside ``width``.
    public enum Alignment: Sendable { case left, center, right }

    /// The `PangoLayout`; never escapes this module.
    private let layout: OpaquePointer
    /// The context drawn into (kept alive: the layout uses its Pango context).
    public let context: CairoContext

    /// A layout with the given Pango font description ("Noto Sans 10", "Noto Sans Bold 14").
    public init(context: CairoContext, font: String = "Noto Sans 10") {
        self.context = context
        layout = pango_layout_new(context.pango.context)!
        self.font = font
        applyFont()
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    // MARK: - Properties

    /// The Pango font description, e.g. "Noto Sans Bold 12" (size in points).
    public var font: String { didSet { if font != oldValue { applyFont() } } }

    /// The text (plain, not markup).
    public var text: String = "" {
        didSet { if text != oldValue { pango_layout_set_text(layout, text, -1) } }
    }

    /// The maximum line width in points; nil for no limit (one line per paragraph).
    public var width: Double? {
        didSet { pango_layout_set_width(layout, width.map { Int32(($0 * Double(PANGO_SCALE)).rounded()) } ?? -1) }
    }

    /// At most this many lines when ``width`` is set and ``ellipsize`` is not `.none`; nil for no limit.
    public var maxLines: Int? {
        didSet { pango_layout_set_height(layout, maxLines.map { -Int32($0) } ?? -1) }
    }

    /// Where text is ellipsized when it does not fit.
    public var ellipsize: Ellipsize = .none {
        didSet {
            let mode: PangoEllipsizeMode
            switch ellipsize {
            case .none: mode = PANGO_ELLIPSIZE_NONE
            case .start: mode = PANGO_ELLIPSIZE_START
            case .middle: mode = PANGO_ELLIPSIZE_MIDDLE
            case .end: mode = PANGO_ELLIPSIZE_END
            }
            pango_layout_set_ellipsize(layout, mode)
        }
    }

    /// How lines wrap.
    public var wrap: Wrap = .word {
        didSet {
            switch wrap {
            case .word: pango_layout_set_wrap(layout, PANGO_WRAP_WORD)
            case .char: pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
            case .wordChar: pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            }
        }
    }

    /// Line alignment inside ``width``.
    public var alignment: Alignment = .left {
        didSet {
            switch alignment {
            case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            }
        }
    }

    // MARK: - Measuring

    /// The logical size of the laid-out text in points (width is the ink-independent advance).
    public var size: Size {
        var w: Int32 = 0, h: Int32 = 0
        _ = context.pango
        pango_layout_get_size(layout, &w, &h)
        return Size(width: Double(w) / Double(PANGO_SCALE), height: Double(h) / Double(PANGO_SCALE))
    }

    /// The distance from the top of the text box to the first line's baseline, in points.
    public var baseline: Double { _ = context.pango; return Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE) }

    /// The number of lines after wrapping.
    public var lineCount: Int { _ = context.pango; return Int(pango_layout_get_line_count(layout)) }

    /// Whether some text was cut off with an ellipsis.
    public var isEllipsized: Bool { _ = context.pango; return pango_layout_is_ellipsized(layout) != 0 }

    // MARK: - Drawing

    /// Draws the text with its box's top-left corner at `point`, in the context's current colour.
    public func draw(at point: Point) {
        _ = context.pango
        context.move(to: point)
        pango_cairo_show_layout(context.pointer, layout)
    }

    /// Draws the text in `color` with its top-left at `point`.
    public func draw(at point: Point, color: Color) {
        context.setColor(color)
        draw(at: point)
    }

    // MARK: - Setup

    private func applyFont() {
        pango_layout_set_font_description(layout, context.pango.fontDescription(font))
    }
}
