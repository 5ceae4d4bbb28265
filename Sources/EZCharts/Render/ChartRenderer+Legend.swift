import EZCairo
import EZLocale
// MARK: - Legend

/// One legend entry: a swatch (box, line or dashed line) and a name.
struct LegendEntry {
    enum Swatch { case box, line, dashedLine }
    /// The name, on one line (a line break in a series' name ran over the entries below it).
    var name: String
    var color: Color
    var swatch: Swatch

    init(name: String, color: Color, swatch: Swatch) {
        self.name = InlineText.onOneLine(name)
        self.color = color
        self.swatch = swatch
    }
}

extension ChartRenderer {
    /// Legend entries for line and bar charts (series in order).
    static func seriesLegend(_ chart: Chart) -> [LegendEntry] {
        let isLine: Bool
        if case .line = chart.mark { isLine = true } else { isLine = false }
        return chart.data.series.map {
            LegendEntry(name: $0.name, color: $0.color, swatch: isLine ? ($0.dashed ? .dashedLine : .line) : .box)
        }
    }

    /// Lays out entries in rows under a chart, centred; returns the height used (0 when nothing drawn).
    /// With `draw: false` only measures.
    @discardableResult
    static func drawLegendRows(_ entries: [LegendEntry], painter: Painter, width: Double, bottom: Double, x: Double,
                               draw: Bool) -> Double {
        guard !entries.isEmpty else { return 0 }
        let swatchW = 14.0, gap = 6.0, spacing = 16.0, rowH = 16.0
        let maxItem = min(width, 220)
        var rows: [[(LegendEntry, Double)]] = [[]]
        var rowWidth = 0.0
        for e in entries {
            let w = min(maxItem, swatchW + gap + painter.measure(e.name, .label).width)
            if rowWidth > 0 && rowWidth + spacing + w > width { rows.append([]); rowWidth = 0 }
            rowWidth += (rowWidth > 0 ? spacing : 0) + w
            rows[rows.count - 1].append((e, w))
        }
        let height = Double(rows.count) * rowH
        guard draw else { return height + 6 }
        var y = bottom - height
        for row in rows {
            let total = row.reduce(0) { $0 + $1.1 } + spacing * Double(row.count - 1)
            var cx = x + (width - total) / 2
            for (e, w) in row {
                drawSwatch(e, painter: painter, at: Point(x: cx, y: y + rowH / 2), width: swatchW)
                painter.text(e.name, .label, anchor: Point(x: cx + swatchW + gap, y: y + rowH / 2), hAlign: 0, vAlign: 0.5,
                             color: Palette.mutedText.darkened(0.3), maxWidth: w - swatchW - gap)
                cx += w + spacing
            }
            y += rowH
        }
        return height + 6
    }

    static func drawSwatch(_ e: LegendEntry, painter: Painter, at p: Point, width: Double) {
        let ctx = painter.ctx
        switch e.swatch {
        case .box:
            ctx.setColor(e.color)
            ctx.roundedRectangle(Rect(x: p.x + 2, y: p.y - 5, width: 10, height: 10), radius: 2)
            ctx.fill()
        case .line, .dashedLine:
            ctx.setLineWidth(2.5)
            ctx.setLineCap(.butt)
            ctx.setDash(e.swatch == .dashedLine ? [4, 2.5] : [])
            ctx.strokeLine(from: Point(x: p.x, y: p.y), to: Point(x: p.x + width, y: p.y), color: e.color, width: 2.5)
            ctx.setDash([])
        }
    }
}
