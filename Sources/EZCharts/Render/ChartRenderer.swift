import EZCairo
import EZLocale
/// Draws a ``Chart`` with Cairo: to a PNG, or as vectors into any ``CairoContext`` (a PDF page).
///
/// ```swift
/// let png = try ChartRenderer.png(chart)                       // 1600 × 1000 px
/// try ChartRenderer.draw(chart, in: pdfContext, rect: Rect(x: 40, y: 120, width: 515, height: 300),
///                        format: LocaleFormat(locale: "it_IT"))
/// ```
package enum ChartRenderer {
    /// The chart as a PNG of `width` × `height` points at `scale` pixels per point (default 1600 × 1000 px),
    /// on a white background. Identical charts give identical bytes.
    package static func png(_ chart: Chart, width: Int = 800, height: Int = 500, scale: Double = 2) throws -> [UInt8] {
        try surface(chart, width: width, height: height, scale: scale).pngData()
    }

    /// The chart drawn on a white image surface of `width` × `height` points at `scale` pixels per
    /// point: what ``png(_:width:height:scale:)`` encodes, for callers that time or inspect the pixels.
    package static func surface(_ chart: Chart, width: Int = 800, height: Int = 500, scale: Double = 2) throws -> CairoSurface {
        let surface = try CairoSurface(imageWidth: Int((Double(width) * scale).rounded()),
                                       height: Int((Double(height) * scale).rounded()), background: .white)
        let ctx = try CairoContext(surface: surface)
        ctx.scale(x: scale, y: scale)
        let rect = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        try draw(chart, in: ctx, rect: rect, format: chart.format)
        return surface
    }

    /// Draws `chart` inside `rect` of `ctx` (user units: points), writing text in `format`'s locale.
    /// Does not paint a background, so the chart sits on whatever the page has.
    package static func draw(_ chart: Chart, in ctx: CairoContext, rect: Rect, format: LocaleFormat) throws {
        let painter = Painter(ctx: ctx, format: format)
        ctx.save()
        defer { ctx.restore() }
        ctx.rectangle(rect)
        ctx.clip()
        let pad = 14.0
        var y = rect.y + pad
        let inner = rect.inset(by: pad)
        if !chart.title.isEmpty {
            y += painter.wrappedText(chart.title, .title, at: Point(x: inner.x, y: y), color: .ink, maxWidth: inner.width).height
        }
        if let subtitle = chart.subtitle, !subtitle.isEmpty {
            y += painter.wrappedText(subtitle, .subtitle, at: Point(x: inner.x, y: y + 1), color: Palette.mutedText,
                                     maxWidth: inner.width).height + 1
        }
        let body = Rect(x: inner.x, y: y + 10, width: inner.width, height: max(0, inner.maxY - y - 10))
        if chart.isEmpty {
            drawEmpty(chart, painter: painter, in: body)
        } else {
            switch chart.mark {
            case .arc(let innerRadius): drawArc(chart, innerRadius: innerRadius, painter: painter, in: body)
            case .line, .bar: drawCartesian(chart, painter: painter, in: body)
            case .horizontalBar: drawHorizontalBars(chart, painter: painter, in: body)
            case .progress: drawProgress(chart, painter: painter, in: body)
            case .heatmap: drawHeatmap(chart, painter: painter, in: body)
            }
        }
        try ctx.checkStatus("drawing the chart '\(chart.title)'")
    }

    /// 'No data for this period', centred, over a faint placeholder frame.
    static func drawEmpty(_ chart: Chart, painter: Painter, in body: Rect) {
        let ctx = painter.ctx
        ctx.setColor(Palette.grid)
        ctx.setLineWidth(1)
        ctx.setDash([4, 4])
        ctx.roundedRectangle(body.inset(by: 0.5), radius: 6)
        ctx.stroke()
        ctx.setDash([])
        painter.text(chart.emptyMessage, .message, anchor: body.center, hAlign: 0.5, vAlign: 0.5,
                     color: Palette.mutedText, maxWidth: body.width - 20)
    }
}
