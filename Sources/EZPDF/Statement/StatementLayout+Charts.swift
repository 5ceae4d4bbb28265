import EZAnalytics
import EZCharts

extension StatementLayout {
    /// The statement's charts (the same descriptions as the PNGs), drawn as vectors, full width.
    /// Charts with nothing to show are left out; when all are, one line says so.
    func drawCharts(_ c: PDFComposer) throws {
        let charts = StatementCharts.charts(for: figures).filter { !$0.chart.isEmpty }
        try c.section("Charts", keepWith: PDFComposer.chartHeight)
        guard !charts.isEmpty else { return try c.note("No data to chart for this period.") }
        for named in charts { try c.drawChart(named.chart, format: format) }
    }
}

extension PDFComposer {
    /// The height of a full-width chart (the PNGs' 8:5 shape, a little flatter to fit two a page).
    static let chartHeight: Double = 285

    /// Draws `chart` across the content width in a light frame, on a new page when it does not fit.
    func drawChart(_ chart: Chart, format: LocaleFormat, height: Double = PDFComposer.chartHeight) throws {
        try ensureSpace(height)
        let rect = Rect(x: left, y: y, width: width, height: height)
        try draw { ctx in
            ctx.setColor(PDFTheme.rule)
            ctx.setLineWidth(0.6)
            ctx.roundedRectangle(rect.inset(by: 0.3), radius: 6)
            ctx.stroke()
            try ChartRenderer.draw(chart, in: ctx, rect: rect.inset(by: 2), format: format)
        }
        y += height + 12
    }
}
