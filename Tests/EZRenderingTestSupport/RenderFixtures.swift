import EZAnalytics
import EZCore
import Foundation
import XCTest

/// Hand-built figures shared by the XLSX and CSV tests: independent of the analytics engine,
/// with descriptions chosen to break naive writers.
package enum RenderFixtures {
    package static let eur = Currency.eur
    package static let jpy = try! Currency("JPY")
    package static let october = Period.month(containing: CivilDate(year: 2025, month: 10, day: 1))
    package static let asOf = CivilDate(year: 2025, month: 11, day: 1)

    /// Descriptions that must survive every format unchanged (CSV may add its guard quote).
    package static let trickyDescriptions = [
        "Lunch, with \"Bob\"",
        "line one\nline two\r\nline three",
        "Café 🍕☕️ and 寿司",
        "=1+2",
        "=HYPERLINK(\"http://x\",\"y\")",
        "+cmd",
        "@SUM(1)",
        "-minus first",
        "\ttab first",
    ]

    /// Which of ``trickyDescriptions`` a spreadsheet could read as a formula.
    package static func startsLikeAFormula(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first else { return false }
        return ["=", "+", "-", "@", "\t", "\r"].contains(Character(first))
    }

    package static let user = ReportUser(id: 7, username: "ana", bookName: "Ana's book", locale: "it_IT",
                                 timeZone: "Europe/Rome", chartStyle: .pie)

    /// Expense rows (EUR minor units counted) by category; the JPY row counts 950 EUR cents.
    package static let expenseRows: [(category: String, counted: Int64)] = [
        ("Food", 1250), ("Transport", 899), ("Shopping", 4550), ("Transport", 120), ("Shopping", 3333),
        ("Food", 777), ("=Games", 1001), ("=Games", 2468), ("Food", 950),
    ]

    package static func transactions() -> [StatementRow] {
        var rows: [StatementRow] = []
        for (i, e) in expenseRows.enumerated() {
            let isYen = i == expenseRows.count - 1
            let day = CivilDate(year: 2025, month: 10, day: 1 + i)
            rows.append(StatementRow(
                id: Int64(100 + i), date: day, time: .date(day), kind: .expense, category: e.category,
                balance: i == 3 ? "" : "Card, \"main\"", method: "card",
                description: i < trickyDescriptions.count ? trickyDescriptions[i] : "Sushi 寿司",
                amount: isYen ? 1500 : e.counted, currency: isYen ? jpy : eur, counted: e.counted,
                group: i == 3 ? "Trip, \"Rome\"" : "", paidBy: i == 3 ? "bob" : ""))
        }
        let payday = CivilDate(year: 2025, month: 10, day: 27)
        rows.append(StatementRow(id: 200, date: payday, time: .instant(millis: Int64(payday.dayNumber) * 86_400_000 + 32_400_000),
                                 kind: .income, category: "Salary", balance: "Bank", method: "transfer",
                                 description: "Salary October", amount: 250_000, currency: eur, counted: 250_000,
                                 group: "", paidBy: ""))
        rows.append(StatementRow(id: 201, date: payday, time: .date(payday), kind: .transfer, category: "Others",
                                 balance: "Bank", method: "transfer", description: "To savings", amount: 10_000,
                                 currency: eur, counted: 0, group: "", paidBy: ""))
        return rows
    }

    package static var expensesTotal: Int64 { expenseRows.reduce(0) { $0 + $1.counted } }  // 15348

    package static func categories() -> CategoryShares {
        var sums: [String: (Int, Int64)] = [:]
        for e in expenseRows { let s = sums[e.category] ?? (0, 0); sums[e.category] = (s.0 + 1, s.1 + e.counted) }
        let total = expensesTotal
        let ordered = sums.sorted { $0.value.1 != $1.value.1 ? $0.value.1 > $1.value.1 : $0.key < $1.key }
        // Hand-checked: 51.4 + 22.6 + 19.4 + 6.6 = 100.0.
        let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7"]
        let rows = ordered.enumerated().map { i, c in
            CategoryShare(name: c.key, count: c.value.0, amount: c.value.1, percent: Percent.of(c.value.1, total)!, color: palette[i % 4])
        }
        return CategoryShares(total: total, rows: rows, folded: rows)
    }

    package static func trend() -> Trend {
        let months = [8, 9, 10].map { CivilDate(year: 2025, month: $0, day: 1) }
        let points = months.enumerated().map { i, start in
            let expenses: Int64 = i == 2 ? expensesTotal : 9_000 + Int64(i) * 1_000
            let income: Int64 = i == 1 ? 0 : 250_000
            return TrendPoint(start: start, end: start.endOfMonth, income: income, expenses: expenses,
                              net: i == 1 ? -1250 : income - expenses, transactionCount: 5 + i,
                              expensesByCategory: i == 2 ? ["Shopping": 7883, "=Games": 3469, "Food": 2977, "Transport": 1019]
                                                         : ["Food": expenses],
                              movingAverageExpenses: i == 2 ? 11_116 : nil, vsPrevious: nil, vsYearAgo: nil,
                              projectedExpenses: nil)
        }
        return Trend(bucket: .month, points: points, categoryNames: ["Shopping", "=Games", "Food", "Transport"])
    }

    /// Earlier expenses per category (previous month, a year earlier), chosen so that every case
    /// shows: a rise and a fall, an earlier 0 (no percent), and a category with expenses only a
    /// year ago ('Travel', absent from categories.csv).
    package static let earlierByCategory: [String: (previous: Int64, yearAgo: Int64)] = [
        "Shopping": (4_000, 0), "=Games": (0, 1_200), "Food": (6_000, 3_000), "Transport": (0, 0), "Travel": (0, 5_000),
    ]

    /// The comparison that goes with ``figures()``: income 0 last month, expenses 0 a year ago.
    package static func comparison(kpis: KPIs, categories: CategoryShares) -> ComparisonFigures {
        var rows = categories.rows.map { c in
            CategoryComparison(name: c.name, color: c.color, amounts: ComparedAmount(
                current: c.amount, previous: earlierByCategory[c.name]?.previous ?? 0, yearAgo: earlierByCategory[c.name]?.yearAgo ?? 0))
        }
        rows.append(CategoryComparison(name: "Travel", color: "#56B4E9", amounts: ComparedAmount(current: 0, previous: 0, yearAgo: 5_000)))
        let previousExpenses = earlierByCategory.values.reduce(0) { $0 + $1.previous }
        let yearAgoExpenses = earlierByCategory.values.reduce(0) { $0 + $1.yearAgo }
        return ComparisonFigures(
            period: october, previous: october.previous, yearAgo: october.yearEarlier,
            income: ComparedAmount(current: kpis.income, previous: 0, yearAgo: 240_000),
            expenses: ComparedAmount(current: kpis.expenses, previous: previousExpenses, yearAgo: yearAgoExpenses),
            net: ComparedAmount(current: kpis.net, previous: -previousExpenses, yearAgo: 240_000 - yearAgoExpenses),
            categories: rows)
    }

    package static func figures() -> StatementFigures {
        let total = expensesTotal
        let kpis = KPIs(income: 250_000, expenses: total, net: 250_000 - total, savingsRate: Percent.of(250_000 - total, 250_000),
                        previousExpenses: 10_000, expensesChange: Change(absolute: total - 10_000, percent: Percent.of(total - 10_000, 10_000)),
                        transactionCount: 11, limit: LimitStatus(limit: 15_000, spent: total, percent: Percent.of(total, 15_000), status: .over))
        let start = october.start, end = october.end
        let budgets = [
            BudgetLine(budgetId: 1, categoryName: nil, windowStart: start, windowEnd: end, base: 15_000, transfersIn: 0, transfersOut: 0,
                       effective: 15_000, spent: total, remaining: 15_000 - total, percent: Percent.of(total, 15_000),
                       expectedPercent: Percent(tenths: 1000), projected: total, status: .over),
            BudgetLine(budgetId: 2, categoryName: "Food", windowStart: start, windowEnd: end, base: 3_000, transfersIn: 500, transfersOut: 0,
                       effective: 3_500, spent: 2_977, remaining: 523, percent: Percent.of(2_977, 3_500),
                       expectedPercent: Percent(tenths: 1000), projected: 2_977, status: .warning),
            BudgetLine(budgetId: 3, categoryName: "Transport", windowStart: start, windowEnd: end, base: 5_000, transfersIn: 0, transfersOut: 500,
                       effective: 4_500, spent: 1_019, remaining: 3_481, percent: Percent.of(1_019, 4_500),
                       expectedPercent: Percent(tenths: 1000), projected: 1_019, status: .ok),
        ]
        let group = GroupFigures(groupId: 3, name: "Trip, \"Rome\"", currency: eur, members: [
            MemberBalance(userId: 7, username: "ana", paid: 3_000, share: 1_500, net: 1_500, outstanding: 1_500),
            MemberBalance(userId: 8, username: "=bob", paid: 0, share: 1_500, net: -1_500, outstanding: -1_500),
        ], settlement: SettlementPlan(method: .greedy, transfers: [
            Settlement(fromUserId: 8, fromUsername: "=bob", toUserId: 7, toUsername: "ana", amount: 1_500),
        ]))
        let savings = [
            SavingsLine(goalId: 1, name: "Bike", currency: eur, target: 80_000, saved: 20_050, percent: Percent.of(20_050, 80_000),
                        dueOn: CivilDate(year: 2026, month: 4, day: 30), monthsLeft: 6, monthlyNeeded: 9_992),
            SavingsLine(goalId: 2, name: "Trip to Japan", currency: jpy, target: 300_000, saved: 1_500, percent: Percent.of(1_500, 300_000),
                        dueOn: nil, monthsLeft: nil, monthlyNeeded: nil),
        ]
        let balances = [BalanceSeries(balanceId: 1, name: "Bank", kind: .bank, currency: eur, values: [100_000, 98_750, 330_000])]
        return StatementFigures(user: user, period: october, asOf: asOf, currency: eur, kpis: kpis, trend: trend(),
                                balances: balances, categories: categories(),
                                comparison: comparison(kpis: kpis, categories: categories()), budgets: budgets, savings: savings,
                                groups: [group], family: nil, transactions: transactions(),
                                quarantined: [QuarantinedRow(table: "transactions", id: 999, reason: "unknown kind 'refund'")])
    }

    /// ``figures()`` after =bob paid ana back 5.00 on 12 October: the group's balances move and
    /// the payment is listed.
    package static func figuresWithASettleUpPayment() -> StatementFigures {
        var f = figures()
        f.groups[0].members = [
            MemberBalance(userId: 7, username: "ana", paid: 3_000, share: 1_500, net: 1_500, outstanding: 1_000, settled: -500),
            MemberBalance(userId: 8, username: "=bob", paid: 0, share: 1_500, net: -1_500, outstanding: -1_000, settled: 500),
        ]
        f.groups[0].payments = [GroupPaymentLine(paymentId: 41, date: CivilDate(year: 2025, month: 10, day: 12), fromUserId: 8,
                                                 fromUsername: "=bob", toUserId: 7, toUsername: "ana", amount: 500)]
        f.groups[0].settlement = SettlementPlan(method: .exact, transfers: [
            Settlement(fromUserId: 8, fromUsername: "=bob", toUserId: 7, toUsername: "ana", amount: 1_000),
        ])
        return f
    }

    /// Figures with no rows at all.
    package static func emptyFigures() -> StatementFigures {
        let kpis = KPIs(income: 0, expenses: 0, net: 0, savingsRate: nil, previousExpenses: 0,
                        expensesChange: Change(absolute: 0, percent: nil), transactionCount: 0, limit: nil)
        return StatementFigures(user: user, period: october, asOf: asOf, currency: eur, kpis: kpis,
                                trend: Trend(bucket: .month, points: [], categoryNames: []), balances: [],
                                categories: CategoryShares(total: 0, rows: [], folded: []), budgets: [], savings: [],
                                groups: [], family: nil, transactions: [], quarantined: [])
    }

    package static func provenance(quarantined: [QuarantinedRow] = [QuarantinedRow(table: "transactions", id: 999, reason: "unknown kind 'refund'")])
        -> ReportProvenance {
        ReportProvenance(ledgerSHA256: String(repeating: "ab", count: 32), ledgerPath: "/data/ledger.sqlite", period: october,
                         asOf: asOf, engineVersion: "1.0.0-test", quarantined: quarantined)
    }

    package static func usage() -> UsageFigures {
        let months = [8, 9, 10].map { m in
            UsageMonth(month: CivilDate(year: 2025, month: m, day: 1), usersTotal: .shown(100 + m), usersNew: m == 9 ? .suppressed : .shown(12),
                       usersDeleted: .suppressed, usersActive: .shown(80), mau: .shown(75), transactions: .shown(4_000 + m),
                       volume: .shown(1_234_550 + Int64(m)), budgetsOverShare: m == 8 ? .suppressed : .shown(Percent(tenths: 125)),
                       spendP50: .shown(45_000), spendP90: m == 10 ? .suppressed : .shown(150_005))
        }
        return UsageFigures(period: october, asOf: asOf, currency: eur, months: months,
                            topCategories: [CategoryVolume(name: "Food", volume: .shown(500_000), users: .shown(60)),
                                            CategoryVolume(name: "=Rare", volume: .suppressed, users: .suppressed)],
                            groupSizes: [SizeCount(size: 2, count: .shown(10)), SizeCount(size: 5, count: .suppressed)],
                            familySizes: [SizeCount(size: 3, count: .shown(6))],
                            cohorts: [CohortRow(month: CivilDate(year: 2025, month: 9, day: 1), size: .shown(20),
                                                retention: [.shown(Percent(tenths: 1000)), .shown(Percent(tenths: 650))]),
                                      CohortRow(month: CivilDate(year: 2025, month: 10, day: 1), size: .suppressed,
                                                retention: [.suppressed])])
    }
}

// MARK: - Independent readers

/// Runs Python (csv, zipfile, openpyxl) and LibreOffice as independent readers of our files.
package enum ExternalReader {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs `python3 -c script args…` and returns its standard output; throws with stderr on failure.
    package static func python(_ script: String, _ args: [String]) throws -> String {
        try run("/usr/bin/env", ["python3", "-c", script] + args)
    }

    /// Runs a program and returns its standard output.
    @discardableResult
    package static func run(_ executable: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failure(description: "\(args.prefix(2).joined(separator: " ")) exited \(p.terminationStatus): "
                          + String(decoding: errData, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes a JSON value printed by a Python script.
    package static func json<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// Whether an executable is on the PATH.
    package static func which(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// A fresh temporary directory for one test.
    package static func temporaryDirectory(_ name: String = #function) throws -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let dir = NSTemporaryDirectory() + "ezreport-\(safe)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        made.append(dir)
        return dir
    }

    /// Directories made by ``temporaryDirectory(_:)`` (tests run one at a time).
    nonisolated(unsafe) private static var made: [String] = []

    /// Removes every directory made so far; called from the test classes' `tearDown`.
    /// Set `EZREPORT_KEEP_TEST_FILES=1` to keep them for a look.
    package static func removeTemporaryDirectories() {
        if ProcessInfo.processInfo.environment["EZREPORT_KEEP_TEST_FILES"] != nil { made.removeAll(); return }
        for dir in made { try? FileManager.default.removeItem(atPath: dir) }
        made.removeAll()
    }
}
