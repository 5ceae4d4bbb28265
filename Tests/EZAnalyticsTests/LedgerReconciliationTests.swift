import EZAnalytics
import EZCore
import EZLedger
import EZSample
import Foundation
import GRDB
import XCTest

/// Every statement figure reconciles to the cent with the ledger, recomputed here independently:
/// rows fetched with plain SQL, local dates from Foundation's ISO-8601 parser and Calendar (not
/// the engine's parser and zone tables), conversions with Foundation's Decimal (not the engine's
/// integer rate arithmetic), group shares re-derived from splits or the equal-split rule.
final class LedgerReconciliationTests: XCTestCase {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-reconcile-\(UUID().uuidString)")
    static var path: String { folder.appendingPathComponent("ledger.sqlite").path }

    override class func setUp() {
        super.setUp()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try? SampleGenerator.generate(to: path, options: SampleOptions(users: 40, months: 14, endYear: 2026, endMonth: 10, seed: 11))
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    // MARK: - The independent model

    /// One row or share as the independent model sees it: the viewer's local date, kind, the
    /// amount converted to the viewer's currency, and the viewer's category name.
    private struct Entry { var day: String; var income: Bool; var amount: Int64; var category: String }

    /// An inclusive range of local dates as `YYYY-MM-DD` text (which sorts like the dates).
    private struct Days { var first: String; var last: String; func contains(_ d: String) -> Bool { d >= first && d <= last } }

    private struct Expected {
        var entries: [Entry] = []
        /// The day the user's months start on (`users.month_start_day`, read with plain SQL; 1 when NULL).
        var monthStartDay = 1
        func income(_ r: Days) -> Int64 { entries.filter { $0.income && r.contains($0.day) }.reduce(0) { $0 + $1.amount } }
        func expenses(_ r: Days) -> Int64 { entries.filter { !$0.income && r.contains($0.day) }.reduce(0) { $0 + $1.amount } }
        /// Income, expenses and expenses per category over the local dates `from...through` (ISO text compares as dates).
        func window(_ from: String, _ through: String) -> (income: Int64, expenses: Int64, byCategory: [String: Int64]) {
            var income: Int64 = 0, expenses: Int64 = 0
            var categories: [String: Int64] = [:]
            for e in entries where e.day >= from && e.day <= through {
                if e.income { income += e.amount } else if e.amount > 0 { expenses += e.amount; categories[e.category, default: 0] += e.amount }
            }
            return (income, expenses, categories)
        }
        func byCategory(_ r: Days) -> [String: Int64] {
            var out: [String: Int64] = [:]
            for e in entries where !e.income && r.contains(e.day) && e.amount > 0 { out[e.category, default: 0] += e.amount }
            return out
        }
    }

    /// The month named `year`-`month` for a user whose months start on `day`, worked out with
    /// Foundation's Calendar: from `day` of the month before (the 1st of the month itself when
    /// `day` is 1) to the day before the next such start.
    private func month(_ year: Int, _ month: Int, startDay day: Int) -> Days {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let first = cal.date(from: DateComponents(year: year, month: day == 1 ? month : month - 1, day: day))!
        let next = cal.date(byAdding: .month, value: 1, to: first)!
        let last = cal.date(byAdding: .day, value: -1, to: next)!
        func text(_ d: Date) -> String {
            let c = cal.dateComponents([.year, .month, .day], from: d)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        return Days(first: text(first), last: text(last))
    }

    private func localDate(_ text: String, zone: TimeZone) -> String {
        if text.count == 10 { return text }
        let f = ISO8601DateFormatter()
        f.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        guard let date = f.date(from: text) else { XCTFail("unparseable \(text)"); return "" }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = zone
        let c = cal.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    private func exponent(_ code: String) -> Int { ["JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3][code] ?? 2 }

    private func convert(_ minor: Int64, _ from: String, _ to: String, on day: String, _ db: Database) throws -> Int64 {
        if from == to { return minor }
        var value: Decimal
        if let direct = try Double.fetchOne(db, sql: "SELECT rate FROM exchange_rates WHERE base = ? AND quote = ? AND day <= ? ORDER BY day DESC LIMIT 1", arguments: [from, to, day]) {
            value = Decimal(minor) * Decimal(string: direct.description)!
        } else if let inverse = try Double.fetchOne(db, sql: "SELECT rate FROM exchange_rates WHERE base = ? AND quote = ? AND day <= ? ORDER BY day DESC LIMIT 1", arguments: [to, from, day]) {
            value = Decimal(minor) / Decimal(string: inverse.description)!
        } else {
            XCTFail("no rate \(from)->\(to) on \(day)"); return 0
        }
        let shift = exponent(to) - exponent(from)
        if shift > 0 { for _ in 0..<shift { value *= 10 } } else if shift < 0 { for _ in 0..<(-shift) { value /= 10 } }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .bankers)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    private func expected(user: Int64, _ db: Database) throws -> Expected {
        let u = try Row.fetchOne(db, sql: "SELECT currency, timezone, month_start_day FROM users WHERE id = ?", arguments: [user])!
        let currency: String = u[0]
        let zone = TimeZone(identifier: u[1])!
        let liveNames = Set(try String.fetchAll(db, sql: "SELECT name FROM categories WHERE user_id = ? AND deleted_at IS NULL", arguments: [user]))
        var out = Expected()
        out.monthStartDay = u[2] ?? 1
        for row in try Row.fetchAll(db, sql: """
            SELECT t.kind, t.amount_minor, t.currency, t.occurred_at, CASE WHEN c.deleted_at IS NULL THEN c.name END
            FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
            WHERE t.user_id = ? AND t.deleted_at IS NULL AND t.kind IN ('income', 'expense') AND t.group_id IS NULL
            """, arguments: [user]) {
            let day = localDate(row[3], zone: zone)
            let amount = try convert(row[1], row[2], currency, on: day, db)
            out.entries.append(Entry(day: day, income: (row[0] as String) == "income", amount: amount, category: row[4] ?? "Others"))
        }
        // Shares of group expenses in the user's live groups, whoever paid.
        for row in try Row.fetchAll(db, sql: """
            SELECT t.id, t.amount_minor, t.currency, t.occurred_at, pu.timezone, t.group_id, CASE WHEN c.deleted_at IS NULL THEN c.name END
            FROM transactions t JOIN users pu ON pu.id = t.user_id JOIN groups g ON g.id = t.group_id
            LEFT JOIN categories c ON c.id = t.category_id
            WHERE t.deleted_at IS NULL AND pu.deleted_at IS NULL AND g.deleted_at IS NULL AND t.kind = 'expense'
              AND t.group_id IN (SELECT group_id FROM group_members WHERE user_id = ?)
            """, arguments: [user]) {
            let viewerDay = localDate(row[3], zone: zone)
            let payerDay = localDate(row[3], zone: TimeZone(identifier: row[4])!)
            let amount: Int64 = row[1]
            var share: Int64 = 0
            let splits = try Row.fetchAll(db, sql: "SELECT user_id, share_minor FROM splits WHERE transaction_id = ?", arguments: [row[0] as Int64])
            if !splits.isEmpty {
                share = splits.first { ($0[0] as Int64) == user }.map { $0[1] } ?? 0
            } else {
                var members: [Int64] = []
                for m in try Row.fetchAll(db, sql: """
                    SELECT gm.user_id, gm.joined_at, gm.left_at, mu.timezone FROM group_members gm JOIN users mu ON mu.id = gm.user_id
                    WHERE gm.group_id = ? ORDER BY gm.user_id
                    """, arguments: [row[5] as Int64]) {
                    let mz = TimeZone(identifier: m[3])!
                    let joined = localDate(m[1], zone: mz)
                    let left = (m[2] as String?).map { localDate($0, zone: mz) }
                    if joined <= payerDay && (left.map { payerDay < $0 } ?? true) { members.append(m[0]) }
                }
                if let i = members.firstIndex(of: user) {
                    let n = Int64(members.count)
                    share = amount / n + (Int64(i) < amount % n ? 1 : 0)
                }
            }
            guard share > 0 else { continue }
            let name: String = row[6] ?? "Others"
            out.entries.append(Entry(day: viewerDay, income: false, amount: try convert(share, row[2], currency, on: payerDay, db),
                                     category: liveNames.contains(name) ? name : "Others"))
        }
        return out
    }

    // MARK: - Tests

    func testIncomeExpensesCategoriesTrendAndBudgetsReconcileWithIndependentSQLForEveryUser() throws {
        let ledger = try Ledger(path: Self.path)
        let period = try Period.parse("2026-09", asOf: CivilDate(year: 2026, month: 11, day: 1))
        let queue = try DatabaseQueue(path: Self.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var checked = 0
        var nonZero = 0
        var budgetsChecked = 0
        var paydayUsers = 0
        for ref in try ledger.userRefs() where !ref.deleted {
            let slice = try ledger.loadUser(id: ref.id, through: period.end)
            XCTAssertTrue(slice.quarantined.isEmpty, "the sample ledger should be clean")
            let figures = try StatementAnalytics.statement(for: slice, period: period, asOf: CivilDate(year: 2026, month: 11, day: 1))
            let want = try queue.read { try expected(user: ref.id, $0) }
            // September and August as this user's months: calendar ones, or from payday to payday.
            let september = month(2026, 9, startDay: want.monthStartDay), august = month(2026, 8, startDay: want.monthStartDay)
            XCTAssertEqual(figures.period.start.description, september.first, "period start of user \(ref.id)")
            XCTAssertEqual(figures.period.end.description, september.last, "period end of user \(ref.id)")
            XCTAssertEqual(figures.period.name, "2026-09")
            if want.monthStartDay != 1 { paydayUsers += 1 }
            XCTAssertEqual(figures.kpis.income, want.income(september), "income of user \(ref.id)")
            XCTAssertEqual(figures.kpis.expenses, want.expenses(september), "expenses of user \(ref.id)")
            XCTAssertEqual(figures.kpis.net, want.income(september) - want.expenses(september), "net of user \(ref.id)")
            XCTAssertEqual(figures.kpis.previousExpenses, want.expenses(august), "previous month of user \(ref.id)")
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: figures.categories.rows.map { ($0.name, $0.amount) }), want.byCategory(september),
                           "categories of user \(ref.id)")
            // The 12 trend buckets are this user's months, October 2025 … September 2026.
            XCTAssertEqual(figures.trend.points.count, 12, "trend buckets of user \(ref.id)")
            for (i, point) in figures.trend.points.enumerated() {
                let bucket = month(2025 + (9 + i) / 12, (9 + i) % 12 + 1, startDay: want.monthStartDay)
                XCTAssertEqual(point.start.description, bucket.first, "trend bucket \(i) start of user \(ref.id)")
                XCTAssertEqual(point.end.description, bucket.last, "trend bucket \(i) end of user \(ref.id)")
                XCTAssertEqual(point.expenses, want.expenses(bucket), "trend \(bucket.first) of user \(ref.id)")
                XCTAssertEqual(point.income, want.income(bucket), "trend income \(bucket.first) of user \(ref.id)")
            }
            // Monthly category budgets: spent is the category's expenses in the user's month.
            let monthly = try queue.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT b.id, c.name FROM budgets b JOIN categories c ON c.id = b.category_id
                    WHERE b.user_id = ? AND b.period = 'month' AND c.deleted_at IS NULL
                      AND b.starts_on <= ? AND (b.ends_on IS NULL OR b.ends_on >= ?)
                    """, arguments: [ref.id, september.first, september.last]).map { ($0[0] as Int64, $0[1] as String) }
            }
            for (budgetId, name) in monthly {
                let line = figures.budgets.first { $0.budgetId == budgetId }
                XCTAssertNotNil(line, "budget \(budgetId) of user \(ref.id) missing")
                XCTAssertEqual(line?.windowStart.description, september.first, "budget \(budgetId) window of user \(ref.id)")
                XCTAssertEqual(line?.windowEnd.description, september.last, "budget \(budgetId) window of user \(ref.id)")
                XCTAssertEqual(line?.spent, want.byCategory(september)[name] ?? 0, "budget \(budgetId) spent of user \(ref.id)")
                budgetsChecked += 1
            }
            XCTAssertEqual(figures.categories.total, figures.kpis.expenses, "category total of user \(ref.id)")
            XCTAssertEqual(figures.categories.rows.reduce(0) { $0 + $1.amount }, figures.kpis.expenses)
            XCTAssertEqual(figures.transactions.filter { $0.kind == .expense }.reduce(0) { $0 + $1.counted }, figures.kpis.expenses,
                           "transactions.csv counted of user \(ref.id)")
            if figures.kpis.expenses > 0 { nonZero += 1 }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 30)
        XCTAssertGreaterThan(nonZero, 25, "the reconciliation must cover real spending, not empty statements")
        XCTAssertGreaterThan(budgetsChecked, 20, "the reconciliation must cover real budgets")
        XCTAssertGreaterThanOrEqual(paydayUsers, 3, "the reconciliation must cover users whose months start on payday")
    }

    /// The comparison's three columns, for a month and a quarter, against the same independent
    /// SQL: this period, the previous one of the same length and the same period a year earlier,
    /// income, expenses, net and every category; and each earlier column is what the statement
    /// for that earlier period shows.
    func testComparisonsWithThePreviousPeriodAndAYearEarlierReconcileWithIndependentSQLForEveryUser() throws {
        let ledger = try Ledger(path: Self.path)
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        let queue = try DatabaseQueue(path: Self.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var checked = 0, yearAgoSpending = 0, categoryRows = 0, paydayUsers = 0
        for ref in try ledger.userRefs() where !ref.deleted {
            let want = try queue.read { try expected(user: ref.id, $0) }
            // Written out, not derived from Period: 2026-10 against 2026-09 and 2025-10 (the user's own
            // months, from their payday, worked out with Foundation); 2026-Q3 against 2026-Q2 and 2025-Q3.
            let months = [month(2026, 10, startDay: want.monthStartDay), month(2026, 9, startDay: want.monthStartDay),
                          month(2025, 10, startDay: want.monthStartDay)]
            if want.monthStartDay != 1 { paydayUsers += 1 }
            let cases: [(period: String, windows: [(String, String)])] = [
                ("2026-10", months.map { ($0.first, $0.last) }),
                ("2026-Q3", [("2026-07-01", "2026-09-30"), ("2026-04-01", "2026-06-30"), ("2025-07-01", "2025-09-30")]),
            ]
            for (name, windows) in cases {
                let period = try Period.parse(name, asOf: asOf)
                let slice = try ledger.loadUser(id: ref.id, through: period.end)
                let c = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf).comparison
                let w = windows.map { want.window($0.0, $0.1) }
                let who = "user \(ref.id) \(name)"
                XCTAssertEqual(c.income, ComparedAmount(current: w[0].income, previous: w[1].income, yearAgo: w[2].income), "income of \(who)")
                XCTAssertEqual(c.expenses, ComparedAmount(current: w[0].expenses, previous: w[1].expenses, yearAgo: w[2].expenses),
                               "expenses of \(who)")
                XCTAssertEqual(c.net, ComparedAmount(current: w[0].income - w[0].expenses, previous: w[1].income - w[1].expenses,
                                                     yearAgo: w[2].income - w[2].expenses), "net of \(who)")
                let names = Set(w.flatMap { $0.byCategory.keys })
                XCTAssertEqual(Set(c.categories.map(\.name)), names, "categories of \(who)")
                for cat in c.categories {
                    XCTAssertEqual(cat.amounts, ComparedAmount(current: w[0].byCategory[cat.name] ?? 0, previous: w[1].byCategory[cat.name] ?? 0,
                                                               yearAgo: w[2].byCategory[cat.name] ?? 0), "\(cat.name) of \(who)")
                    // The change and its percent, from the SQL's figures.
                    let base = w[1].byCategory[cat.name] ?? 0, now = w[0].byCategory[cat.name] ?? 0
                    XCTAssertEqual(cat.amounts.vsPrevious.absolute, now - base)
                    if base == 0 { XCTAssertNil(cat.amounts.vsPrevious.percent) } else {
                        let exact = Decimal(now - base) * 100 / Decimal(base)
                        var rounded = Decimal(), value = exact
                        NSDecimalRound(&rounded, &value, 1, .bankers)
                        XCTAssertEqual(Decimal(cat.amounts.vsPrevious.percent!.tenths) / 10, rounded, "\(cat.name) percent of \(who)")
                    }
                    categoryRows += 1
                }
                // Each earlier column is the figure the statement for that earlier period shows.
                for (earlier, column) in [(c.previous, \ComparedAmount.previous), (c.yearAgo, \ComparedAmount.yearAgo)] {
                    let other = try StatementAnalytics.statement(for: try ledger.loadUser(id: ref.id, through: earlier.end),
                                                                 period: earlier, asOf: asOf)
                    XCTAssertEqual(c.income[keyPath: column], other.kpis.income, "\(earlier) income of \(who)")
                    XCTAssertEqual(c.expenses[keyPath: column], other.kpis.expenses, "\(earlier) expenses of \(who)")
                }
                if c.expenses.yearAgo > 0 { yearAgoSpending += 1 }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 60)
        XCTAssertGreaterThan(yearAgoSpending, 40, "the year-ago windows must hold real spending, not zeros")
        XCTAssertGreaterThan(categoryRows, 300)
        XCTAssertGreaterThanOrEqual(paydayUsers, 3, "the comparison must cover users whose months start on payday")
    }

    func testGroupNetsAddUpToZeroAndMatchEveryMembersView() throws {
        let ledger = try Ledger(path: Self.path)
        let period = try Period.parse("2026-10", asOf: CivilDate(year: 2026, month: 11, day: 1))
        var seen: [Int64: [Int64: Int64]] = [:]   // group → member → outstanding as seen by some member
        var groups = 0
        for ref in try ledger.userRefs() where !ref.deleted {
            let figures = try StatementAnalytics.statement(for: try ledger.loadUser(id: ref.id, through: period.end), period: period,
                                                           asOf: CivilDate(year: 2026, month: 11, day: 1))
            for g in figures.groups {
                XCTAssertEqual(g.members.reduce(0) { $0 + $1.net }, 0, "period nets of group \(g.groupId)")
                XCTAssertEqual(g.members.reduce(0) { $0 + $1.outstanding }, 0, "outstanding of group \(g.groupId)")
                let view = Dictionary(uniqueKeysWithValues: g.members.map { ($0.userId, $0.outstanding) })
                if let other = seen[g.groupId] { XCTAssertEqual(other, view, "members disagree on group \(g.groupId)") } else { seen[g.groupId] = view; groups += 1 }
            }
        }
        XCTAssertGreaterThan(groups, 2)
    }

    /// Every member's outstanding balance (expenses paid minus shares, plus settle-up payments made
    /// minus received, up to the period's end) and `settled` (the period's payments) in every
    /// group, recomputed from plain SQL rows in the group's currency, as each member sees them.
    func testGroupBalancesAndSettleUpPaymentsReconcileWithIndependentSQL() throws {
        let ledger = try Ledger(path: Self.path)
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        let period = try Period.parse("2026-10", asOf: asOf)
        let queue = try DatabaseQueue(path: Self.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var membersChecked = 0, paymentsListed = 0
        for ref in try ledger.userRefs() where !ref.deleted {
            let figures = try StatementAnalytics.statement(for: try ledger.loadUser(id: ref.id, through: period.end), period: period, asOf: asOf)
            try queue.read { db in
                let u = try Row.fetchOne(db, sql: "SELECT timezone, month_start_day FROM users WHERE id = ?", arguments: [ref.id])!
                let zone = TimeZone(identifier: u[0])!
                let days = month(2026, 10, startDay: u[1] ?? 1)
                for g in figures.groups {
                    var outstanding: [Int64: Int64] = [:], settled: [Int64: Int64] = [:]
                    var listed = 0
                    let members = try Row.fetchAll(db, sql: """
                        SELECT gm.user_id, gm.joined_at, gm.left_at, mu.timezone FROM group_members gm JOIN users mu ON mu.id = gm.user_id
                        WHERE gm.group_id = ? ORDER BY gm.user_id
                        """, arguments: [g.groupId])
                    for e in try Row.fetchAll(db, sql: """
                        SELECT t.id, t.user_id, t.amount_minor, t.currency, t.occurred_at, pu.timezone, g.currency
                        FROM transactions t JOIN users pu ON pu.id = t.user_id JOIN groups g ON g.id = t.group_id
                        WHERE t.group_id = ? AND t.deleted_at IS NULL AND pu.deleted_at IS NULL AND t.kind = 'expense'
                        """, arguments: [g.groupId]) {
                        guard localDate(e[4], zone: zone) <= days.last else { continue }
                        XCTAssertEqual(e[3] as String, e[6] as String, "the sample's group expenses are in the group's currency")
                        let amount: Int64 = e[2]
                        outstanding[e[1], default: 0] += amount
                        let payerDay = localDate(e[4], zone: TimeZone(identifier: e[5])!)
                        let splits = try Row.fetchAll(db, sql: "SELECT user_id, share_minor FROM splits WHERE transaction_id = ?", arguments: [e[0] as Int64])
                        if !splits.isEmpty {
                            for sp in splits { outstanding[sp[0], default: 0] -= sp[1] as Int64 }
                        } else {
                            let sharing = members.filter { m in
                                let mz = TimeZone(identifier: m[3])!
                                return localDate(m[1], zone: mz) <= payerDay && ((m[2] as String?).map { payerDay < localDate($0, zone: mz) } ?? true)
                            }.map { $0[0] as Int64 }
                            let n = Int64(sharing.count)
                            for (rank, m) in sharing.enumerated() { outstanding[m, default: 0] -= amount / n + (Int64(rank) < amount % n ? 1 : 0) }
                        }
                    }
                    for p in try Row.fetchAll(db, sql: """
                        SELECT p.from_user_id, p.to_user_id, p.amount_minor, p.currency, p.occurred_at, fu.timezone, g.currency
                        FROM group_payments p JOIN groups g ON g.id = p.group_id JOIN users fu ON fu.id = p.from_user_id
                        WHERE p.group_id = ? AND p.deleted_at IS NULL
                        """, arguments: [g.groupId]) {
                        let day = localDate(p[4], zone: zone)
                        guard day <= days.last else { continue }
                        let amount = try convert(p[2], p[3], p[6], on: localDate(p[4], zone: TimeZone(identifier: p[5])!), db)
                        outstanding[p[0], default: 0] += amount
                        outstanding[p[1], default: 0] -= amount
                        if days.contains(day) {
                            settled[p[0], default: 0] += amount
                            settled[p[1], default: 0] -= amount
                            listed += 1
                        }
                    }
                    for m in g.members {
                        XCTAssertEqual(m.outstanding, outstanding[m.userId] ?? 0, "outstanding of \(m.userId) in group \(g.groupId), seen by \(ref.id)")
                        XCTAssertEqual(m.settled, settled[m.userId] ?? 0, "settled of \(m.userId) in group \(g.groupId), seen by \(ref.id)")
                        membersChecked += 1
                    }
                    XCTAssertEqual(g.payments.count, listed, "payments listed in group \(g.groupId), seen by \(ref.id)")
                    paymentsListed += listed
                }
            }
        }
        XCTAssertGreaterThan(membersChecked, 10)
        XCTAssertGreaterThan(paymentsListed, 0, "the sample's groups settle up, so October has payments")
    }

    /// The sample's groups settle up: a group that pays back owes no member more than its last
    /// three months of shared spending, instead of everything since it began.
    func testSettlingGroupsOweAMonthOrTwoNotTheirWholeHistory() throws {
        let ledger = try Ledger(path: Self.path)
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        let period = try Period.parse("2026-10", asOf: asOf)
        let queue = try DatabaseQueue(path: Self.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var seen = Set<Int64>()
        for ref in try ledger.userRefs() where !ref.deleted {
            let figures = try StatementAnalytics.statement(for: try ledger.loadUser(id: ref.id, through: period.end), period: period, asOf: asOf)
            for g in figures.groups where seen.insert(g.groupId).inserted {
                let (payments, recent, all) = try queue.read { db -> (Int, Int64, Int64) in
                    (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_payments WHERE group_id = ? AND deleted_at IS NULL", arguments: [g.groupId])!,
                     try Int64.fetchOne(db, sql: """
                        SELECT COALESCE(SUM(amount_minor), 0) FROM transactions WHERE group_id = ? AND deleted_at IS NULL
                          AND occurred_at >= '2026-08-01'
                        """, arguments: [g.groupId])!,
                     try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(amount_minor), 0) FROM transactions WHERE group_id = ? AND deleted_at IS NULL",
                                        arguments: [g.groupId])!)
                }
                guard payments > 0, all > 0 else { continue }
                let worst = g.members.map { abs($0.outstanding) }.max() ?? 0
                XCTAssertLessThanOrEqual(worst, max(recent, all / 4), "group \(g.groupId) still owes \(worst) of \(all) spent")
            }
        }
        XCTAssertFalse(seen.isEmpty)
    }

    func testQuarantinedRowsNeverReachAFigure() throws {
        // Copy the sample and break one expense of a user; their figures must drop exactly that row.
        let copy = Self.folder.appendingPathComponent("broken.sqlite").path
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: Self.path, toPath: copy)
        let period = try Period.parse("2026-09", asOf: CivilDate(year: 2026, month: 11, day: 1))
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        let before = try Ledger(path: copy)
        let user = try before.userRefs().first { !$0.deleted }!.id
        let clean = try StatementAnalytics.statement(for: try before.loadUser(id: user, through: period.end), period: period, asOf: asOf)
        guard let victim = clean.transactions.first(where: { $0.kind == .expense && $0.group.isEmpty && $0.currency.code == clean.currency.code }) else {
            throw XCTSkip("user has no plain expense in the period")
        }
        let writer = try DatabaseQueue(path: copy)
        try writer.write { try $0.execute(sql: "UPDATE transactions SET kind = 'refund' WHERE id = ?", arguments: [victim.id]) }
        let after = try Ledger(path: copy)
        let slice = try after.loadUser(id: user, through: period.end)
        XCTAssertEqual(slice.quarantined.map(\.id), [victim.id])
        let broken = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf)
        XCTAssertEqual(broken.kpis.expenses, clean.kpis.expenses - victim.counted)
        XCTAssertFalse(broken.transactions.contains { $0.id == victim.id })
        XCTAssertEqual(broken.quarantined.map(\.id), [victim.id])
    }
}
