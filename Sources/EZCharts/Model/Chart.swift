import EZCore
import EZLocale

/// A chart described before it is drawn: data, a mark, how values are written, and a legend.
///
/// Like a Vega-Lite spec, a `Chart` holds no pixels; ``ChartRenderer`` draws the same chart into a
/// PNG or, as vectors, into a PDF page.
///
/// ```swift
/// let chart = Chart(title: "Expenses", mark: .line,
///                   data: ChartData(categories: ["Jan", "Feb"],
///                                   series: [Series(name: "Expenses", values: [1200, 980], color: Palette.color(0))]),
///                   valueFormat: .money(.eur))
/// let png = try ChartRenderer.png(chart)
/// ```
package struct Chart: Sendable {
    /// The heading drawn at the top.
    package var title: String
    /// A smaller line under the title (period, currency), optional.
    package var subtitle: String?
    /// How the data is drawn.
    package var mark: Mark
    /// The values.
    package var data: ChartData
    /// How values are written on the value axis and in labels.
    package var valueFormat: ValueFormat
    /// The value scale's options.
    package var scale: ValueScale
    /// Whether and where the legend is drawn.
    package var legend: LegendPlacement
    /// What the chart says when it has nothing to show.
    package var emptyMessage: String
    /// The locale used for all text of the chart.
    package var format: LocaleFormat

    /// A chart; see the properties for the meaning of each part.
    package init(title: String, subtitle: String? = nil, mark: Mark, data: ChartData, valueFormat: ValueFormat,
                scale: ValueScale = ValueScale(), legend: LegendPlacement = .automatic,
                emptyMessage: String = "No data for this period", format: LocaleFormat = LocaleFormat(locale: "en_US")) {
        self.title = title; self.subtitle = subtitle; self.mark = mark; self.data = data
        self.valueFormat = valueFormat; self.scale = scale; self.legend = legend
        self.emptyMessage = emptyMessage; self.format = format
    }

    /// Whether the chart has anything to draw (some non-zero value).
    package var isEmpty: Bool {
        if data.categories.isEmpty { return true }
        if case .progress = mark { return data.targets == nil && data.series.allSatisfy { $0.values.allSatisfy { ($0 ?? 0) == 0 } } }
        if case .heatmap = mark { return data.series.allSatisfy { $0.values.allSatisfy { $0 == nil } } }
        return data.series.allSatisfy { $0.values.allSatisfy { ($0 ?? 0) == 0 } }
    }
}

/// How a chart draws its data.
package enum Mark: Sendable, Hashable {
    /// Slices of a circle, one per category (values of the first series). `innerRadius` is a
    /// fraction of the radius: 0 for a pie, about 0.58 for a doughnut.
    case arc(innerRadius: Double)
    /// One line per series across the categories (the x axis).
    case line
    /// Vertical bars per category: series side by side (`stacked: false`) or stacked.
    case bar(stacked: Bool)
    /// Horizontal bars, one row per category, from zero to the first series' value; negative
    /// values grow to the left (diverging bars).
    case horizontalBar
    /// One row per category: the first series' value against ``ChartData/targets`` (a track), with
    /// an optional ``ChartData/markers`` tick (a pace) and ``ChartData/pointColors`` (a status).
    case progress
    /// A grid: series are rows, categories columns, values are tenths of a percent, coloured by value.
    case heatmap
}

/// How values print: money in a currency, plain counts, or percentages (tenths).
package enum ValueFormat: Sendable, Hashable {
    /// Minor units of the currency.
    case money(Currency)
    /// Whole numbers.
    case count
    /// Tenths of a percent.
    case percent
}

/// Options of the value scale (domain → pixels).
package struct ValueScale: Sendable, Hashable {
    /// Include zero in the domain.
    package var zero: Bool
    /// Extend the domain to nice tick values.
    package var nice: Bool
    /// Roughly how many ticks the axis should have.
    package var tickCount: Int
    /// Options with sensible defaults (zero, nice, ~5 ticks).
    package init(zero: Bool = true, nice: Bool = true, tickCount: Int = 5) {
        self.zero = zero; self.nice = nice; self.tickCount = tickCount
    }
}

/// Where the legend goes.
package enum LegendPlacement: Sendable, Hashable {
    /// Right of a pie, under other charts, none for single-series charts.
    case automatic
    /// Never drawn.
    case hidden
}
