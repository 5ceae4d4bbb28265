import EZCairo
import EZLocale
/// Text and shape helpers shared by the chart renderers: one ``TextLayout`` per text style, made
/// once per drawing and reused for every label (Pango layout setup is the costly part).
final class Painter {
    let ctx: CairoContext
    let format: LocaleFormat
    /// Text styles: Pango font descriptions.
    enum Style { case title, subtitle, label, labelBold, small, message, center }
    private var layouts: [Style: TextLayout] = [:]

    init(ctx: CairoContext, format: LocaleFormat) {
        self.ctx = ctx
        self.format = format
    }

    static func font(_ style: Style) -> String {
        switch style {
        case .title: return "Noto Sans Bold 14"
        case .subtitle: return "Noto Sans 9.5"
        case .label: return "Noto Sans 9"
        case .labelBold: return "Noto Sans Bold 9"
        case .small: return "Noto Sans 8"
        case .message: return "Noto Sans 12"
        case .center: return "Noto Sans Bold 15"
        }
    }

    /// The layout for `style`, reset to one line with no width limit.
    func layout(_ style: Style, _ text: String, maxWidth: Double? = nil, alignment: TextLayout.Alignment = .left) -> TextLayout {
        let l: TextLayout
        if let existing = layouts[style] { l = existing } else {
            l = TextLayout(context: ctx, font: Painter.font(style))
            layouts[style] = l
        }
        // A left-to-right line, as the report's languages are: a subtitle starting with an Arabic
        // or Hebrew month name (an isolate Pango does not skip when it picks a line's direction)
        // was laid out right to left, its amount turned to "€ 641.29" beside "641.29 €" in the
        // tiles (outside standards test). The text itself keeps its order and shaping.
        l.text = InlineText.canTurnRightToLeft(text) ? "\u{200E}" + text : text
        l.width = maxWidth
        l.ellipsize = maxWidth == nil ? .none : .end
        l.maxLines = nil
        l.alignment = alignment
        return l
    }

    /// Draws `text` wrapped at word boundaries over at most `maxLines` lines of `maxWidth` (a long
    /// German or French title takes a second line rather than being cut); only text that still
    /// does not fit ends in '…'. Returns the drawn size.
    @discardableResult
    func wrappedText(_ text: String, _ style: Style, at p: Point, color: Color, maxWidth: Double, maxLines: Int = 2) -> Size {
        let l = wrappedLayout(style, text, maxWidth: maxWidth, maxLines: maxLines)
        l.draw(at: p, color: color)
        return l.size
    }

    /// The layout ``wrappedText(_:_:at:color:maxWidth:maxLines:)`` draws, for measuring.
    func wrappedLayout(_ style: Style, _ text: String, maxWidth: Double, maxLines: Int = 2) -> TextLayout {
        let l = layout(style, text, maxWidth: maxWidth)
        l.wrap = .word
        l.maxLines = maxLines
        return l
    }

    /// The style of `smaller` when `text` is wider than `maxWidth` in `style`: a legend's name shrinks
    /// a size before it would be cut.
    func fitting(_ text: String, _ style: Style, smaller: Style, maxWidth: Double) -> Style {
        measure(text, style).width > maxWidth ? smaller : style
    }

    /// The size `text` takes in `style`.
    func measure(_ text: String, _ style: Style) -> Size { layout(style, text).size }

    /// Draws `text` with its top-left at `p`; `maxWidth` ellipsizes. Returns the drawn size.
    @discardableResult
    func text(_ text: String, _ style: Style, at p: Point, color: Color, maxWidth: Double? = nil) -> Size {
        let l = layout(style, text, maxWidth: maxWidth)
        l.draw(at: p, color: color)
        return l.size
    }

    /// Draws `text` aligned on an anchor: `hAlign` 0 = left edge at x, 0.5 = centred, 1 = right edge at x;
    /// `vAlign` likewise for y. Returns the text's box.
    @discardableResult
    func text(_ text: String, _ style: Style, anchor: Point, hAlign: Double, vAlign: Double, color: Color,
              maxWidth: Double? = nil) -> Rect {
        let l = layout(style, text, maxWidth: maxWidth)
        let s = l.size
        let w = maxWidth.map { min($0, s.width) } ?? s.width
        let box = Rect(x: anchor.x - w * hAlign, y: anchor.y - s.height * vAlign, width: w, height: s.height)
        l.draw(at: Point(x: box.x, y: box.y), color: color)
        return box
    }
}

extension Painter {
    /// Draws possibly multi-line `text` centred on `centerX` with its top at `top`.
    func centeredText(_ text: String, _ style: Style, centerX: Double, top: Double, color: Color) {
        let w = measure(text, style).width
        let l = layout(style, text, maxWidth: w + 1, alignment: .center)
        l.draw(at: Point(x: centerX - (w + 1) / 2, y: top), color: color)
    }
}
