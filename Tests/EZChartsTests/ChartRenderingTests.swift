import EZAnalytics
import EZCairo
import EZCore
import EZLocale
import Foundation
import EZRenderingTestSupport
import XCTest
@testable import EZCharts

/// Every chart kind renders a PNG of the expected size that is not blank, deterministically.
final class ChartsRenderingTests: XCTestCase {
    /// Where the PNGs are written for a person to look at.
    static let outputDirectory = URL(fileURLWithPath: "/tmp/ezcharts")

    override class func setUp() {
        try? FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
    }

    private func renderAndCheck(_ named: NamedChart, prefix: String, file: StaticString = #filePath, line: UInt = #line) throws -> [UInt8] {
        let png = try ChartRenderer.png(named.chart)
        try Data(png).write(to: Self.outputDirectory.appendingPathComponent(prefix + named.fileName))
        let info = try PNGInfo(png)
        XCTAssertEqual(info.width, 1600, named.fileName, file: file, line: line)
        XCTAssertEqual(info.height, 1000, named.fileName, file: file, line: line)
        XCTAssertEqual(info.chunkTypes, ["IHDR", "IDAT", "IEND"], "no time or text chunks", file: file, line: line)
        XCTAssertGreaterThan(info.distinctColors, 50, "\(named.fileName) looks blank", file: file, line: line)
        XCTAssertLessThan(info.dominantShare, 0.97, "\(named.fileName) is almost all background", file: file, line: line)
        return png
    }

    func testEveryStatementChartRendersAt1600By1000AndIsNotBlank() throws {
        let charts = StatementCharts.charts(for: ChartsFixtures.statement())
        XCTAssertEqual(charts.map(\.fileName), ["categories.png", "trend.png", "category-trend.png", "budgets.png",
                                                "balances.png", "groups.png", "savings.png"])
        for named in charts { _ = try renderAndCheck(named, prefix: "it-") }
    }

    /// A week's or a range's statement has weekly or daily trend buckets: its charts used to say
    /// "Last 12 months", "per month" and "3-month average" over weeks or days, a range over three
    /// years "12 periods" and "per period", and the balances' subtitle "at the end of each month"
    /// whatever the bucket (outside review).
    func testTrendCaptionsNameTheKindOfBucket() throws {
        for (bucket, span, average, title) in [(BucketKind.week, "Last 12 weeks · EUR", "Expenses, 3-week average", "Expenses by category per week"),
                                               (.day, "Last 12 days · EUR", "Expenses, 3-day average", "Expenses by category per day"),
                                               (.month, "Last 12 months · EUR", "Expenses, 3-month average", "Expenses by category per month"),
                                               (.quarter, "Last 12 quarters · EUR", "Expenses, 3-quarter average", "Expenses by category per quarter"),
                                               (.year, "Last 12 years · EUR", "Expenses, 3-year average", "Expenses by category per year")] {
            var figures = ChartsFixtures.statement(locale: "en_US")
            figures.trend.bucket = bucket
            let charts = Dictionary(uniqueKeysWithValues: StatementCharts.charts(for: figures).map { ($0.fileName, $0.chart) })
            XCTAssertEqual(figures.trend.points.count, 12)
            XCTAssertEqual(charts["trend.png"]?.subtitle, span)
            XCTAssertTrue(charts["trend.png"]?.data.series.contains { $0.name == average } ?? false, "\(bucket)")
            XCTAssertEqual(charts["category-trend.png"]?.title, title)
            XCTAssertEqual(charts["category-trend.png"]?.subtitle, span)
            XCTAssertEqual(charts["balances.png"]?.subtitle, "Balance at the end of each \(bucket.rawValue) · EUR")
        }
    }

    /// A statement asked before its period ends (a year's, in the fixture's March) draws no point
    /// for the buckets still ahead: their zeros would show income, spending and balances falling
    /// to nothing. Every bucket that has begun keeps its value.
    func testBucketsAfterTheAsOfDateAreLeftBlankInTheLineCharts() throws {
        var figures = ChartsFixtures.statement(locale: "en_US")
        figures.asOf = figures.trend.points[8].start.adding(days: 3)
        let charts = Dictionary(uniqueKeysWithValues: StatementCharts.charts(for: figures).map { ($0.fileName, $0.chart) })
        let trend = try XCTUnwrap(charts["trend.png"])
        let income = try XCTUnwrap(trend.data.series.first { $0.name == "Income" })
        XCTAssertEqual(income.values.count, 12, "the axis keeps every bucket")
        XCTAssertEqual(Array(income.values.prefix(9)), figures.trend.points.prefix(9).map { Optional($0.income) })
        XCTAssertEqual(Array(income.values.suffix(3)), [nil, nil, nil])
        for series in trend.data.series { XCTAssertEqual(series.values.suffix(3).compactMap { $0 }, [], series.name) }
        let balances = try XCTUnwrap(charts["balances.png"])
        for series in balances.data.series {
            XCTAssertEqual(series.values.suffix(3).compactMap { $0 }, [], series.name)
            XCTAssertEqual(series.values.prefix(9).compactMap { $0 }.count, 9, series.name)
        }
        _ = try renderAndCheck(NamedChart(fileName: "trend.png", chart: trend), prefix: "asof-")
    }

    /// A year's statement has a window per month for each budget: the bars name their month
    /// ("Groceries · Mar"), where twelve bars all read "Groceries". A lone window keeps its name.
    func testBudgetBarsNameTheirWindowWhenACategoryHasSeveral() throws {
        var figures = ChartsFixtures.statement(locale: "en_US")
        let lone = figures.budgets[1]
        var windows: [BudgetLine] = []
        for m in 1...3 {
            var line = figures.budgets[2]
            line.windowStart = CivilDate(year: 2026, month: m, day: 1)
            line.windowEnd = line.windowStart.endOfMonth
            windows.append(line)
        }
        var week = figures.budgets[2]
        week.windowStart = CivilDate(year: 2026, month: 3, day: 23)
        week.windowEnd = CivilDate(year: 2026, month: 3, day: 29)
        figures.budgets = [lone] + windows + [week]
        let chart = try XCTUnwrap(StatementCharts.charts(for: figures).first { $0.fileName == "budgets.png" }?.chart)
        XCTAssertEqual(chart.data.categories, ["Alimentari 🛒", "Ristoranti · Jan", "Ristoranti · Feb", "Ristoranti · Mar",
                                               "Ristoranti · Mar 23, 2026"])
    }

    /// Savings figures too long for the room beside the bars (Swiss German amounts with their
    /// currency, a percentage and a due date, in a PDF's column) go under the bars, whole, and
    /// the chart's natural height grows for them; short ones stay beside the bars as before.
    func testLongProgressNotesGoUnderTheirTrackAndTheChartGrowsForThem() throws {
        let surface = try CairoSurface(pdfInMemoryWidth: 595.276, height: 841.89)
        let ctx = try CairoContext(surface: surface)
        func chart(_ notes: [String]) -> Chart {
            Chart(title: "Sparziele", subtitle: nil, mark: .progress,
                  data: ChartData(categories: ["House deposit", "Emergency fund"],
                                  series: [Series(name: "Gespart", values: [153_600, 1_542_828], color: Palette.positive)],
                                  pointLabels: notes, targets: [153_600, 1_910_400]),
                  valueFormat: .money(try! Currency("CHF")), emptyMessage: "", format: LocaleFormat(locale: "de_CH"))
        }
        let long = chart(["CHF 1’536.00 / CHF 1’536.00 · 100.0 % · Nov 2027", "CHF 15’428.28 / CHF 19’104.00 · 80.8 % · Nov 2027"])
        let short = chart(["CHF 1’536 · 100 %", "CHF 15’428 · 81 %"])
        let width = 515.0, inner = width - 28
        let painter = Painter(ctx: ctx, format: long.format)
        let columns = ChartRenderer.progressColumns(long, painter: painter, width: inner)
        XCTAssertTrue(columns.stacked)
        for note in long.data.pointLabels! {
            XCTAssertLessThanOrEqual(painter.measure(note, .label).width, inner - columns.labelW, "\(note) fits under its track")
        }
        XCTAssertFalse(ChartRenderer.progressColumns(short, painter: painter, width: inner).stacked)
        let tall = try XCTUnwrap(ChartRenderer.naturalHeight(long, in: ctx, width: width))
        let low = try XCTUnwrap(ChartRenderer.naturalHeight(short, in: ctx, width: width))
        XCTAssertGreaterThan(tall, low + 2 * painter.measure("Ag", .label).height)
        try ChartRenderer.draw(long, in: ctx, rect: Rect(x: 40, y: 60, width: width, height: tall), format: long.format)
    }

    /// Money near the 64-bit limit (each figure valid, its sum checked) used to trap drawing the
    /// axis: the nice tick above 8 × 10^18 is 10^19, and two stacked segments of 6 × 10^18 add up
    /// past the limit. A crash there stopped the whole monthly run.
    func testChartsOfMoneyNearTheIntegerLimitDrawInsteadOfTrapping() throws {
        let usd = try Currency("USD")
        func chart(_ mark: Mark, _ series: [Series]) -> Chart {
            Chart(title: "Limit", subtitle: nil, mark: mark,
                  data: ChartData(categories: ["Sep", "Oct", "Nov"], series: series),
                  valueFormat: .money(usd), emptyMessage: "", format: LocaleFormat(locale: "en_US"))
        }
        let big: Int64 = 6_000_000_000_000_000_000
        let charts = [
            ("line", chart(.line, [Series(name: "Expenses", values: [0, 8_000_000_000_000_000_000, -Int64.max], color: Palette.negative)])),
            ("stacked", chart(.bar(stacked: true), [Series(name: "A", values: [big, big, 1], color: Palette.negative),
                                                    Series(name: "B", values: [big, big, 1], color: Palette.positive)])),
            ("rows", chart(.horizontalBar, [Series(name: "Top", values: [Int64.max, big, 1], color: Palette.negative)])),
        ]
        for (name, c) in charts {
            let png = try ChartRenderer.png(c)
            try Data(png).write(to: Self.outputDirectory.appendingPathComponent("limit-" + name + ".png"))
            let info = try PNGInfo(png)
            XCTAssertEqual([info.width, info.height], [1600, 1000], name)
            XCTAssertLessThan(info.dominantShare, 0.99, "\(name) has its axis and marks")
        }
    }

    func testPieStyleAndOtherLocalesRender() throws {
        for (locale, style) in [("en_US", User.ChartStyle.pie), ("ja_JP", .doughnut), ("fr_FR", .pie)] {
            for named in StatementCharts.charts(for: ChartsFixtures.statement(locale: locale, style: style)) {
                _ = try renderAndCheck(named, prefix: locale + "-")
            }
        }
    }

    func testEmptyFiguresRenderNoDataMessageAndSkipGroupsAndSavings() throws {
        let charts = StatementCharts.charts(for: ChartsFixtures.statement(empty: true))
        XCTAssertEqual(charts.map(\.fileName), ["categories.png", "trend.png", "category-trend.png", "budgets.png", "balances.png"])
        for named in charts {
            XCTAssertTrue(named.chart.isEmpty, named.fileName)
            let png = try ChartRenderer.png(named.chart)
            try Data(png).write(to: Self.outputDirectory.appendingPathComponent("empty-" + named.fileName))
            let info = try PNGInfo(png)
            XCTAssertEqual(info.width, 1600)
            XCTAssertGreaterThan(info.distinctColors, 10, "the empty chart still shows its title and message")
        }
    }

    func testUsageChartsRender() throws {
        for named in UsageCharts.charts(for: ChartsFixtures.usage()) { _ = try renderAndCheck(named, prefix: "usage-") }
    }

    func testSameFiguresGiveIdenticalPNGBytes() throws {
        let a = StatementCharts.charts(for: ChartsFixtures.statement())
        let b = StatementCharts.charts(for: ChartsFixtures.statement())
        for (x, y) in zip(a, b) {
            XCTAssertEqual(try ChartRenderer.png(x.chart), try ChartRenderer.png(y.chart), x.fileName)
        }
    }

    func testChartDrawsAsVectorsIntoAPDFPage() throws {
        let surface = try CairoSurface(pdfInMemoryWidth: 595.276, height: 841.89)
        try surface.setMetadata(PDFMetadata(title: "t", createDate: "2026-03-31T00:00:00Z"))
        let ctx = try CairoContext(surface: surface)
        let charts = StatementCharts.charts(for: ChartsFixtures.statement())
        try ChartRenderer.draw(charts[0].chart, in: ctx, rect: Rect(x: 40, y: 60, width: 515, height: 320), format: LocaleFormat(locale: "it_IT"))
        try ChartRenderer.draw(charts[1].chart, in: ctx, rect: Rect(x: 40, y: 420, width: 515, height: 320), format: LocaleFormat(locale: "it_IT"))
        try ctx.showPage()
        try surface.finish()
        let pdf = try surface.pdfData()
        try Data(pdf).write(to: Self.outputDirectory.appendingPathComponent("charts.pdf"))
        XCTAssertGreaterThan(pdf.count, 5000)
        XCTAssertEqual(String(decoding: pdf.prefix(5), as: UTF8.self), "%PDF-")
    }
}

/// Percentages drawn outside a pie stay inside the chart: German's "10,0 %" is wider than
/// English's "10.0%", and in a pie that filled its area's width they were cut at the edge.
final class PieLabelRoomTests: XCTestCase {
    func testOutsideLabelsOfANarrowPieFitItsAreaInEveryLocale() throws {
        let surface = try CairoSurface(imageWidth: 400, height: 400)
        let ctx = try CairoContext(surface: surface)
        let values: [Int64] = [4_800, 1_130, 1_000, 700, 660, 580, 530, 310, 220, 70]
        let total = values.reduce(0, +)
        for locale in ["en_US", "de_DE", "fr_FR", "ja_JP"] {
            let format = LocaleFormat(locale: locale)
            let painter = Painter(ctx: ctx, format: format)
            let percents = values.map { format.percent(Percent.of($0, total) ?? Percent(tenths: 0)) }
            // A pie area as wide as it is tall: the pie would fill its width.
            let area = Rect(x: 0, y: 0, width: 300, height: 300), halfWidth = 148.0
            let radius = ChartRenderer.pieRadius(values: values, total: total, percents: percents, innerRadius: 0,
                                                 area: area, painter: painter)
            XCTAssertLessThan(radius, 120, "\(locale): small slices put labels outside, so the pie must make room")
            var starts: [Double] = [], angle = -Double.pi / 2
            for v in values { starts.append(angle); angle += 2 * .pi * Double(v) / Double(total) }
            let outside = values.indices.filter { i in
                !ChartRenderer.fitsInside(start: starts[i], sweep: 2 * .pi * Double(values[i]) / Double(total),
                                          text: painter.measure(percents[i], .labelBold), radius: radius, inner: 0)
            }
            XCTAssertFalse(outside.isEmpty, locale)
            for i in outside {
                let reach = radius + ChartRenderer.outsideLabelReach + painter.measure(percents[i], .label).width
                XCTAssertLessThanOrEqual(reach, halfWidth, "\(locale): '\(percents[i])' would be cut at the chart's edge")
            }
        }
    }
}

/// A percentage drawn inside a slice stays inside it: its whole box, not only its width along
/// the arc, clears the rim, the doughnut's hole and the slice's edges.
final class InsideLabelFitTests: XCTestCase {
    /// In a doughnut's narrow ring a slice centred at 3 o'clock has arc enough for "12,5 %", but
    /// the text runs across the ring there and sat over the white hole.
    func testAWideLabelAcrossANarrowRingGoesOutside() {
        let text = Size(width: 34, height: 12)
        // A quarter of the ring centred on 3 o'clock: 40 pt deep, arc at mid-radius ~ 157 pt.
        let start = -Double.pi / 4, sweep = Double.pi / 2
        XCTAssertFalse(ChartRenderer.fitsInside(start: start, sweep: sweep, text: text, radius: 120, inner: 80),
                       "34 pt across a 40 pt ring leaves 3 pt each side: too tight, it would touch the hole")
        // The same slice centred on 12 o'clock: the text runs along the ring, 12 pt of 40 deep.
        XCTAssertTrue(ChartRenderer.fitsInside(start: -3 * Double.pi / 4, sweep: sweep, text: text, radius: 120, inner: 80))
        // A deeper ring holds it at 3 o'clock too.
        XCTAssertTrue(ChartRenderer.fitsInside(start: start, sweep: sweep, text: text, radius: 120, inner: 60))
    }

    /// Every corner of an inside label lies within its slice, for every slice of a range of pies
    /// and doughnuts: checked here point by point, independently of the rule's own arithmetic.
    func testEveryInsideLabelsCornersLieWithinItsSlice() {
        let text = Size(width: 30, height: 12)
        for (radius, inner) in [(100.0, 0.0), (100.0, 55.0), (80.0, 40.0), (140.0, 98.0)] {
            for slices in 2...14 {
                let sweep = 2 * Double.pi / Double(slices)
                for k in 0..<slices {
                    let start = -Double.pi / 2 + Double(k) * sweep + 0.3
                    guard ChartRenderer.fitsInside(start: start, sweep: sweep, text: text, radius: radius, inner: inner) else { continue }
                    let r = ChartRenderer.insideLabelRadius(radius: radius, inner: inner), mid = start + sweep / 2
                    let (cx, cy) = (cos(mid) * r, sin(mid) * r)
                    for dx in stride(from: -15.0, through: 15.0, by: 1) {
                        for dy in [-6.0, 6.0] {
                            let (x, y) = (cx + dx, cy + dy)
                            let distance = (x * x + y * y).squareRoot()
                            XCTAssertLessThanOrEqual(distance, radius, "\(radius)/\(inner), \(slices) slices: past the rim")
                            XCTAssertGreaterThanOrEqual(distance, inner, "\(radius)/\(inner), \(slices) slices: over the hole")
                            var a = atan2(y, x) - start
                            while a < 0 { a += 2 * .pi }
                            while a >= 2 * .pi { a -= 2 * .pi }
                            XCTAssertLessThanOrEqual(a, sweep, "\(radius)/\(inner), \(slices) slices: past the slice's edge")
                        }
                    }
                }
            }
        }
    }
}

/// A doughnut's total is shown whole: smaller rather than cut.
final class DoughnutTotalTests: XCTestCase {
    /// In a statement PDF's doughnut a German total of 2.060,01 € did not fit even as "2,1 Tsd. €"
    /// and was drawn "2,1 Ts…". It now takes the labels' bold size, where the whole amount fits.
    func testATotalTooWideForTheCentreStyleIsSetSmallerNotCut() throws {
        let painter = Painter(ctx: try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842)),
                              format: LocaleFormat(locale: "de_DE"))
        let labels = ValueLabels(format: painter.format, valueFormat: .money(.eur))
        let inner = 40.0
        XCTAssertGreaterThan(painter.measure(labels.short(206_001), .center).width, inner * 1.8, "the case: too wide in the centre style")
        let (text, style) = ChartRenderer.doughnutTotal(206_001, labels: labels, inner: inner, painter: painter)
        XCTAssertEqual(style, .labelBold)
        XCTAssertEqual(text, labels.full(206_001))
        XCTAssertLessThanOrEqual(painter.measure(text, style).width, inner * 1.8)
    }

    func testATotalThatFitsKeepsTheCentreStyleAndTheFullAmount() throws {
        let painter = Painter(ctx: try CairoContext(surface: try CairoSurface(pdfInMemoryWidth: 595, height: 842)),
                              format: LocaleFormat(locale: "de_DE"))
        let labels = ValueLabels(format: painter.format, valueFormat: .money(.eur))
        let (text, style) = ChartRenderer.doughnutTotal(206_001, labels: labels, inner: 200, painter: painter)
        XCTAssertEqual(style, .center)
        XCTAssertEqual(text, labels.full(206_001))
    }
}

/// A chart's text is laid out left to right, as the report's languages are.
final class ChartTextDirectionTests: XCTestCase {
    /// For an ar_SA or he_IL reader, a subtitle starting with the month's Arabic or Hebrew name
    /// (an isolate) was laid out right to left, and its amount read "€ 641.29" beside the tiles'
    /// "641.29 €" (outside standards test). Text holding right-to-left letters keeps its own order
    /// inside a left-to-right line.
    func testASubtitleStartingWithARightToLeftMonthIsALeftToRightLine() throws {
        let ctx = try CairoContext(surface: try CairoSurface(imageWidth: 400, height: 100))
        let painter = Painter(ctx: ctx, format: LocaleFormat(locale: "en_GB"))
        for text in ["\u{2068}أكتوبر 2026\u{2069} · 641.29 €", "\u{2068}אוקטובר 2026\u{2069} · 1,037.26 ₪", "מזון", "Food · 12.00 €"] {
            let layout = painter.layout(.subtitle, text)
            XCTAssertFalse(layout.firstLineIsRightToLeft, "\(text.debugDescription) is laid out left to right")
        }
        // Without the report's direction, Pango takes the line's first strong letter: this is what
        // the subtitles did.
        let plain = TextLayout(context: ctx, font: Painter.font(.subtitle))
        plain.text = "\u{2068}أكتوبر 2026\u{2069} · 641.29 €"
        XCTAssertTrue(plain.firstLineIsRightToLeft, "Pango alone lays the subtitle out right to left")
    }
}

/// Names in a legend stay on their own row.
final class LegendNameTests: XCTestCase {
    /// A category named with line breaks ("Groceries⏎and⏎household") ran over the legend rows
    /// below it, in the PDF and in `categories.png` (outside standards test). It is drawn on one
    /// line: exactly as the same name with spaces.
    func testANameWithLineBreaksIsDrawnAsTheSameNameOnOneLine() throws {
        func categoriesPNG(_ name: String) throws -> [UInt8] {
            var figures = ChartsFixtures.statement(locale: "en_GB", style: .pie)
            figures.categories.rows[0].name = name
            figures.categories.folded[0].name = name
            let chart = try XCTUnwrap(StatementCharts.charts(for: figures).first { $0.fileName == "categories.png" })
            return try ChartRenderer.png(chart.chart)
        }
        XCTAssertEqual(try categoriesPNG("Groceries\nand\r\nhousehold"), try categoriesPNG("Groceries and  household"))
        XCTAssertNotEqual(try categoriesPNG("Groceries and household"), try categoriesPNG("Rent"), "the name is drawn at all")
        XCTAssertEqual(LegendEntry(name: "Net\nsaved", color: .ink, swatch: .line).name, "Net saved")
    }
}
