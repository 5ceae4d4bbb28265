import EZAnalytics
import EZCairo
import EZCore
import EZLocale

/// The charts of a user's statement, built from its figures (no figure is computed here).
///
/// ```swift
/// for named in StatementCharts.charts(for: figures) {
///     try write(ChartRenderer.png(named.chart), to: "charts/" + named.fileName)
/// }
/// ```
package enum StatementCharts {
    /// Categories shown in the stacked bars before the rest is folded into 'Other'.
    static let stackedCategoryLimit = 7

    /// `categories.png`, `trend.png`, `category-trend.png`, `budgets.png`, `balances.png`, then
    /// `groups.png` when the user has groups and `savings.png` when they have goals.
    package static func charts(for figures: StatementFigures) -> [NamedChart] {
        let f = Translator(locale: figures.user.locale)
        var out = [
            NamedChart(fileName: "categories.png", chart: categories(figures, f)),
            NamedChart(fileName: "trend.png", chart: trend(figures, f)),
            NamedChart(fileName: "category-trend.png", chart: categoryTrend(figures, f)),
            NamedChart(fileName: "budgets.png", chart: budgets(figures, f)),
            NamedChart(fileName: "balances.png", chart: balances(figures, f)),
        ]
        if !figures.groups.isEmpty { out.append(NamedChart(fileName: "groups.png", chart: groups(figures, f))) }
        if !figures.savings.isEmpty { out.append(NamedChart(fileName: "savings.png", chart: savings(figures, f))) }
        return out
    }

    // MARK: - Shared

    /// A stable colour per category name: ranked by the period's amounts, then the trend's order,
    /// so a category keeps its colour in the pie and in the stacked bars.
    static func categoryColors(_ figures: StatementFigures) -> [String: Color] {
        var map: [String: Color] = [:]
        var next = 0
        for name in figures.categories.rows.map(\.name) + figures.trend.categoryNames where map[name] == nil {
            map[name] = Palette.color(next); next += 1
        }
        return map
    }

    /// "mar 2026" for a monthly period ("25 set – 24 ott 2026" for one starting on the 25th),
    /// else "1 mar 2026 – 31 mar 2026".
    static func periodLabel(_ p: Period, _ f: LocaleFormat) -> String {
        p.kind == .month ? f.monthPeriodLabel(p) : f.date(p.start) + " – " + f.date(p.end)
    }

    /// Axis labels for trend buckets: the month, with the year under the first one and each January.
    static func bucketLabels(_ trend: Trend, _ f: LocaleFormat) -> [String] {
        trend.points.enumerated().map { i, p in
            switch trend.bucket {
            case .month:
                // A month is named by its last day's month (25 Sep – 24 Oct is October).
                let m = f.monthLabel(p.end)
                return i == 0 || p.end.month == 1 ? m + "\n" + String(p.end.year) : m
            case .year: return String(p.start.year)
            default: return f.date(p.start)
            }
        }
    }

    // MARK: - Charts

    static func categories(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        let rows = figures.categories.folded
        let colors = categoryColors(figures)
        let total = f.money(figures.categories.total, figures.currency)
        return Chart(
            title: tr("Expenses by category"),
            subtitle: periodLabel(figures.period, f) + " · " + total,
            mark: .arc(innerRadius: figures.user.chartStyle == .doughnut ? 0.58 : 0),
            data: ChartData(categories: rows.map { tr.categoryName($0.name, folded: $0.foldedCategories) },
                            series: [Series(name: tr("Expenses"), values: rows.map { $0.amount }, color: Palette.color(0))],
                            pointColors: rows.map { colors[$0.name] ?? Palette.other },
                            pointLabels: rows.map { f.percent($0.percent) }),
            valueFormat: .money(figures.currency), emptyMessage: tr("No data for this period"), format: f)
    }

    /// The trend charts' words for their buckets: the span ("Last 12 months · EUR"), the moving
    /// average's name and the category chart's title. A week's or a range's statement has weekly
    /// or daily buckets, a range over three years quarters or years, not months.
    static func trendWords(_ figures: StatementFigures, _ tr: Translator) -> (span: String, average: String, perBucket: String) {
        let count = figures.trend.points.count, currency = ["currency": figures.currency.code]
        switch figures.trend.bucket {
        case .month:
            return (tr.plural("Last {count} month · {currency}", "Last {count} months · {currency}", count: count, currency),
                    tr("Expenses, 3-month average"), tr("Expenses by category per month"))
        case .week:
            return (tr.plural("Last {count} week · {currency}", "Last {count} weeks · {currency}", count: count, currency),
                    tr("Expenses, 3-week average"), tr("Expenses by category per week"))
        case .day:
            return (tr.plural("Last {count} day · {currency}", "Last {count} days · {currency}", count: count, currency),
                    tr("Expenses, 3-day average"), tr("Expenses by category per day"))
        case .quarter:
            return (tr.plural("Last {count} quarter · {currency}", "Last {count} quarters · {currency}", count: count, currency),
                    tr("Expenses, 3-quarter average"), tr("Expenses by category per quarter"))
        case .year:
            return (tr.plural("Last {count} year · {currency}", "Last {count} years · {currency}", count: count, currency),
                    tr("Expenses, 3-year average"), tr("Expenses by category per year"))
        }
    }

    /// `value` for a bucket that has begun by the as-of date, nil (no point) for one that lies
    /// ahead of it: a year's statement asked in October has two months to come, whose zeros
    /// would draw income, spending and balances falling to nothing. The CSV keeps every bucket.
    static func known<V>(_ value: V?, in point: TrendPoint, _ figures: StatementFigures) -> V? {
        point.start <= figures.asOf ? value : nil
    }

    static func trend(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        let pts = figures.trend.points
        let words = trendWords(figures, tr)
        func values(_ value: (TrendPoint) -> Int64?) -> [Int64?] { pts.map { known(value($0), in: $0, figures) } }
        return Chart(
            title: tr("Income and expenses"),
            subtitle: words.span,
            mark: .line,
            data: ChartData(categories: bucketLabels(figures.trend, f), series: [
                Series(name: tr("Income"), values: values(\.income), color: Palette.ok),
                Series(name: tr("Expenses"), values: values(\.expenses), color: Palette.negative),
                Series(name: tr("Net"), values: values(\.net), color: Palette.positive),
                Series(name: words.average, values: values(\.movingAverageExpenses),
                       color: Palette.negative.lightened(0.15), dashed: true, secondary: true),
            ]),
            valueFormat: .money(figures.currency), emptyMessage: tr("No data for this period"), format: f)
    }

    static func categoryTrend(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        let pts = figures.trend.points
        var totals: [String: Int64] = [:]
        for p in pts { for (k, v) in p.expensesByCategory { totals[k, default: 0] += v } }
        let ranked = figures.trend.categoryNames.filter { (totals[$0] ?? 0) != 0 }
            .sorted { (totals[$0]!, $1) > (totals[$1]!, $0) }
        let shown = Array(ranked.prefix(ranked.count > stackedCategoryLimit + 1 ? stackedCategoryLimit : ranked.count))
        let rest = Set(ranked.dropFirst(shown.count))
        let colors = categoryColors(figures)
        var series = shown.map { name in
            Series(name: name, values: pts.map { $0.expensesByCategory[name] ?? 0 }, color: colors[name] ?? Palette.other)
        }
        if !rest.isEmpty {
            series.append(Series(name: tr.categoryName("", folded: rest.count), values: pts.map { p in
                p.expensesByCategory.reduce(0) { rest.contains($1.key) ? $0 + $1.value : $0 }
            }, color: Palette.other))
        }
        let words = trendWords(figures, tr)
        return Chart(title: words.perBucket, subtitle: words.span,
                     mark: .bar(stacked: true), data: ChartData(categories: bucketLabels(figures.trend, f), series: series),
                     valueFormat: .money(figures.currency), emptyMessage: tr("No data for this period"), format: f)
    }

    static func budgets(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        let lines = figures.budgets
        let c = figures.currency
        func color(_ s: BudgetStatus) -> Color { s == .ok ? Palette.ok : s == .warning ? Palette.warning : Palette.over }
        return Chart(
            title: tr("Budgets"),
            subtitle: tr("{period} · spent against the effective budget", ["period": periodLabel(figures.period, f)]),
            mark: .progress,
            data: ChartData(
                categories: budgetLabels(lines, tr),
                series: [Series(name: tr("Spent"), values: lines.map { $0.spent }, color: Palette.ok)],
                pointColors: lines.map { color($0.status) },
                pointLabels: lines.map { l in
                    f.money(l.spent, c) + " / " + f.money(l.effective, c) + (l.percent.map { " · " + f.percent($0) } ?? "")
                },
                targets: lines.map { $0.effective },
                markers: lines.map { l in
                    l.expectedPercent.map { Int64(clamping: Int128(l.effective) * Int128($0.tenths) / 1000) }
                },
                markerCaption: tr("expected spend by {date} at an even pace", ["date": f.date(figures.asOf)])),
            valueFormat: .money(c), emptyMessage: tr("No data for this period"), format: f)
    }

    /// The budget bars' labels: the category ("Overall" for the overall budget), followed by its
    /// window when the chart holds several of the same name (a year's statement has twelve
    /// "Groceries"): "Groceries · Mar" for a calendar month, else the window's first day.
    static func budgetLabels(_ lines: [BudgetLine], _ tr: Translator) -> [String] {
        let f = tr.format
        let names = lines.map { $0.categoryName ?? tr("Overall") }
        var seen: [String: Int] = [:]
        for n in names { seen[n, default: 0] += 1 }
        let oneYear = Set(lines.map(\.windowStart.year)).count == 1
        return zip(names, lines).map { name, l in
            guard seen[name, default: 0] > 1 else { return name }
            let start = l.windowStart
            let calendarMonth = start.day == 1 && l.windowEnd == start.endOfMonth
            let window = calendarMonth ? (oneYear ? f.monthLabel(start) : f.monthYearLabel(start)) : f.date(start)
            return name + " · " + window
        }
    }

    static func balances(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        // One axis needs one currency: the report currency's balances; others are named in the subtitle.
        let same = figures.balances.filter { $0.currency == figures.currency }
        let others = figures.balances.filter { $0.currency != figures.currency }
        let currency = ["currency": figures.currency.code]
        // The points are the trend's buckets: a week's statement has daily ones, a year's monthly.
        var subtitle = switch figures.trend.bucket {
        case .day: tr("Balance at the end of each day · {currency}", currency)
        case .week: tr("Balance at the end of each week · {currency}", currency)
        case .month: tr("Balance at the end of each month · {currency}", currency)
        case .quarter: tr("Balance at the end of each quarter · {currency}", currency)
        case .year: tr("Balance at the end of each year · {currency}", currency)
        }
        if !others.isEmpty {
            subtitle = tr("{subtitle} (not shown: {balances})", [
                "subtitle": subtitle, "balances": others.map { "\(InlineText.isolated($0.name)), \($0.currency.code)" }.joined(separator: "; "),
            ])
        }
        return Chart(
            title: tr("Balances over time"), subtitle: subtitle, mark: .line,
            data: ChartData(categories: bucketLabels(figures.trend, f),
                            series: same.enumerated().map { i, b in
                                Series(name: b.name, values: zip(b.values, figures.trend.points).map { known($0, in: $1, figures) },
                                       color: Palette.color(i))
                            }),
            valueFormat: .money(figures.currency), emptyMessage: tr("No data for this period"), format: f)
    }

    static func groups(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        let currency = figures.groups.first { $0.currency == figures.currency }?.currency ?? figures.groups[0].currency
        let groups = figures.groups.filter { $0.currency == currency }
        let many = groups.count > 1
        var names: [String] = [], values: [Int64?] = []
        for g in groups {
            for m in g.members.sorted(by: { ($0.outstanding, $0.username) > ($1.outstanding, $1.username) }) {
                names.append(many ? m.username + " · " + g.name : m.username)
                values.append(m.outstanding)
            }
        }
        return Chart(
            title: many ? tr("Group balances") : tr("Group balances · {group}", ["group": InlineText.isolated(groups[0].name)]),
            subtitle: tr("What each member is owed (right) or owes (left), to date · {currency}", ["currency": currency.code]),
            mark: .horizontalBar,
            data: ChartData(categories: names, series: [Series(name: tr("Outstanding"), values: values, color: Palette.positive)]),
            valueFormat: .money(currency), emptyMessage: tr("No data for this period"), format: f)
    }

    static func savings(_ figures: StatementFigures, _ tr: Translator) -> Chart {
        let f = tr.format
        let goals = figures.savings
        return Chart(
            title: tr("Savings goals"), subtitle: tr("Saved against each goal's target"),
            mark: .progress,
            data: ChartData(
                categories: goals.map(\.name),
                series: [Series(name: tr("Saved"), values: goals.map { $0.saved }, color: Palette.positive)],
                pointColors: goals.map { $0.saved >= $0.target ? Palette.ok : Palette.positive },
                pointLabels: goals.map { g in
                    var s = f.money(g.saved, g.currency) + " / " + f.money(g.target, g.currency)
                    if let p = g.percent { s += " · " + f.percent(p) }
                    if let due = g.dueOn { s += " · " + f.monthYearLabel(due) }
                    return s
                },
                targets: goals.map { $0.target }),
            valueFormat: .money(figures.currency), emptyMessage: tr("No data for this period"), format: f)
    }
}
