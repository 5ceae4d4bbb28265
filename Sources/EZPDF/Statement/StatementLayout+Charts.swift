import EZAnalytics
import EZCairo
import EZCharts
import EZLocale

extension StatementLayout {
    /// The statement's charts (the same descriptions as the PNGs), drawn as vectors, full width.
    /// Charts with nothing to show are left out; when all are, one line says so.
    func drawCharts(_ c: PDFComposer) throws {
        let charts = StatementCharts.charts(for: figures).map(\.chart).filter { !$0.isEmpty }
        try c.section(tr("Charts"), keepWith: charts.first.map { c.chartHeight(for: $0) } ?? 20)
        guard !charts.isEmpty else { return try c.note(tr("No data to chart for this period.")) }
        try c.drawCharts(charts, format: format)
    }
}

extension PDFComposer {
    /// The space between two charts.
    static let chartGap: Double = 12

    /// The height of a full-width chart: two of them, and the gap between, fill a page exactly.
    var standardChartHeight: Double { ((geometry.contentHeight - PDFComposer.chartGap) / 2).rounded(.down) }

    /// The height `chart` is drawn at: as tall as its rows need for a chart of rows (budgets,
    /// groups, savings goals; at most a page), else the standard height.
    func chartHeight(for chart: Chart) -> Double {
        guard let natural = ChartRenderer.naturalHeight(chart, in: context, width: width) else { return standardChartHeight }
        return min(natural, geometry.contentHeight)
    }

    /// Draws `charts` one under the other so that pages hold two charts (or more short ones), with
    /// no hole at the bottom of a page: the first chart grows into what the cover leaves of its
    /// page, and a chart a little too tall for what is left of a page shrinks to fit it.
    func drawCharts(_ charts: [Chart], format: LocaleFormat) throws {
        for (i, chart) in charts.enumerated() {
            let natural = chartHeight(for: chart)
            let isRows = ChartRenderer.naturalHeight(chart, in: context, width: width) != nil
            var height = natural
            if !isRows && natural <= remaining {
                // What would be left under it, were the next chart not to fit there: give it to this one.
                let next = i + 1 < charts.count ? chartHeight(for: charts[i + 1]) : 0
                let left = remaining - natural - PDFComposer.chartGap
                if i + 1 < charts.count && left < next && left > 0 { height = min(remaining, natural * 1.4) }
            } else if !isRows && natural > remaining && remaining >= natural * 0.75 {
                height = remaining
            }
            try drawChart(chart, format: format, height: height.rounded(.down))
        }
    }

    /// Draws `chart` across the content width in a light frame, on a new page when it does not fit.
    func drawChart(_ chart: Chart, format: LocaleFormat, height: Double) throws {
        try ensureSpace(height)
        let rect = Rect(x: left, y: y, width: width, height: height)
        addFigureDescription(ChartDescription.text(chart, tr: tr))
        try tagged(.figure) { try draw { ctx in
            ctx.setColor(PDFTheme.rule)
            ctx.setLineWidth(0.6)
            ctx.roundedRectangle(rect.inset(by: 0.3), radius: 6)
            ctx.stroke()
            try ChartRenderer.draw(chart, in: ctx, rect: rect.inset(by: 2), format: format)
        } }
        y += height + PDFComposer.chartGap
    }
}
