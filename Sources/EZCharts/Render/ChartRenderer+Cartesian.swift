import EZCairo

// MARK: - Lines and vertical bars over categories

/// Where a cartesian chart's values and categories land: the plot rectangle, the value domain and
/// one band per category.
struct CartesianFrame {
    /// The plot area, inside the axis labels.
    var plot: Rect
    /// The value domain drawn from the bottom to the top of ``plot``.
    var domainLo: Double, domainHi: Double
    /// The width given to each category.
    var band: Double

    /// The y coordinate of value `v`.
    func yPos(_ v: Double) -> Double {
        let span = domainHi - domainLo
        return span == 0 ? plot.maxY : plot.maxY - (v - domainLo) / span * plot.height
    }

    /// The x coordinate of category `i`'s centre.
    func xCenter(_ i: Int) -> Double { plot.x + band * (Double(i) + 0.5) }
}

extension ChartRenderer {
    /// Draws a line chart or a (stacked or grouped) bar chart over categories: value axis and
    /// gridlines, category labels thinned until they fit, the marks, then the legend.
    static func drawCartesian(_ chart: Chart, painter: Painter, in body: Rect) {
        let data = chart.data
        let legend = chart.legend == .hidden || data.series.count < 2 ? [] : seriesLegend(chart)
        let legendH = drawLegendRows(legend, painter: painter, width: body.width, bottom: body.maxY, x: body.x, draw: false)
        let area = body.inset(bottom: legendH + (legend.isEmpty ? 0 : 4))

        let (lo, hi) = valueRange(chart)
        let ticks = NiceTicks(from: Double(lo), to: Double(hi), count: chart.scale.tickCount, minimumExponent: 0)
        let tickLabels = ValueLabels(format: painter.format, valueFormat: chart.valueFormat).ticks(ticks)
        let leftW = (tickLabels.map { painter.measure($0, .small).width }.max() ?? 0) + 8

        // Category labels: thin them until they fit without overlapping.
        let n = data.categories.count
        let catSizes = data.categories.map { painter.measure($0, .small) }
        let catH = (catSizes.map(\.height).max() ?? 0)
        let plot = Rect(x: area.x + leftW, y: area.y + 6, width: max(10, area.width - leftW - 6),
                        height: max(10, area.height - catH - 14))
        let frame = CartesianFrame(plot: plot,
                                   domainLo: chart.scale.nice ? ticks.lower.doubleValue : Double(lo),
                                   domainHi: chart.scale.nice ? ticks.upper.doubleValue : Double(hi),
                                   band: plot.width / Double(max(1, n)))
        let widest = (catSizes.map(\.width).max() ?? 0) + 8
        let every = max(1, Int((widest / frame.band).rounded(.up)))

        drawValueAxis(ticks, labels: tickLabels, frame: frame, painter: painter)
        for i in stride(from: 0, to: n, by: every) {
            painter.centeredText(data.categories[i], .small, centerX: frame.xCenter(i), top: plot.maxY + 6, color: Palette.mutedText)
        }
        switch chart.mark {
        case .line: drawLines(data, frame: frame, painter: painter)
        case .bar(let stacked): drawBars(data, stacked: stacked, frame: frame, painter: painter)
        default: drawBars(data, stacked: false, frame: frame, painter: painter)
        }
        drawLegendRows(legend, painter: painter, width: body.width, bottom: body.maxY, x: body.x, draw: true)
    }

    /// The smallest and largest value drawn: each stack's positive and negative sums for a stacked
    /// bar chart, each value otherwise, and zero when the scale includes it.
    static func valueRange(_ chart: Chart) -> (lo: Int128, hi: Int128) {
        let data = chart.data
        var lo: Int128 = 0, hi: Int128 = 0, seen = false
        func include(_ v: Int128) { if !seen { lo = v; hi = v; seen = true } else { lo = min(lo, v); hi = max(hi, v) } }
        if case .bar(true) = chart.mark {
            // A stack's total is summed in 128 bits: series near the 64-bit limit may add up past it.
            for i in 0..<data.categories.count {
                var pos: Int128 = 0, neg: Int128 = 0
                for s in data.series { let v = Int128((s.values[safe: i] ?? nil) ?? 0); if v >= 0 { pos += v } else { neg += v } }
                include(pos); include(neg)
            }
        } else {
            for s in data.series { for v in s.values { if let v { include(Int128(v)) } } }
        }
        if chart.scale.zero { include(0) }
        return (lo, hi)
    }

    /// Gridlines in one path, the zero line in another (two drawing operations, not one per tick),
    /// and the tick labels left of the plot.
    static func drawValueAxis(_ ticks: NiceTicks, labels: [String], frame: CartesianFrame, painter: Painter) {
        var grid: [(from: Point, to: Point)] = [], zero: [(from: Point, to: Point)] = []
        for (t, label) in zip(ticks.values, labels) {
            let v = t.doubleValue
            guard v >= frame.domainLo - 1e-9 && v <= frame.domainHi + 1e-9 else { continue }
            let y = frame.yPos(v).rounded() + 0.5
            let line = (from: Point(x: frame.plot.x, y: y), to: Point(x: frame.plot.maxX, y: y))
            if t.significand == 0 { zero.append(line) } else { grid.append(line) }
            painter.text(label, .small, anchor: Point(x: frame.plot.x - 6, y: y), hAlign: 1, vAlign: 0.5, color: Palette.mutedText)
        }
        painter.ctx.strokeLines(grid, color: Palette.grid, width: 0.75)
        painter.ctx.strokeLines(zero, color: Palette.axis, width: 1)
    }

    /// One line per series (secondary series first, under the others), with ringed dots on the
    /// main series when there are at most 24 points.
    static func drawLines(_ data: ChartData, frame: CartesianFrame, painter: Painter) {
        let ctx = painter.ctx
        let n = data.categories.count
        let ordered = data.series.enumerated().sorted { ($0.element.secondary ? 0 : 1, $0.offset) < ($1.element.secondary ? 0 : 1, $1.offset) }
        for (_, s) in ordered {
            ctx.setColor(s.color)
            ctx.setLineWidth(s.secondary ? 1.5 : 2.25)
            ctx.setLineJoin(.round); ctx.setLineCap(.round)
            ctx.setDash(s.dashed ? [5, 3.5] : [])
            var open = false
            for i in 0..<n {
                guard let v = s.values[safe: i] ?? nil else { open = false; continue }
                let p = Point(x: frame.xCenter(i), y: frame.yPos(Double(v)))
                if open { ctx.line(to: p) } else { ctx.move(to: p); open = true }
            }
            ctx.stroke()
            ctx.setDash([])
            if !s.dashed && !s.secondary && n <= 24 {
                let centers = (0..<n).compactMap { i in (s.values[safe: i] ?? nil).map { Point(x: frame.xCenter(i), y: frame.yPos(Double($0))) } }
                ctx.ringedDots(centers, radius: 2.6, ringWidth: 1.6, fill: .white, ring: s.color)
            }
        }
    }

    /// Bars per category: stacked (positive values up, negative down; each series' segments
    /// filled as one path, in stacking order) or side by side, then the zero line.
    static func drawBars(_ data: ChartData, stacked: Bool, frame: CartesianFrame, painter: Painter) {
        let ctx = painter.ctx
        let barW = min(frame.band * 0.68, 46)
        let zeroY = frame.yPos(0)
        var segments = Array(repeating: [Rect](), count: stacked ? data.series.count : 0)
        for i in 0..<data.categories.count {
            if stacked {
                var pos: Int128 = 0, neg: Int128 = 0
                for (k, s) in data.series.enumerated() {
                    guard let value = s.values[safe: i] ?? nil, value != 0 else { continue }
                    let v = Int128(value)
                    let from = v > 0 ? pos : neg
                    let to = from + v
                    if v > 0 { pos = to } else { neg = to }
                    let y0 = frame.yPos(Double(from)), y1 = frame.yPos(Double(to))
                    var r = Rect(x: frame.xCenter(i) - barW / 2, y: min(y0, y1), width: barW, height: abs(y1 - y0))
                    // A hairline gap at the segment's outer edge keeps adjacent colours apart (where a
                    // white 0.75 stroke there showed half its width above the next segment).
                    if r.height > 1.5 {
                        r = Rect(x: r.x, y: v > 0 ? r.y + Self.segmentGap : r.y, width: r.width, height: r.height - Self.segmentGap)
                    }
                    segments[k].append(r)
                }
            } else {
                let sub = barW / Double(max(1, data.series.count))
                for (j, s) in data.series.enumerated() {
                    guard let v = s.values[safe: i] ?? nil else { continue }
                    let y1 = frame.yPos(Double(v))
                    let r = Rect(x: frame.xCenter(i) - barW / 2 + sub * Double(j) + 0.5, y: min(zeroY, y1),
                                 width: max(1, sub - 1), height: abs(y1 - zeroY))
                    ctx.fill(r, data.pointColors?[safe: i] ?? s.color)
                }
            }
        }
        for (k, s) in data.series.enumerated() where stacked { ctx.fill(segments[k], s.color) }
        ctx.strokeLine(from: Point(x: frame.plot.x, y: zeroY.rounded() + 0.5), to: Point(x: frame.plot.maxX, y: zeroY.rounded() + 0.5),
                       color: Palette.axis, width: 1)
    }
}

extension ChartRenderer {
    /// The white between two stacked segments, in points, at the outer edge of each.
    static let segmentGap = 0.375
}

extension Array {
    /// The element at `i`, or nil when out of range.
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
