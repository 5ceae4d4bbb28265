import EZCore
import EZLocale

/// A chart's data in words: the text alternative of its `Figure` in a tagged PDF, read by screen
/// readers instead of the picture ("Expenses by category, Oct 2026 · 2.485,35 €: Housing 57,1 %, …").
///
/// ```swift
/// let alt = ChartDescription.text(chart, tr: Translator(locale: "it_IT"))
/// ```
package enum ChartDescription {
    /// The title and subtitle, then each point with its label (a pie's share, a budget's
    /// "spent / budget"), or each series with its value at each category.
    package static func text(_ chart: Chart, tr: Translator) -> String {
        let heading = [chart.title, chart.subtitle ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
        guard !chart.isEmpty else { return tr("{title}: {data}", ["title": heading, "data": chart.emptyMessage]) }
        let categories = chart.data.categories.map { $0.replacingOccurrences(of: "\n", with: " ") }
        let data: String
        if let labels = chart.data.pointLabels {
            data = zip(categories, labels).map { "\($0) \($1)" }.joined(separator: ", ")
        } else {
            data = chart.data.series.map { series in
                let points = zip(categories, series.values).compactMap { c, v in v.map { "\(c) \(value($0, in: chart))" } }
                return chart.data.series.count == 1 ? points.joined(separator: ", ")
                    : series.name + ": " + points.joined(separator: ", ")
            }.joined(separator: "; ")
        }
        return tr("{title}: {data}", ["title": heading, "data": data])
    }

    static func value(_ v: Int64, in chart: Chart) -> String {
        switch chart.valueFormat {
        case .money(let c): return chart.format.money(v, c)
        case .count: return chart.format.integer(v)
        case .percent: return chart.format.percent(Percent(tenths: v))
        }
    }
}
