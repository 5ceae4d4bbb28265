import EZAnalytics
import EZCore
import EZLocale

/// The charts of the admin usage report. Suppressed figures (fewer than 5 users) are gaps.
package enum UsageCharts {
    /// `users.png`, `activity.png`, `volume.png`, `top-categories.png` and `retention.png`, with
    /// their words in `locale`'s language.
    package static func charts(for figures: UsageFigures, locale: String = "en_US") -> [NamedChart] {
        let tr = Translator(locale: locale)
        let f = tr.format
        let empty = tr("No data for this period")
        let months = figures.months
        let labels = months.enumerated().map { i, m in
            i == 0 || m.month.month == 1 ? f.monthLabel(m.month) + "\n" + String(m.month.year) : f.monthLabel(m.month)
        }
        func ints(_ k: KeyPath<UsageMonth, Guarded<Int>>) -> [Int64?] { months.map { $0[keyPath: k].value.map(Int64.init) } }
        let users = Chart(
            title: tr("Users per month"), subtitle: tr("Totals at each month's end; cells under {count} users are withheld",
                                                        ["count": String(UsageFigures.minimumUsers)]),
            mark: .line,
            data: ChartData(categories: labels, series: [
                Series(name: tr("Total"), values: ints(\.usersTotal), color: Palette.color(0)),
                Series(name: tr("Active"), values: ints(\.usersActive), color: Palette.color(2)),
                Series(name: tr("New"), values: ints(\.usersNew), color: Palette.color(1)),
                Series(name: tr("Deleted"), values: ints(\.usersDeleted), color: Palette.color(3)),
            ]),
            valueFormat: .count, emptyMessage: empty, format: f)
        let activity = Chart(
            title: tr("Transactions per month"), mark: .bar(stacked: false),
            data: ChartData(categories: labels, series: [Series(name: tr("Transactions"), values: ints(\.transactions), color: Palette.color(0))]),
            valueFormat: .count, emptyMessage: empty, format: f)
        let volume = Chart(
            title: tr("Expense volume per month"), subtitle: figures.currency.code, mark: .bar(stacked: false),
            data: ChartData(categories: labels, series: [Series(name: tr("Volume"), values: months.map { $0.volume.value }, color: Palette.color(1))]),
            valueFormat: .money(figures.currency), emptyMessage: empty, format: f)
        let top = figures.topCategories
        let categories = Chart(
            title: tr("Top categories by expense volume"), subtitle: figures.currency.code, mark: .horizontalBar,
            data: ChartData(categories: top.map(\.name),
                            series: [Series(name: tr("Volume"), values: top.map { $0.volume.value }, color: Palette.color(0))]),
            valueFormat: .money(figures.currency), emptyMessage: empty, format: f)
        let width = figures.cohorts.map(\.retention.count).max() ?? 0
        let retention = Chart(
            title: tr("Cohort retention"), subtitle: tr("Share of each sign-up month active k months later"),
            mark: .heatmap,
            data: ChartData(categories: (0..<width).map { "+\($0)" },
                            series: figures.cohorts.map { c in
                                Series(name: f.monthYearLabel(c.month), values: c.retention.map { $0.value?.tenths }, color: Palette.positive)
                            }),
            valueFormat: .percent, legend: .hidden, emptyMessage: empty, format: f)
        return [
            NamedChart(fileName: "users.png", chart: users),
            NamedChart(fileName: "activity.png", chart: activity),
            NamedChart(fileName: "volume.png", chart: volume),
            NamedChart(fileName: "top-categories.png", chart: categories),
            NamedChart(fileName: "retention.png", chart: retention),
        ]
    }
}
