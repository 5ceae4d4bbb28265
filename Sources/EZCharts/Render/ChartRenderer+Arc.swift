import EZCairo
import EZLocale
import EZCore
import Glibc

// MARK: - Pie and doughnut

extension ChartRenderer {
    /// Draws a pie (`innerRadius` 0) or a doughnut: the legend column on the right, the slices with
    /// their percentages inside or outside, and a doughnut's total in its centre.
    static func drawArc(_ chart: Chart, innerRadius: Double, painter: Painter, in body: Rect) {
        let data = chart.data
        let values = (data.series.first?.values ?? []).map { max(0, $0 ?? 0) }
        let total = values.reduce(0, +)
        let labels = ValueLabels(format: painter.format, valueFormat: chart.valueFormat)
        let percents: [String] = data.pointLabels ?? values.map {
            painter.format.percent(Percent.of($0, total) ?? Percent(tenths: 0))
        }
        let colors = data.pointColors ?? values.indices.map { Palette.color($0) }

        let legendW = chart.legend == .hidden ? 0 : min(300, body.width * 0.42)
        let pieArea = Rect(x: body.x, y: body.y, width: body.width - legendW, height: body.height)
        if legendW > 0 {
            drawArcLegend(data, values: values, percents: percents, colors: colors, labels: labels, width: legendW,
                          painter: painter, in: body)
        }
        let center = pieArea.center
        let radius = pieRadius(values: values, total: total, percents: percents, innerRadius: innerRadius,
                               area: pieArea, painter: painter)
        let inner = radius * max(0, min(0.9, innerRadius))
        let outside = drawSlices(values: values, total: total, percents: percents, colors: colors, center: center,
                                 radius: radius, inner: inner, painter: painter)
        drawOutsideLabels(outside, center: center, radius: radius, bottom: pieArea.maxY, painter: painter)
        if inner > 24 {
            drawDoughnutTotal(total, name: data.series.first?.name ?? "", labels: labels, center: center, inner: inner, painter: painter)
        }
    }

    /// The legend column on the right: swatch, name, amount (dropped when names would be cut) and percent.
    static func drawArcLegend(_ data: ChartData, values: [Int64], percents: [String], colors: [Color], labels: ValueLabels,
                              width legendW: Double, painter: Painter, in body: Rect) {
        let ctx = painter.ctx
        let rowH = min(22, body.height / Double(max(1, values.count)))
        let top = body.midY - rowH * Double(values.count) / 2
        let x = body.maxX - legendW + 12
        let pctW = percents.map { painter.measure($0, .labelBold).width }.max() ?? 0
        // Each name on its one row: a name holding a line break ran over the rows below it
        // (outside standards test).
        let names = data.categories.map(InlineText.onOneLine)
        let longestName = names.map { painter.measure($0, .label).width }.max() ?? 0
        var amountW = values.map { painter.measure(labels.full($0), .label).width }.max() ?? 0
        // In a narrow legend, names matter more than amounts: drop the amount column before
        // names get cut short.
        if legendW - 12 - 16 - amountW - pctW - 20 < min(longestName, 110) { amountW = 0 }
        for i in values.indices {
            let cy = top + rowH * (Double(i) + 0.5)
            ctx.setColor(colors[i % colors.count])
            ctx.roundedRectangle(Rect(x: x, y: cy - 5, width: 10, height: 10), radius: 2)
            ctx.fill()
            let nameW = max(30, legendW - 12 - 16 - amountW - pctW - (amountW > 0 ? 20 : 10))
            // A long name (a German 'Sonstige …') shrinks a size before it would be cut.
            let nameStyle = painter.fitting(names[i], .label, smaller: .small, maxWidth: nameW)
            painter.text(names[i], nameStyle, anchor: Point(x: x + 16, y: cy), hAlign: 0, vAlign: 0.5,
                         color: .ink, maxWidth: nameW)
            if amountW > 0 {
                painter.text(labels.full(values[i]), .label, anchor: Point(x: body.maxX - pctW - 10, y: cy), hAlign: 1,
                             vAlign: 0.5, color: Palette.mutedText)
            }
            painter.text(percents[i], .labelBold, anchor: Point(x: body.maxX, y: cy), hAlign: 1, vAlign: 0.5, color: .ink)
        }
    }

    /// A label drawn outside the pie: its slice's middle angle, text and colour.
    typealias OutsideLabel = (mid: Double, text: String, color: Color)


    /// The radius a slice's inside label is centred on: the ring's middle, or two thirds out in a pie.
    static func insideLabelRadius(radius: Double, inner: Double) -> Double {
        inner > 0 ? (radius + inner) / 2 : radius * 0.66
    }

    /// Whether a slice's percentage fits inside it (else it is drawn outside, with a leader): the
    /// text's whole box, centred on the slice's middle angle, clear of the rim, of a doughnut's
    /// hole and of the slice's two edges by a small margin. Measuring only the arc's length let a
    /// wide label in a narrow ring stick out over the hole at 3 and 9 o'clock, where the text runs
    /// across the ring rather than along it.
    static func fitsInside(start: Double, sweep: Double, text: Size, radius: Double, inner: Double) -> Bool {
        let ringDepth = inner > 0 ? radius - inner : radius * 0.5
        guard ringDepth > 16 else { return false }
        let labelR = insideLabelRadius(radius: radius, inner: inner)
        let mid = start + sweep / 2
        let cx = cos(mid) * labelR, cy = sin(mid) * labelR
        let hw = text.width / 2 + 2, hh = text.height / 2 + 1
        let corners = [(cx - hw, cy - hh), (cx + hw, cy - hh), (cx - hw, cy + hh), (cx + hw, cy + hh)]
        // The farthest point of a box from the centre is a corner; the nearest, its clamp.
        guard corners.allSatisfy({ ($0.0 * $0.0 + $0.1 * $0.1).squareRoot() <= radius - 1 }) else { return false }
        if inner > 0 {
            let dx = max(abs(cx) - hw, 0), dy = max(abs(cy) - hh, 0)
            guard (dx * dx + dy * dy).squareRoot() >= inner + 1 else { return false }
        }
        // Within the slice's edges: on the inner side of both edge rays, 2 pt clear (a slice over
        // half the circle keeps its middle far from both edges).
        guard sweep <= Double.pi else { return true }
        let (sx, sy) = (cos(start), sin(start)), (ex, ey) = (cos(start + sweep), sin(start + sweep))
        return corners.allSatisfy { x, y in sx * y - sy * x >= 2 && x * ey - y * ex >= 2 }
    }

    /// How far beyond the rim an outside label's text may start, at most: its leader goes 10 pt out
    /// and 12 pt sideways and the text starts 3 pt further, or, moved up or down to keep clear of
    /// the others, it starts 3 pt beyond the pie's edge at its height (``drawOutsideLabels(_:center:radius:bottom:painter:)``).
    static let outsideLabelReach = 25.0

    /// The pie's radius in `area`: 30 pt inside it, and smaller where the percentages drawn
    /// outside need the room beside it. Where the pie filled its area's width, the widest of them
    /// was cut at the edge ("10,0 %" read "0 %"); a smaller pie can send more labels outside, so
    /// this repeats until the radius holds.
    static func pieRadius(values: [Int64], total: Int64, percents: [String], innerRadius: Double, area: Rect,
                          painter: Painter) -> Double {
        var radius = max(10, min(area.width, area.height) / 2 - 30)
        for _ in 0..<8 {
            let fitting = largestRadiusForOutsideLabels(values: values, total: total, percents: percents, radius: radius,
                                                        innerRadius: innerRadius, halfWidth: area.width / 2 - 2, painter: painter)
            guard fitting < radius, radius > 10 else { break }
            radius = max(10, fitting)
        }
        return radius
    }

    /// The largest radius at which every percentage that a pie of `radius` draws outside (see
    /// ``drawSlices(values:total:percents:colors:center:radius:inner:painter:)``) stays within
    /// `halfWidth` of the centre, wherever it is moved to (``outsideLabelReach``); `radius` itself
    /// when they all fit.
    static func largestRadiusForOutsideLabels(values: [Int64], total: Int64, percents: [String], radius: Double,
                                              innerRadius: Double, halfWidth: Double, painter: Painter) -> Double {
        guard total > 0 else { return radius }
        let inner = radius * max(0, min(0.9, innerRadius))
        var largest = radius
        var angle = -Double.pi / 2
        for i in values.indices where values[i] > 0 {
            let sweep = 2 * Double.pi * Double(values[i]) / Double(total)
            defer { angle += sweep }
            guard !fitsInside(start: angle, sweep: sweep, text: painter.measure(percents[i], .labelBold), radius: radius, inner: inner)
            else { continue }
            largest = min(largest, halfWidth - outsideLabelReach - painter.measure(percents[i], .label).width)
        }
        return largest
    }

    /// Fills the slices clockwise from the top, white between them, and writes each percentage
    /// inside its slice when it fits; returns the ones that go outside.
    static func drawSlices(values: [Int64], total: Int64, percents: [String], colors: [Color], center: Point,
                           radius: Double, inner: Double, painter: Painter) -> [OutsideLabel] {
        let ctx = painter.ctx
        var angle = -Double.pi / 2
        var outside: [OutsideLabel] = []
        var inside: [(mid: Double, text: String, textColor: Color)] = []
        for (i, v) in values.enumerated() where v > 0 {
            let sweep = 2 * Double.pi * Double(v) / Double(total)
            let end = angle + sweep
            ctx.newPath()
            if inner > 0 {
                ctx.arc(center: center, radius: radius, from: angle, to: end)
                ctx.arcNegative(center: center, radius: inner, from: end, to: angle)
            } else {
                ctx.move(to: center)
                ctx.arc(center: center, radius: radius, from: angle, to: end)
            }
            ctx.closePath()
            let color = colors[i % colors.count]
            ctx.setColor(color); ctx.fillPreserve()
            ctx.setColor(.white); ctx.setLineWidth(values.count > 1 ? 1.25 : 0); ctx.setLineJoin(.round)
            if values.count > 1 { ctx.stroke() } else { ctx.newPath() }
            let mid = angle + sweep / 2
            // A label goes inside when its box fits within the slice.
            if fitsInside(start: angle, sweep: sweep, text: painter.measure(percents[i], .labelBold), radius: radius, inner: inner) {
                inside.append((mid, percents[i], color.contrastingText))
            } else {
                outside.append((mid, percents[i], color.darkened(0.25)))
            }
            angle = end
        }
        for l in inside {
            let r = insideLabelRadius(radius: radius, inner: inner)
            painter.text(l.text, .labelBold, anchor: Point(x: center.x + cos(l.mid) * r, y: center.y + sin(l.mid) * r),
                         hAlign: 0.5, vAlign: 0.5, color: l.textColor)
        }
        return outside
    }

    /// Outside labels with leader lines, spread apart on each side so that none overlap and none
    /// passes `bottom`.
    static func drawOutsideLabels(_ outside: [OutsideLabel], center: Point, radius: Double, bottom: Double, painter: Painter) {
        let ctx = painter.ctx
        let lineH = painter.measure("0%", .label).height + 1
        for right in [true, false] {
            var side = outside.filter { (cos($0.mid) >= 0) == right }
                .map { (l) -> (mid: Double, text: String, color: Color, y: Double) in
                    (l.mid, l.text, l.color, center.y + sin(l.mid) * (radius + 16))
                }
                .sorted { $0.y < $1.y }
            guard !side.isEmpty else { continue }
            for k in 1..<max(1, side.count) where side[k].y < side[k - 1].y + lineH { side[k].y = side[k - 1].y + lineH }
            let overflow = (side.last!.y + lineH / 2) - (bottom - 2)
            if overflow > 0 { for k in side.indices { side[k].y -= overflow } }
            for k in stride(from: side.count - 2, through: 0, by: -1) where side[k].y > side[k + 1].y - lineH {
                side[k].y = side[k + 1].y - lineH
            }
            for l in side {
                let edge = Point(x: center.x + cos(l.mid) * radius, y: center.y + sin(l.mid) * radius)
                let elbow = Point(x: center.x + cos(l.mid) * (radius + 10), y: l.y)
                // The label sits just beyond its elbow, close to its slice, but never over the pie:
                // a label moved up or down to clear the others starts beyond the pie's edge at its
                // own height (near the top, the elbow alone left "3,1 %" under a slice).
                let dy = l.y - center.y, clearance = (radius + 6) * (radius + 6) - dy * dy
                let rim = clearance > 0 ? clearance.squareRoot() : 0
                let tip = Point(x: right ? max(elbow.x + 12, center.x + rim) : min(elbow.x - 12, center.x - rim), y: l.y)
                ctx.setColor(Palette.axis); ctx.setLineWidth(0.9)
                ctx.move(to: edge); ctx.line(to: elbow); ctx.line(to: tip); ctx.stroke()
                painter.text(l.text, .label, anchor: Point(x: tip.x + (right ? 3 : -3), y: l.y), hAlign: right ? 0 : 1,
                             vAlign: 0.5, color: .ink)
            }
        }

    }

    /// A doughnut's centre: the total (short when the full amount does not fit) over the series' name.
    static func drawDoughnutTotal(_ total: Int64, name: String, labels: ValueLabels, center: Point, inner: Double, painter: Painter) {
        let (totalText, style) = doughnutTotal(total, labels: labels, inner: inner, painter: painter)
        painter.text(totalText, style, anchor: Point(x: center.x, y: center.y - 2), hAlign: 0.5, vAlign: 0.75,
                     color: .ink, maxWidth: inner * 1.8)
        painter.text(name, .small, anchor: Point(x: center.x, y: center.y + 4),
                     hAlign: 0.5, vAlign: 0, color: Palette.mutedText, maxWidth: inner * 1.6)
    }

    /// The total's text and style in a doughnut of inner radius `inner`: the full amount, else the
    /// short one, in the centre's style; where even that does not fit (a German "2,1 Tsd. €" in a
    /// PDF's small doughnut was cut to "2,1 Ts…"), the same in the labels' bold size. The short
    /// amount in that size is the last resort, cut only if it still does not fit.
    static func doughnutTotal(_ total: Int64, labels: ValueLabels, inner: Double, painter: Painter) -> (text: String, style: Painter.Style) {
        let full = labels.full(total), short = labels.short(total)
        for style in [Painter.Style.center, .labelBold] {
            if painter.measure(full, style).width <= inner * 1.7 { return (full, style) }
            if painter.measure(short, style).width <= inner * 1.8 { return (short, style) }
        }
        return (short, .labelBold)
    }
}
