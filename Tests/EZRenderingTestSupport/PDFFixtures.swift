import EZAnalytics
import EZCore

/// Hand-built statement and usage figures for the PDF tests: a busy month for a parent with
/// budgets over and near their limits, two groups, savings goals and 160+ transactions whose
/// names mix accents, CJK, emoji and right-to-left text.
///
/// The figures are consistent with each other (KPIs are the sums of the rows, category shares
/// add up to the expenses and to 100.0 %), as the analytics engine would produce them.
package enum PDFFixtures {
    /// The statement's month.
    package static let period = Period.month(containing: CivilDate(year: 2025, month: 10, day: 1))
    /// Mid-month, so paces and projections mean something.
    package static let asOf = CivilDate(year: 2025, month: 10, day: 31)

    /// Category names and colours (accents, CJK, RTL and emoji on purpose).
    package static let categories: [(name: String, color: String)] = [
        ("Alimentari", "#4E79A7"), ("Café & Restaurants ☕", "#F28E2B"), ("Transport 🚌", "#E15759"),
        ("日本食", "#76B7B2"), ("מכולת", "#59A14F"), ("Casa", "#EDC948"), ("Santé", "#B07AA1"),
        ("Svago", "#FF9DA7"), ("Abbigliamento", "#9C755F"), ("Others", "#BAB0AC"),
    ]

    package static let descriptions = [
        "Esselunga — spesa settimanale", "Café de Flore, Paris", "ATM abbonamento mensile",
        "寿司ランチ 🍣", "שוק הכרמל", "Bolletta luce e gas", "Pharmacie Saint-Germain",
        "Cinema Anteo — \"Dune\"", "Zara", "Varie", "Kaffee & Kuchen 🎂 with a rather long description that must be cut",
        "Crème brûlée à l'Élysée", "Taxi 🚕 Milano Centrale", "北京烤鸭", "Ristorante Da Mario",
    ]

    /// A statement with everything in it, in `locale` and `currency`.
    package static func statement(locale: String = "it_IT", currency: Currency = .eur, transactionCount: Int = 164,
                          limitStatus: BudgetStatus = .over) -> StatementFigures {
        var rng = PDFFixtureRandom(seed: 20251031)
        let user = ReportUser(id: 7, username: "zoë.łukasiewicz", bookName: "Casa Rossi — Bilancio 🏠",
                              locale: locale, timeZone: "Europe/Rome", chartStyle: .doughnut)

        // MARK: Transactions: two salaries, then expenses across the categories.
        var rows: [StatementRow] = []
        let days = period.dayCount
        for i in 0..<transactionCount {
            let day = period.start.adding(days: (i * days) / transactionCount)
            let id = Int64(1000 + i)
            if i == 0 || i == transactionCount / 2 {
                let amount: Int64 = i == 0 ? 385_000 : 64_050
                rows.append(StatementRow(id: id, date: day, time: .date(day), kind: .income, category: "Stipendio",
                                         balance: "Conto corrente", method: "bonifico",
                                         description: i == 0 ? "Stipendio ottobre" : "Freelance — トヨタ project",
                                         amount: amount, currency: currency, counted: amount, group: "", paidBy: ""))
                continue
            }
            if i % 37 == 5 {
                rows.append(StatementRow(id: id, date: day, time: .date(day), kind: .transfer, category: "Others",
                                         balance: "Conto corrente", method: "transfer", description: "→ Risparmi",
                                         amount: 20_000, currency: currency, counted: 0, group: "", paidBy: ""))
                continue
            }
            let c = categories[Int(rng.next() % UInt64(categories.count))]
            let amount = Int64(350 + rng.next() % 5_000)
            let shared = i % 11 == 3
            let share = shared ? amount / 4 : amount
            rows.append(StatementRow(id: id, date: day, time: .date(day), kind: .expense, category: c.name,
                                     balance: shared ? "" : (i % 3 == 0 ? "Carta Visa" : "Contanti"),
                                     method: shared ? "" : (i % 3 == 0 ? "card" : "cash"),
                                     description: descriptions[i % descriptions.count], amount: amount,
                                     currency: currency, counted: share, group: shared ? "Viaggio a Kyōto 🗾" : "",
                                     paidBy: shared ? "hiro.tanaka" : ""))
        }
        let income = rows.filter { $0.kind == .income }.reduce(0) { $0 + $1.counted }
        let expenses = rows.filter { $0.kind == .expense }.reduce(0) { $0 + $1.counted }

        // MARK: Categories: amounts from the rows; percents by largest remainder so they sum to 100.0.
        var byCategory: [String: (count: Int, amount: Int64)] = [:]
        for r in rows where r.kind == .expense {
            byCategory[r.category, default: (0, 0)].count += 1
            byCategory[r.category, default: (0, 0)].amount += r.counted
        }
        let colors = Dictionary(uniqueKeysWithValues: categories.map { ($0.name, $0.color) })
        let ordered = byCategory.sorted { $0.value.amount != $1.value.amount ? $0.value.amount > $1.value.amount : $0.key < $1.key }
        let tenths = largestRemainder(ordered.map(\.value.amount), total: 1000)
        let shares = ordered.enumerated().map { i, e in
            CategoryShare(name: e.key, count: e.value.count, amount: e.value.amount,
                          percent: Percent(tenths: tenths[i]), color: colors[e.key] ?? "#888888")
        }
        let categoryShares = CategoryShares(total: expenses, rows: shares, folded: shares)

        // MARK: Trend: 11 earlier months, then this one.
        var points: [TrendPoint] = []
        var previous: Int64 = 0
        for k in (0..<12).reversed() {
            let start = period.start.adding(months: -k)
            let isLast = k == 0
            let inc = isLast ? income : 300_000 + Int64(rng.next() % 60_000)
            let exp = isLast ? expenses : 180_000 + Int64(rng.next() % 120_000)
            var perCategory: [String: Int64] = [:]
            if isLast {
                for s in shares { perCategory[s.name] = s.amount }
            } else {
                var left = exp
                for (n, c) in categories.enumerated() {
                    let part = n == categories.count - 1 ? left : exp / Int64(categories.count + n % 3)
                    perCategory[c.name] = part
                    left -= part
                }
            }
            let ma: Int64? = points.count >= 2 ? (points[points.count - 2].expenses + points[points.count - 1].expenses + exp) / 3 : nil
            points.append(TrendPoint(start: start, end: start.endOfMonth, income: inc, expenses: exp, net: inc - exp,
                                     transactionCount: isLast ? rows.count : 120 + Int(rng.next() % 60),
                                     expensesByCategory: perCategory, movingAverageExpenses: ma,
                                     vsPrevious: previous == 0 ? nil : Change(absolute: exp - previous, percent: Percent.of(exp - previous, previous)),
                                     vsYearAgo: nil, projectedExpenses: nil))
            previous = exp
        }
        let previousExpenses = points[10].expenses
        let kpis = KPIs(income: income, expenses: expenses, net: income - expenses,
                        savingsRate: Percent.of(income - expenses, income), previousExpenses: previousExpenses,
                        expensesChange: Change(absolute: expenses - previousExpenses,
                                               percent: Percent.of(expenses - previousExpenses, previousExpenses)),
                        transactionCount: rows.count,
                        limit: limit(status: limitStatus, expenses: expenses))
        let trend = Trend(bucket: .month, points: points, categoryNames: categories.map(\.name))

        let balances = [
            BalanceSeries(balanceId: 1, name: "Conto corrente", kind: .bank, currency: currency,
                          values: (0..<12).map { 420_000 + Int64($0) * 13_500 }),
            BalanceSeries(balanceId: 2, name: "Risparmi 💶", kind: .savings, currency: currency,
                          values: (0..<12).map { 1_000_000 + Int64($0) * 20_000 }),
        ]

        // MARK: Budgets: overall, one over, one in warning, one fine, one zero budget.
        func budget(_ id: Int64, _ name: String?, _ base: Int64, spent: Int64, tIn: Int64 = 0, tOut: Int64 = 0) -> BudgetLine {
            let effective = base + tIn - tOut
            let pct = Percent.of(spent, effective)
            let status: BudgetStatus = effective == 0 ? (spent > 0 ? .over : .ok)
                : (spent > effective ? .over : (spent * 10 >= effective * 8 ? .warning : .ok))
            return BudgetLine(budgetId: id, categoryName: name, windowStart: period.start, windowEnd: period.end,
                              base: base, transfersIn: tIn, transfersOut: tOut, effective: effective, spent: spent,
                              remaining: effective - spent, percent: pct, expectedPercent: Percent(tenths: 1000),
                              projected: spent, status: status)
        }
        func spentIn(_ name: String) -> Int64 { byCategory[name]?.amount ?? 0 }
        let budgets = [
            budget(1, nil, 250_000, spent: expenses),
            budget(2, "Alimentari", spentIn("Alimentari") * 9 / 10, spent: spentIn("Alimentari")),
            budget(3, "Café & Restaurants ☕", spentIn("Café & Restaurants ☕") * 10 / 9 - 5_000,
                   spent: spentIn("Café & Restaurants ☕"), tIn: 5_000),
            budget(4, "日本食", 80_000, spent: spentIn("日本食"), tOut: 10_000),
            budget(5, "Svago", 0, spent: spentIn("Svago")),
        ]

        let savings = [
            SavingsLine(goalId: 1, name: "Vacanze in Giappone 🇯🇵", currency: currency, target: 450_000, saved: 312_000,
                        percent: Percent.of(312_000, 450_000), dueOn: CivilDate(year: 2026, month: 6, day: 30),
                        monthsLeft: 8, monthlyNeeded: (450_000 - 312_000) / 8),
            SavingsLine(goalId: 2, name: "Fondo emergenze", currency: currency, target: 1_000_000, saved: 1_040_000,
                        percent: Percent.of(1_040_000, 1_000_000), dueOn: nil, monthsLeft: nil, monthlyNeeded: nil),
        ]

        // MARK: Groups: one with a four-way settlement, one in yen.
        let kyoto = GroupFigures(
            groupId: 11, name: "Viaggio a Kyōto 🗾", currency: currency,
            members: [
                MemberBalance(userId: 7, username: user.username, paid: 48_000, share: 31_500, net: 16_500, outstanding: 16_500),
                MemberBalance(userId: 8, username: "hiro.tanaka", paid: 60_000, share: 31_500, net: 28_500, outstanding: 28_500),
                MemberBalance(userId: 9, username: "Noa Ben-David נועה", paid: 18_000, share: 31_500, net: -13_500, outstanding: -13_500),
                MemberBalance(userId: 10, username: "Émilie Côté", paid: 0, share: 31_500, net: -31_500, outstanding: -31_500),
            ],
            settlement: SettlementPlan(method: .exact, transfers: [
                Settlement(fromUserId: 10, fromUsername: "Émilie Côté", toUserId: 8, toUsername: "hiro.tanaka", amount: 28_500),
                Settlement(fromUserId: 10, fromUsername: "Émilie Côté", toUserId: 7, toUsername: user.username, amount: 3_000),
                Settlement(fromUserId: 9, fromUsername: "Noa Ben-David נועה", toUserId: 7, toUsername: user.username, amount: 13_500),
            ]))
        let yen = try! Currency("JPY")
        let flat = GroupFigures(
            groupId: 12, name: "シェアハウス", currency: yen,
            members: [
                MemberBalance(userId: 7, username: user.username, paid: 12_000, share: 12_000, net: 0, outstanding: 0),
                MemberBalance(userId: 8, username: "hiro.tanaka", paid: 12_000, share: 12_000, net: 0, outstanding: 0),
            ],
            settlement: SettlementPlan(method: .greedy, transfers: []))

        // MARK: Family: two children, one over budget.
        let childBudget = BudgetLine(budgetId: 30, categoryName: "Svago", windowStart: period.start, windowEnd: period.end,
                                     base: 3_000, transfersIn: 0, transfersOut: 0, effective: 3_000, spent: 4_250,
                                     remaining: -1_250, percent: Percent.of(4_250, 3_000),
                                     expectedPercent: Percent(tenths: 1000), projected: 4_250, status: .over)
        let family = FamilyFigures(familyName: "Famiglia Rossi", children: [
            ChildFigures(userId: 20, username: "luca.rossi", income: 5_000, expenses: 6_150,
                         categories: [CategoryShare(name: "Svago", count: 4, amount: 4_250, percent: Percent(tenths: 691), color: "#FF9DA7"),
                                      CategoryShare(name: "Alimentari", count: 3, amount: 1_900, percent: Percent(tenths: 309), color: "#4E79A7")],
                         budgets: [childBudget], overBudgets: [childBudget], budgetCurrency: currency),
            ChildFigures(userId: 21, username: "sofía.rossi", income: 5_000, expenses: 2_300,
                         categories: [CategoryShare(name: "Libri 📚", count: 2, amount: 2_300, percent: Percent(tenths: 1000), color: "#76B7B2")],
                         budgets: [], overBudgets: [], budgetCurrency: currency),
        ])

        return StatementFigures(user: user, period: period, asOf: asOf, currency: currency, kpis: kpis, trend: trend,
                                balances: balances, categories: categoryShares, budgets: budgets, savings: savings,
                                groups: [kyoto, flat], family: family, transactions: rows,
                                quarantined: [QuarantinedRow(table: "transactions", id: 99, reason: "unknown kind 'refund'")])
    }

    /// A new user's quiet month: no rows, no budgets, no groups, no family, no goals.
    package static func emptyStatement(locale: String = "en_US") -> StatementFigures {
        let user = ReportUser(id: 3, username: "newcomer", bookName: "EZWallet", locale: locale,
                              timeZone: "America/New_York", chartStyle: .pie)
        let currency = try! Currency("USD")
        let points = (0..<12).reversed().map { k -> TrendPoint in
            let start = period.start.adding(months: -k)
            return TrendPoint(start: start, end: start.endOfMonth, income: 0, expenses: 0, net: 0, transactionCount: 0,
                              expensesByCategory: [:], movingAverageExpenses: nil, vsPrevious: nil, vsYearAgo: nil,
                              projectedExpenses: nil)
        }
        let kpis = KPIs(income: 0, expenses: 0, net: 0, savingsRate: nil, previousExpenses: 0,
                        expensesChange: Change(absolute: 0, percent: nil), transactionCount: 0, limit: nil)
        return StatementFigures(user: user, period: period, asOf: asOf, currency: currency, kpis: kpis,
                                trend: Trend(bucket: .month, points: points, categoryNames: []), balances: [],
                                categories: CategoryShares(total: 0, rows: [], folded: []), budgets: [], savings: [],
                                groups: [], family: nil, transactions: [], quarantined: [])
    }

    /// The provenance line every test render carries.
    package static func provenance(for period: Period = period) -> ReportProvenance {
        ReportProvenance(ledgerSHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                         ledgerPath: "/data/ezwallet.sqlite", period: period, asOf: asOf, engineVersion: "1.0.0",
                         quarantined: [QuarantinedRow(table: "transactions", id: 99, reason: "unknown kind 'refund'")])
    }

    // MARK: - Usage

    /// A year of usage with small cells suppressed.
    package static func usage() -> UsageFigures {
        var rng = PDFFixtureRandom(seed: 42)
        var months: [UsageMonth] = []
        var total = 180
        for k in (0..<12).reversed() {
            let month = period.start.adding(months: -k)
            let new = 8 + Int(rng.next() % 30)
            let deleted = Int(rng.next() % 7)
            total += new - deleted
            let active = total * 6 / 10 + Int(rng.next() % 20)
            let tx = active * 40 + Int(rng.next() % 500)
            months.append(UsageMonth(
                month: month, usersTotal: .shown(total), usersNew: .shown(new),
                usersDeleted: deleted < UsageFigures.minimumUsers ? .suppressed : .shown(deleted),
                usersActive: .shown(active), mau: .shown(active - 10), transactions: .shown(tx),
                volume: .shown(Int64(tx) * 2_350), budgetsOverShare: .shown(Percent(tenths: Int64(150 + rng.next() % 200))),
                spendP50: .shown(Int64(90_000 + rng.next() % 30_000)), spendP90: .shown(Int64(240_000 + rng.next() % 90_000))))
        }
        let names = ["Groceries", "Restaurants", "Transport", "Housing", "Health", "Entertainment", "Clothing",
                     "Travel ✈️", "Education", "Gifts"]
        let top = names.enumerated().map { i, n in
            CategoryVolume(name: n, volume: .shown(Int64(9_000_000 - i * 750_000)), users: i == 9 ? .suppressed : .shown(150 - i * 12))
        }
        let groupSizes = [SizeCount(size: 2, count: .shown(41)), SizeCount(size: 3, count: .shown(23)),
                          SizeCount(size: 4, count: .shown(12)), SizeCount(size: 5, count: .suppressed)]
        let familySizes = [SizeCount(size: 2, count: .shown(9)), SizeCount(size: 3, count: .shown(14)),
                           SizeCount(size: 4, count: .shown(6)), SizeCount(size: 6, count: .suppressed)]
        let cohorts = (0..<12).map { k -> CohortRow in
            let month = period.start.adding(months: -(11 - k))
            let size = 6 + (k * 7) % 25
            var retention: [Guarded<Percent>] = []
            for m in 0..<(12 - k) {
                let tenths: Int = 1000 - min(m, 6) * 90 - m * 15
                retention.append(size < 10 && m > 0 ? .suppressed : .shown(Percent(tenths: Int64(tenths))))
            }
            return CohortRow(month: month, size: .shown(size), retention: retention)
        }
        var usage = UsageFigures(period: period, asOf: asOf, currency: .eur, months: months, topCategories: top,
                                 groupSizes: groupSizes, familySizes: familySizes, cohorts: cohorts)
        usage.activeInPeriod = months[11].usersActive
        return usage
    }

    // MARK: - Helpers

    /// Apportions `total` by weight with the largest-remainder method (ties to the earlier weight).
    package static func largestRemainder(_ weights: [Int64], total: Int64) -> [Int64] {
        let sum = weights.reduce(0, +)
        guard sum > 0 else { return weights.map { _ in 0 } }
        var parts = weights.map { $0 * total / sum }
        let remainders = weights.enumerated().map { ($0.offset, ($0.element * total) % sum) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        var left = total - parts.reduce(0, +)
        for (i, _) in remainders where left > 0 { parts[i] += 1; left -= 1 }
        return parts
    }

    package static func limit(status: BudgetStatus, expenses: Int64) -> LimitStatus {
        let limit: Int64
        switch status {
        case .over: limit = expenses * 9 / 10
        case .warning: limit = expenses * 10 / 9
        case .ok: limit = expenses * 2
        }
        let pct = Percent.of(expenses, limit)
        return LimitStatus(limit: limit, spent: expenses, percent: pct, status: status)
    }
}

/// A tiny deterministic generator (Knuth's MMIX LCG) so fixtures are the same on every run.
package struct PDFFixtureRandom {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }
}
