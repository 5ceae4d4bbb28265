import EZAnalytics
import EZCore

/// Realistic statement figures built by hand (independent of the analytics code): ten categories
/// with accents, CJK, emoji and Hebrew names, twelve months, budgets in every status, two groups
/// and three savings goals.
package enum ChartsFixtures {
    package static let eur = Currency.eur
    package static let categoryNames = ["Alimentari 🛒", "Affitto", "Trasporti", "Caffè ☕", "Ristoranti", "外食 (Tokyo)",
                                "Salute", "Svago 🎬", "ספרים", "Regali", "Abbonamenti", "Varie"]

    package static func statement(locale: String = "it_IT", style: User.ChartStyle = .doughnut, empty: Bool = false) -> StatementFigures {
        let asOf = CivilDate(year: 2026, month: 3, day: 20)
        let period = Period(kind: .month, start: CivilDate(year: 2026, month: 3, day: 1), end: CivilDate(year: 2026, month: 3, day: 31))
        // Deterministic pseudo-random amounts (a linear congruential sequence, no clock).
        var seed: UInt64 = 42
        func next(_ range: Int64) -> Int64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int64((seed >> 33) % UInt64(range))
        }
        let base: [Int64] = [42000, 95000, 12000, 3800, 16000, 9000, 5500, 7000, 1800, 900, 2400, 600]
        var points: [TrendPoint] = []
        var history: [Int64] = []
        for k in 0..<12 {
            let start = period.start.adding(months: k - 11)
            var byCat: [String: Int64] = [:]
            if !empty {
                for (i, name) in categoryNames.enumerated() { byCat[name] = base[i] + next(base[i] / 2 + 1) }
            }
            let expenses = byCat.values.reduce(0, +)
            let income: Int64 = empty ? 0 : 240000 + (k == 11 ? 80000 : 0) + next(20000)
            history.append(expenses)
            let ma: Int64? = k >= 2 ? (history[k] + history[k - 1] + history[k - 2]) / 3 : nil
            points.append(TrendPoint(start: start, end: start.endOfMonth, income: income, expenses: expenses, net: income - expenses,
                                     transactionCount: 40, expensesByCategory: byCat, movingAverageExpenses: ma,
                                     vsPrevious: nil, vsYearAgo: nil, projectedExpenses: nil))
        }
        let last = points[11]
        let total = last.expenses
        var rows: [CategoryShare] = categoryNames.compactMap { name in
            guard let a = last.expensesByCategory[name], a > 0 else { return nil }
            return CategoryShare(name: name, count: 3, amount: a, percent: Percent.of(a, total)!, color: "#000000")
        }.sorted { ($0.amount, $1.name) > ($1.amount, $0.name) }
        // Make shares sum to exactly 100.0 as the analytics do (largest remainder onto the first).
        let sum = rows.reduce(0) { $0 + $1.percent.tenths }
        if !rows.isEmpty { rows[0].percent.tenths += 1000 - sum }
        var folded = rows.filter { $0.percent.tenths >= 20 }
        let small = rows.filter { $0.percent.tenths < 20 }
        if !small.isEmpty {
            folded.append(CategoryShare(name: "Other (\(small.count) categories)", count: small.reduce(0) { $0 + $1.count },
                                        amount: small.reduce(0) { $0 + $1.amount },
                                        percent: Percent(tenths: small.reduce(0) { $0 + $1.percent.tenths }), color: "#999999"))
        }
        func budget(_ id: Int64, _ name: String?, _ effective: Int64, _ spent: Int64) -> BudgetLine {
            let p = Percent.of(spent, effective)
            let status: BudgetStatus = (p?.tenths ?? 1001) > 1000 ? .over : (p!.tenths >= 800 ? .warning : .ok)
            return BudgetLine(budgetId: id, categoryName: name, windowStart: period.start, windowEnd: period.end, base: effective,
                              transfersIn: 0, transfersOut: 0, effective: effective, spent: spent, remaining: effective - spent,
                              percent: p, expectedPercent: Percent(tenths: 645), projected: spent * 31 / 20, status: status)
        }
        let budgets = empty ? [] : [
            budget(1, nil, 250000, total), budget(2, "Alimentari 🛒", 50000, 41000), budget(3, "Ristoranti", 15000, 19850),
            budget(4, "Caffè ☕", 6000, 2500), budget(5, "外食 (Tokyo)", 10000, 8600), budget(6, "Svago 🎬", 8000, 3100),
        ]
        let savings = empty ? [] : [
            SavingsLine(goalId: 1, name: "Vacanza in Giappone 🗾", currency: eur, target: 300000, saved: 124550,
                        percent: Percent(tenths: 415), dueOn: CivilDate(year: 2026, month: 12, day: 1), monthsLeft: 9, monthlyNeeded: 19494),
            SavingsLine(goalId: 2, name: "Fondo emergenze", currency: eur, target: 500000, saved: 500000,
                        percent: Percent(tenths: 1000), dueOn: nil, monthsLeft: nil, monthlyNeeded: nil),
            SavingsLine(goalId: 3, name: "Bici nuova", currency: eur, target: 120000, saved: 18000,
                        percent: Percent(tenths: 150), dueOn: CivilDate(year: 2026, month: 6, day: 30), monthsLeft: 3, monthlyNeeded: 34000),
        ]
        func member(_ id: Int64, _ name: String, _ outstanding: Int64) -> MemberBalance {
            MemberBalance(userId: id, username: name, paid: 0, share: 0, net: outstanding, outstanding: outstanding)
        }
        let groups = empty ? [] : [
            GroupFigures(groupId: 1, name: "Casa Bologna", currency: eur,
                         members: [member(1, "giulia", 18250), member(2, "marco", -12050), member(3, "sofía", -6200)],
                         settlement: SettlementPlan(method: .exact, transfers: [])),
            GroupFigures(groupId: 2, name: "Viaggio 東京", currency: eur,
                         members: [member(1, "giulia", -4500), member(4, "ゆうき", 9000), member(5, "noa", -4500)],
                         settlement: SettlementPlan(method: .exact, transfers: [])),
        ]
        var running: [Int64] = [350000, 120000, 2000]
        let balances: [BalanceSeries] = empty ? [] : ["Conto corrente", "Risparmi", "Contanti 💶"].enumerated().map { i, name in
            let values = points.map { p -> Int64 in running[i] += (i == 0 ? p.net : i == 1 ? 15000 : next(4000) - 2000); return running[i] }
            return BalanceSeries(balanceId: Int64(i + 1), name: name, kind: .bank, currency: eur, values: values)
        }
        let user = ReportUser(id: 1, username: "giulia", bookName: "Casa", locale: locale, timeZone: "Europe/Rome", chartStyle: style)
        return StatementFigures(
            user: user, period: period, asOf: asOf, currency: eur,
            kpis: KPIs(income: last.income, expenses: total, net: last.net, savingsRate: Percent.of(last.net, last.income),
                       previousExpenses: points[10].expenses,
                       expensesChange: Change(absolute: total - points[10].expenses, percent: nil), transactionCount: 40, limit: nil),
            trend: Trend(bucket: .month, points: points, categoryNames: empty ? [] : categoryNames),
            balances: balances, categories: CategoryShares(total: total, rows: rows, folded: folded),
            budgets: budgets, savings: savings, groups: groups, family: nil, transactions: [], quarantined: [])
    }

    package static func usage() -> UsageFigures {
        let start = CivilDate(year: 2025, month: 4, day: 1)
        let months = (0..<12).map { k -> UsageMonth in
            let m = start.adding(months: k)
            let total = 800 + k * 60
            return UsageMonth(month: m, usersTotal: .shown(total), usersNew: .shown(70 + k), usersDeleted: k % 4 == 0 ? .suppressed : .shown(10),
                              usersActive: .shown(total * 7 / 10), mau: .shown(total * 6 / 10), transactions: .shown(total * 35),
                              volume: .shown(Int64(total) * 52_000), budgetsOverShare: .shown(Percent(tenths: 230)),
                              spendP50: .shown(61000), spendP90: .shown(180000))
        }
        let top = ["Groceries", "Rent", "Transport", "Restaurants", "Health", "Fun"].enumerated().map { i, n in
            CategoryVolume(name: n, volume: .shown(Int64(9 - i) * 1_250_000), users: .shown(500 - i * 40))
        }
        let cohorts = (0..<12).map { k -> CohortRow in
            CohortRow(month: start.adding(months: k), size: .shown(60 + k),
                      retention: (0..<(12 - k)).map { j in j == 3 && k == 2 ? .suppressed : .shown(Percent(tenths: Int64(1000 - j * 55 - k * 7))) })
        }
        return UsageFigures(period: Period(kind: .month, start: start.adding(months: 11), end: start.adding(months: 11).endOfMonth),
                            asOf: start.adding(months: 12), currency: .eur, months: months, topCategories: top,
                            groupSizes: [], familySizes: [], cohorts: cohorts)
    }
}
