import EZCairo
// MARK: - Horizontal (diverging) bars and progress rows

extension ChartRenderer {
    static func drawHorizontalBars(_ chart: Chart, painter: Painter, in body: Rect) {
        let ctx = painter.ctx
        let data = chart.data
        let n = data.categories.count
        let values = (data.series.first?.values ?? []).map { $0 ?? 0 }
        let labels = ValueLabels(format: painter.format, valueFormat: chart.valueFormat)
        let hasNegative = values.contains { $0 < 0 }
        let valueText = values.map { ($0 > 0 && hasNegative ? "+" : "") + labels.full($0) }

        let lo = min(0, values.min() ?? 0), hi = max(0, values.max() ?? 0)
        let ticks = NiceTicks(from: Double(lo), to: Double(hi), count: chart.scale.tickCount, minimumExponent: 0)
        let tickLabels = labels.ticks(ticks)
        let labelW = min(body.width * 0.28, (data.categories.map { painter.measure($0, .label).width }.max() ?? 0) + 12)
        let valueW = (valueText.map { painter.measure($0, .label).width }.max() ?? 0) + 8
        let tickH = painter.measure("0", .small).height
        let plot = Rect(x: body.x + labelW + (hasNegative ? valueW : 0), y: body.y,
                        width: max(10, body.width - labelW - valueW - (hasNegative ? valueW : 0)),
                        height: max(10, body.height - tickH - 8))
        let dLo = ticks.lower.doubleValue, dHi = ticks.upper.doubleValue
        func xPos(_ v: Double) -> Double { dHi == dLo ? plot.x : plot.x + (v - dLo) / (dHi - dLo) * plot.width }

        // Grid and ticks, thinned so labels never touch.
        var lastRight = -Double.infinity
        for (t, label) in zip(ticks.values, tickLabels) {
            let x = xPos(t.doubleValue).rounded() + 0.5
            ctx.strokeLine(from: Point(x: x, y: plot.y), to: Point(x: x, y: plot.maxY),
                           color: t.significand == 0 ? Palette.axis : Palette.grid, width: t.significand == 0 ? 1 : 0.75)
            let w = painter.measure(label, .small).width
            if x - w / 2 > lastRight + 6 {
                painter.text(label, .small, anchor: Point(x: x, y: plot.maxY + 5), hAlign: 0.5, vAlign: 0, color: Palette.mutedText)
                lastRight = x + w / 2
            }
        }

        let rowH = min(44, plot.height / Double(max(1, n)))
        let barH = max(4, rowH * 0.6)
        let top = plot.y + (plot.height - rowH * Double(n)) / 2
        let zeroX = xPos(0)
        for i in 0..<n {
            let cy = top + rowH * (Double(i) + 0.5)
            painter.text(data.categories[i], .label, anchor: Point(x: body.x, y: cy), hAlign: 0, vAlign: 0.5, color: .ink,
                         maxWidth: labelW - 10)
            let v = values[i]
            let x1 = xPos(Double(v))
            let color = data.pointColors?[safe: i] ?? (v < 0 ? Palette.negative : Palette.positive)
            if v != 0 {
                ctx.setColor(color)
                ctx.roundedRectangle(Rect(x: min(zeroX, x1), y: cy - barH / 2, width: max(1, abs(x1 - zeroX)), height: barH), radius: 2)
                ctx.fill()
            }
            let right = v >= 0
            painter.text(valueText[i], .label, anchor: Point(x: x1 + (right ? 5 : -5), y: cy), hAlign: right ? 0 : 1,
                         vAlign: 0.5, color: v == 0 ? Palette.mutedText : color.darkened(0.2))
        }
    }

    /// The space kept under progress rows for the marker's caption.
    static let progressCaptionHeight = 16.0

    /// How a progress chart's rows share `width`: the labels' column, the notes' column beside the
    /// tracks, and whether the notes go under the tracks instead. The figures on the right are the
    /// point of the chart: they get the room they need, as long as the track keeps a third of the
    /// width; when they need more (German amounts with their currency code, a percentage and a
    /// date), each goes under its track, over the rest of the width, rather than being cut short.
    static func progressColumns(_ chart: Chart, painter: Painter, width: Double) -> (labelW: Double, noteW: Double, stacked: Bool) {
        let labelW = min(width * 0.26, (chart.data.categories.map { painter.measure($0, .labelBold).width }.max() ?? 0) + 14)
        let noteNeed = ((chart.data.pointLabels ?? []).map { painter.measure($0, .label).width }.max() ?? 0) + 14
        let roomBeside = width - labelW - width / 3
        return noteNeed > roomBeside ? (labelW, roomBeside, true) : (labelW, noteNeed, false)
    }

    static func drawProgress(_ chart: Chart, painter: Painter, in body: Rect) {
        let ctx = painter.ctx
        let data = chart.data
        let n = data.categories.count
        let values = (data.series.first?.values ?? []).map { $0 ?? 0 }
        let targets = data.targets ?? Array(repeating: 0, count: n)
        let notes = data.pointLabels ?? []
        let columns = progressColumns(chart, painter: painter, width: body.width)
        let labelW = columns.labelW
        let rowH = min(56, max(0, body.height - progressCaptionHeight) / Double(max(1, n)))
        let barH = max(5, min(16, rowH * 0.4))
        let noteH = painter.measure("Ag", .label).height
        // Under the track only when the row has the height for it (a box smaller than the chart's
        // natural height keeps the notes beside, cut short).
        let stacked = columns.stacked && rowH >= barH + noteH + 6
        let noteW = stacked ? 0 : columns.noteW
        let trackX = body.x + labelW, trackW = max(20, body.width - labelW - noteW)
        let top = body.y + max(0, (body.height - rowH * Double(n) - progressCaptionHeight) / 2)
        let hasMarkers = data.markers?.contains { $0 != nil } ?? false

        for i in 0..<n {
            // The track's centre: raised by half the note's line when the note goes under it.
            let cy = top + rowH * (Double(i) + 0.5) - (stacked ? (noteH + 3) / 2 : 0)
            let v = max(0, values[i]), t = max(0, targets[safe: i] ?? 0)
            let span = Double(max(t, v, 1))
            let color = data.pointColors?[safe: i] ?? data.series.first?.color ?? Palette.positive
            painter.text(data.categories[i], .labelBold, anchor: Point(x: body.x, y: cy), hAlign: 0, vAlign: 0.5, color: .ink,
                         maxWidth: labelW - 12)
            let track = Rect(x: trackX, y: cy - barH / 2, width: trackW, height: barH)
            ctx.fillRoundedRectangle(track, radius: barH / 2, Palette.track)
            let targetX = trackX + trackW * Double(t) / span
            if v > 0 {
                let fillW = max(barH, trackW * Double(v) / span)
                ctx.fillRoundedRectangle(Rect(x: trackX, y: track.y, width: fillW, height: barH), radius: barH / 2, color)
            }
            if v > t && t > 0 {
                // Where the budget ends, inside an over-spent bar: a white notch, unlike the dark pace marker.
                ctx.strokeLine(from: Point(x: targetX, y: track.y), to: Point(x: targetX, y: track.maxY),
                               color: .white, width: 2)
            }
            if let m = data.markers?[safe: i] ?? nil, t > 0 {
                // In Double: a limit near Int64.max rounds up to 2^63 as a Double, which Int64(_:) traps on.
                let mx = trackX + trackW * min(span, Double(max(0, m))) / span
                ctx.strokeLine(from: Point(x: mx, y: track.y - 4), to: Point(x: mx, y: track.maxY + 4), color: .ink, width: 1.25)
                ctx.setColor(.ink)
                ctx.move(to: Point(x: mx - 3.5, y: track.y - 8)); ctx.line(to: Point(x: mx + 3.5, y: track.y - 8))
                ctx.line(to: Point(x: mx, y: track.y - 4)); ctx.closePath(); ctx.fill()
            }
            if let note = notes[safe: i] {
                if stacked {
                    painter.text(note, .label, anchor: Point(x: trackX, y: track.maxY + 3), hAlign: 0, vAlign: 0,
                                 color: Palette.mutedText.darkened(0.35), maxWidth: body.maxX - trackX)
                } else {
                    painter.text(note, .label, anchor: Point(x: body.maxX, y: cy), hAlign: 1, vAlign: 0.5,
                                 color: Palette.mutedText.darkened(0.35), maxWidth: noteW - 10)
                }
            }
        }
        if hasMarkers, let caption = data.markerCaption {
            // The marker's meaning, written once under the rows, after the marker's head drawn as a
            // path (a "▼" character would pull a fallback font into every statement).
            let box = painter.text(caption, .small, anchor: Point(x: trackX + 10, y: min(body.maxY, top + rowH * Double(n) + 4)),
                                   hAlign: 0, vAlign: 0, color: Palette.mutedText)
            let mid = box.y + box.height / 2
            ctx.setColor(Palette.mutedText)
            ctx.move(to: Point(x: trackX, y: mid - 2.5)); ctx.line(to: Point(x: trackX + 7, y: mid - 2.5))
            ctx.line(to: Point(x: trackX + 3.5, y: mid + 2)); ctx.closePath(); ctx.fill()
        }
    }
}
