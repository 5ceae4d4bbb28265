import EZCairo
// MARK: - Lines and vertical bars over categories

extension ChartRenderer {
    static func drawCartesian(_ chart: Chart, painter: Painter, in body: Rect) {
        let ctx = painter.ctx
        let data = chart.data
        let n = data.categories.count
        var stacked = false, isLine = false
        if case .bar(let s) = chart.mark { stacked = s }
        if case .line = chart.mark { isLine = true }

        let legend = chart.legend == .hidden || data.series.count < 2 ? [] : seriesLegend(chart)
        let legendH = drawLegendRows(legend, painter: painter, width: body.width, bottom: body.maxY, x: body.x, draw: false)
        let area = body.inset(bottom: legendH + (legend.isEmpty ? 0 : 4))

        // MARK: Value domain and ticks
        var lo: Int64 = 0, hi: Int64 = 0, seen = false
        func include(_ v: Int64) { if !seen { lo = v; hi = v; seen = true } else { lo = min(lo, v); hi = max(hi, v) } }
        if stacked {
            for i in 0..<n {
                var pos: Int64 = 0, neg: Int64 = 0
                for s in data.series { let v: Int64 = (s.values[safe: i] ?? nil) ?? 0; if v >= 0 { pos += v } else { neg += v } }
                include(pos); include(neg)
            }
        } else {
            for s in data.series { for v in s.values { if let v { include(v) } } }
        }
        if chart.scale.zero { include(0) }
        let ticks = NiceTicks(from: Double(lo), to: Double(hi), count: chart.scale.tickCount, minimumExponent: 0)
        let labels = ValueLabels(format: painter.format, valueFormat: chart.valueFormat)
        let tickLabels = labels.ticks(ticks)
        let domainLo = chart.scale.nice ? ticks.lower.doubleValue : Double(lo)
        let domainHi = chart.scale.nice ? ticks.upper.doubleValue : Double(hi)
        let leftW = (tickLabels.map { painter.measure($0, .small).width }.max() ?? 0) + 8

        // MARK: Category labels: thin them until they fit without overlapping
        let catSizes = data.categories.map { painter.measure($0, .small) }
        let catH = (catSizes.map(\.height).max() ?? 0)
        let plot = Rect(x: area.x + leftW, y: area.y + 6, width: max(10, area.width - leftW - 6),
                        height: max(10, area.height - catH - 14))
        let band = plot.width / Double(max(1, n))
        let widest = (catSizes.map(\.width).max() ?? 0) + 8
        let every = max(1, Int((widest / band).rounded(.up)))

        func yPos(_ v: Double) -> Double {
            let span = domainHi - domainLo
            return span == 0 ? plot.maxY : plot.maxY - (v - domainLo) / span * plot.height
        }
        func xCenter(_ i: Int) -> Double { plot.x + band * (Double(i) + 0.5) }

        // MARK: Grid and value axis
        // Gridlines in one path, the zero line in another: two drawing operations, not one per tick.
        var grid: [(from: Point, to: Point)] = [], zero: [(from: Point, to: Point)] = []
        for (t, label) in zip(ticks.values, tickLabels) {
            let v = t.doubleValue
            guard v >= domainLo - 1e-9 && v <= domainHi + 1e-9 else { continue }
            let y = yPos(v).rounded() + 0.5
            let line = (from: Point(x: plot.x, y: y), to: Point(x: plot.maxX, y: y))
            if t.significand == 0 { zero.append(line) } else { grid.append(line) }
            painter.text(label, .small, anchor: Point(x: plot.x - 6, y: y), hAlign: 1, vAlign: 0.5, color: Palette.mutedText)
        }
        ctx.strokeLines(grid, color: Palette.grid, width: 0.75)
        ctx.strokeLines(zero, color: Palette.axis, width: 1)
        for i in stride(from: 0, to: n, by: every) {
            painter.centeredText(data.categories[i], .small, centerX: xCenter(i), top: plot.maxY + 6, color: Palette.mutedText)
        }

        // MARK: Marks
        if isLine {
            let ordered = data.series.enumerated().sorted { ($0.element.secondary ? 0 : 1, $0.offset) < ($1.element.secondary ? 0 : 1, $1.offset) }
            for (_, s) in ordered {
                ctx.setColor(s.color)
                ctx.setLineWidth(s.secondary ? 1.5 : 2.25)
                ctx.setLineJoin(.round); ctx.setLineCap(.round)
                ctx.setDash(s.dashed ? [5, 3.5] : [])
                var open = false
                for i in 0..<n {
                    guard let v = s.values[safe: i] ?? nil else { open = false; continue }
                    let p = Point(x: xCenter(i), y: yPos(Double(v)))
                    if open { ctx.line(to: p) } else { ctx.move(to: p); open = true }
                }
                ctx.stroke()
                ctx.setDash([])
                if !s.dashed && !s.secondary && n <= 24 {
                    let centers = (0..<n).compactMap { i in (s.values[safe: i] ?? nil).map { Point(x: xCenter(i), y: yPos(Double($0))) } }
                    ctx.ringedDots(centers, radius: 2.6, ringWidth: 1.6, fill: .white, ring: s.color)
                }
            }
        } else {
            let barW = min(band * 0.68, 46)
            let zeroY = yPos(0)
            // A stacked chart's segments are filled one path per series (one drawing operation each,
            // not one per bar), in the stacking order.
            var segments = Array(repeating: [Rect](), count: stacked ? data.series.count : 0)
            for i in 0..<n {
                if stacked {
                    var pos: Int64 = 0, neg: Int64 = 0
                    for (k, s) in data.series.enumerated() {
                        guard let v = s.values[safe: i] ?? nil, v != 0 else { continue }
                        let from = v > 0 ? pos : neg
                        let to = from + v
                        if v > 0 { pos = to } else { neg = to }
                        let y0 = yPos(Double(from)), y1 = yPos(Double(to))
                        var r = Rect(x: xCenter(i) - barW / 2, y: min(y0, y1), width: barW, height: abs(y1 - y0))
                        // A hairline gap at the segment's outer edge keeps adjacent colours apart (where a
                        // white 0.75 stroke there showed half its width above the next segment).
                        if r.height > 1.5 {
                            r = Rect(x: r.x, y: v > 0 ? r.y + Self.segmentGap : r.y, width: r.width, height: r.height - Self.segmentGap)
                        }
                        segments[k].append(r)
                    }
                } else {
                    let k = Double(max(1, data.series.count))
                    let sub = barW / k
                    for (j, s) in data.series.enumerated() {
                        guard let v = s.values[safe: i] ?? nil else { continue }
                        let y1 = yPos(Double(v))
                        let r = Rect(x: xCenter(i) - barW / 2 + sub * Double(j) + 0.5, y: min(zeroY, y1),
                                     width: max(1, sub - 1), height: abs(y1 - zeroY))
                        ctx.fill(r, data.pointColors?[safe: i] ?? s.color)
                    }
                }
            }
            for (k, s) in data.series.enumerated() where stacked { ctx.fill(segments[k], s.color) }
            ctx.strokeLine(from: Point(x: plot.x, y: zeroY.rounded() + 0.5), to: Point(x: plot.maxX, y: zeroY.rounded() + 0.5),
                           color: Palette.axis, width: 1)
        }

        drawLegendRows(legend, painter: painter, width: body.width, bottom: body.maxY, x: body.x, draw: true)
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
