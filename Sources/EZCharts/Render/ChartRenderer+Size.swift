import EZCairo
// MARK: - The height a chart needs

extension ChartRenderer {
    /// The distance between two rows of a progress chart laid out at its natural height.
    static let progressRowPitch = 34.0
    /// The distance between two rows of a diverging-bar chart laid out at its natural height.
    static let barRowPitch = 28.0

    /// The height a chart of rows (progress or horizontal bars) needs at `width`: its title, its
    /// rows at a comfortable pitch and its captions; nil for charts that fill whatever box they get.
    ///
    /// A page of charts uses it so that one savings goal is a short card, not a tall empty one.
    package static func naturalHeight(_ chart: Chart, in ctx: CairoContext, width: Double) -> Double? {
        let n = chart.data.categories.count
        guard !chart.isEmpty, n > 0 else { return nil }
        let painter = Painter(ctx: ctx, format: chart.format)
        let rows: Double
        let inner = width - 2 * 14
        switch chart.mark {
        case .progress:
            // A row whose figures go under its track is taller by their line.
            let stacked = progressColumns(chart, painter: painter, width: inner).stacked
            let pitch = progressRowPitch + (stacked ? painter.measure("Ag", .label).height + 6 : 0)
            rows = pitch * Double(n) + progressCaptionHeight
        case .horizontalBar: rows = barRowPitch * Double(n) + painter.measure("0", .small).height + 8
        default: return nil
        }
        var head = 0.0
        if !chart.title.isEmpty { head += painter.wrappedLayout(.title, chart.title, maxWidth: inner).size.height }
        if let s = chart.subtitle, !s.isEmpty { head += painter.wrappedLayout(.subtitle, s, maxWidth: inner).size.height + 2 }
        // The frame's padding (14 above and below), the gap under the heading (10), the rows, and 2 of inset.
        return (14 + head + 10 + rows + 14 + 4).rounded(.up)
    }
}
