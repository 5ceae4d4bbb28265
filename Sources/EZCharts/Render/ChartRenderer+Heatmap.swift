import EZCore
import EZAnalytics
import EZCairo

// MARK: - Heat map (cohort retention)

extension ChartRenderer {
    static func drawHeatmap(_ chart: Chart, painter: Painter, in body: Rect) {
        let ctx = painter.ctx
        let data = chart.data
        let cols = data.categories.count, rows = data.series.count
        let rowLabelW = (data.series.map { painter.measure($0.name, .small).width }.max() ?? 0) + 10
        let headH = painter.measure("0", .small).height + 6
        let grid = Rect(x: body.x + rowLabelW, y: body.y + headH, width: body.width - rowLabelW,
                        height: body.height - headH)
        let cw = grid.width / Double(max(1, cols)), ch = min(28, grid.height / Double(max(1, rows)))
        let base = Palette.positive
        let every = max(1, Int(((data.categories.map { painter.measure($0, .small).width }.max() ?? 0) + 6) / cw) + 1)
        for c in stride(from: 0, to: cols, by: every) {
            painter.text(data.categories[c], .small, anchor: Point(x: grid.x + cw * (Double(c) + 0.5), y: body.y + headH - 4),
                         hAlign: 0.5, vAlign: 1, color: Palette.mutedText)
        }
        let showValues = cw >= painter.measure("100%", .small).width + 4 && ch >= 12
        for (r, s) in data.series.enumerated() {
            let y = grid.y + ch * Double(r)
            painter.text(s.name, .small, anchor: Point(x: body.x, y: y + ch / 2), hAlign: 0, vAlign: 0.5, color: .ink)
            for c in 0..<cols {
                let cell = Rect(x: grid.x + cw * Double(c) + 0.5, y: y + 0.5, width: cw - 1, height: ch - 1)
                guard c < s.values.count else { continue }
                if let v = s.values[c] {
                    let f = max(0, min(1, Double(v) / 1000))
                    let color = base.lightened(0.92 - 0.92 * f)
                    ctx.fill(cell, color)
                    if showValues {
                        painter.text(painter.format.wholePercent(Percent(tenths: v)), .small, anchor: cell.center,
                                     hAlign: 0.5, vAlign: 0.5, color: color.contrastingText)
                    }
                } else {
                    ctx.fill(cell, Palette.track)
                    if showValues {
                        painter.text("<5", .small, anchor: cell.center, hAlign: 0.5, vAlign: 0.5, color: Palette.mutedText)
                    }
                }
            }
        }
    }
}
