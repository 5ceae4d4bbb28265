import EZBatch
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// The clean all-format monthly run: where its files go, that the manifest describes them
/// exactly, and that its figures reconcile with the ledger read by SQL here.
final class MonthlyLayoutTests: XCTestCase {
    var fixture: SampleFixture!
    var folder: String!

    override func setUpWithError() throws {
        fixture = try SampleFixture.shared()
        let run = try fixture.cleanRun()
        XCTAssertEqual(run.outcome.status, 0, run.outcome.stderr)
        folder = run.folder
    }

    /// Live users by id, read from the ledger here.
    func liveUsers() throws -> [(id: Int64, username: String, currency: String, timezone: String)] {
        let db = try DatabaseQueue(path: fixture.ledger, configuration: { var c = Configuration(); c.readonly = true; return c }())
        return try db.read { db in
            try Row.fetchAll(db, sql: "SELECT id, username, currency, timezone FROM users WHERE deleted_at IS NULL ORDER BY id")
                .map { ($0[0], $0[1], $0[2], $0[3]) }
        }
    }

    func testPeriodFolderHoldsUserFoldersAdminReportAndManifest() throws {
        XCTAssertEqual((folder as NSString).lastPathComponent, "2026-09")
        let files = OutputTree.snapshot(folder)
        let users = try liveUsers()
        XCTAssertGreaterThanOrEqual(users.count, 20)
        let userFolders = try FileManager.default.contentsOfDirectory(atPath: folder + "/users").sorted()
        XCTAssertEqual(Set(userFolders), Set(users.map { "\($0.id)-" + SafeName.sanitise($0.username) }))
        for name in userFolders {
            let ownFiles = Set(files.keys.filter { $0.hasPrefix("users/\(name)/") }.map { String($0.dropFirst("users/\(name)/".count)) })
            for required in ["statement.pdf", "statement.xlsx", "transactions.csv", "categories.csv", "trends.csv",
                             "category-trends.csv", "budgets.csv", "groups.csv", "settlements.csv", "savings.csv", "comparison.csv"] {
                XCTAssertTrue(ownFiles.contains(required), "\(name) lacks \(required)")
            }
            let charts = ownFiles.filter { $0.hasPrefix("charts/") }
            XCTAssertFalse(charts.isEmpty, "\(name) has no charts")
            for chart in charts {
                XCTAssertTrue(chart.hasSuffix(".png"), chart)
                XCTAssertEqual(files["users/\(name)/\(chart)"]?.prefix(8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), chart)
            }
            XCTAssertEqual(files["users/\(name)/statement.pdf"]?.prefix(5), Data("%PDF-".utf8))
            XCTAssertEqual(files["users/\(name)/statement.xlsx"]?.prefix(2), Data("PK".utf8))
        }
        XCTAssertEqual(Set(files.keys.filter { $0.hasPrefix("admin/") }), ["admin/usage.pdf", "admin/usage.xlsx", "admin/usage.csv"])
        XCTAssertEqual(Set(files.keys.filter { !$0.hasPrefix("users/") && !$0.hasPrefix("admin/") }), ["manifest.json", ".entries.jsonl"],
                       "only the manifest (and the hidden record of the run's entries) beside users/ and admin/: no journal, no snapshot, no temporary file")
    }

    func testManifestIsWrittenLast() throws {
        let manifest = try FileManager.default.attributesOfItem(atPath: folder + "/manifest.json")[.modificationDate] as! Date
        for (path, _) in OutputTree.snapshot(folder) where path != "manifest.json" {
            let date = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.modificationDate] as! Date
            XCTAssertLessThanOrEqual(date, manifest, path)
        }
    }

    func testEveryManifestHashAndSizeMatchesItsFileAndEveryFileIsListed() throws {
        let manifest = try OutputTree.manifest(folder)
        let listed = manifest.users.flatMap(\.files) + (manifest.admin?.files ?? [])
        let onDisk = OutputTree.snapshot(folder)
        XCTAssertEqual(Set(listed.map(\.path)), Set(onDisk.keys).subtracting(["manifest.json", ".entries.jsonl"]))
        XCTAssertEqual(listed.count, Set(listed.map(\.path)).count, "a file is listed twice")
        let hashes = try OutputTree.sha256(listed.map(\.path), in: folder)
        for f in listed {
            XCTAssertEqual(onDisk[f.path]?.count, f.bytes, f.path)
            XCTAssertEqual(hashes[f.path], f.sha256, f.path)
        }
        for u in manifest.users {
            XCTAssertTrue(u.files.allSatisfy { $0.path.hasPrefix(u.folder + "/") }, "user \(u.id) lists a file outside its folder")
        }
        XCTAssertEqual(manifest.totals.files, listed.count)
        XCTAssertEqual(manifest.totals.bytes, listed.reduce(0) { $0 + $1.bytes })
    }

    func testManifestDescribesTheRunAndTheLedger() throws {
        let manifest = try OutputTree.manifest(folder)
        let ledgerHash = try OutputTree.sha256([(fixture.ledger as NSString).lastPathComponent],
                                               in: (fixture.ledger as NSString).deletingLastPathComponent)
        XCTAssertEqual(manifest.ledgerSha256, ledgerHash.values.first)
        XCTAssertEqual(manifest.ledgerPath, fixture.ledger)
        XCTAssertEqual(manifest.period, "2026-09")
        XCTAssertEqual(manifest.periodStart, "2026-09-01")
        XCTAssertEqual(manifest.periodEnd, "2026-09-30")
        XCTAssertEqual(manifest.asOf, "2026-10-01")
        XCTAssertEqual(manifest.formats, ["pdf", "xlsx", "csv", "png"])
        XCTAssertNil(manifest.shard)
        XCTAssertEqual(manifest.engineVersion, try CLI.run(["--version"]).text.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(manifest.users.map(\.id), try liveUsers().map(\.id), "one entry per live user, in id order")
        XCTAssertTrue(manifest.users.allSatisfy { $0.status == .ok && $0.error == nil })
        XCTAssertEqual(manifest.totals.users, manifest.users.count)
        XCTAssertEqual(manifest.totals.ok, manifest.users.count)
        XCTAssertEqual(manifest.totals.failed, 0)
        XCTAssertEqual(manifest.admin?.status, .ok)

        // snake_case keys, sorted, no clock time.
        let json = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/manifest.json")), as: UTF8.self)
        XCTAssertTrue(json.contains("\"transaction_count\""))
        XCTAssertTrue(json.contains("\"income_minor\""))
        XCTAssertFalse(json.contains("incomeMinor"))
        // The accounts' creation times are the ledger's data, not the run's clock.
        let creation = #""account_created_at"\s*:\s*"[^"]*""#
        XCTAssertNotNil(json.range(of: creation, options: .regularExpression))
        let withoutCreation = json.replacingOccurrences(of: creation, with: "", options: .regularExpression)
        XCTAssertNil(withoutCreation.range(of: #"T\d\d:\d\d"#, options: .regularExpression), "a clock time in the manifest")
        let top = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(Set(top.keys), ["admin", "as_of", "engine_version", "formats", "ledger_path", "ledger_sha256", "period",
                                       "period_end", "period_start", "snapshot_sha256", "totals", "users"])
        let keyLines = json.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        XCTAssertEqual(keyLines, keyLines.sorted(), "top-level keys are sorted")
    }

    func testTransactionCountsAndTotalsReconcileWithEachUsersTransactionsCSV() throws {
        let manifest = try OutputTree.manifest(folder)
        var rowsSeen = 0
        for u in manifest.users {
            let rows = try CSVReader.rows(folder + "/" + u.folder + "/transactions.csv")
            XCTAssertEqual(u.transactionCount, rows.count, "user \(u.id)")
            rowsSeen += rows.count
            var income: Int64 = 0, expenses: Int64 = 0
            for r in rows {
                XCTAssertEqual(r["report_currency"], u.currency, "user \(u.id) row \(r["id"] ?? "")")
                let counted = try XCTUnwrap(CSVReader.minorUnits(r["counted"] ?? ""), "counted '\(r["counted"] ?? "")'")
                switch r["kind"] {
                case "income": income += counted
                case "expense": expenses += counted
                default: XCTAssertEqual(counted, 0, "a transfer counts nothing")
                }
            }
            XCTAssertEqual(u.incomeMinor, income, "user \(u.id) income vs the counted column")
            XCTAssertEqual(u.expensesMinor, expenses, "user \(u.id) expenses vs the counted column")
            XCTAssertEqual(u.netMinor, income - expenses, "user \(u.id)")
        }
        XCTAssertEqual(manifest.totals.transactionCount, rowsSeen)
        XCTAssertGreaterThan(rowsSeen, 100, "the sample has real activity in the period")
    }

    /// For users whose rows are all in their own currency and who share nothing in groups, the
    /// manifest's income and expenses equal plain SQL sums over the rows whose local date (in the
    /// user's zone, computed here with Foundation's time zones) falls in September 2026 — the user's
    /// own September when their months start on payday (`users.month_start_day`).
    func testIncomeAndExpensesReconcileWithSQLSumsForSingleCurrencyUsers() throws {
        let manifest = try OutputTree.manifest(folder)
        let db = try DatabaseQueue(path: fixture.ledger, configuration: { var c = Configuration(); c.readonly = true; return c }())
        var checked = 0
        for u in try liveUsers() {
            let rows = try db.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT kind, amount_minor, currency, occurred_at, group_id FROM transactions
                    WHERE user_id = ? AND deleted_at IS NULL AND occurred_at >= '2026-07-25' AND occurred_at < '2026-10-08'
                    """, arguments: [u.id])
            }
            let startDay = try db.read { try Int.fetchOne($0, sql: "SELECT month_start_day FROM users WHERE id = ?", arguments: [u.id]) } ?? 1
            // September from the start day: 1–30 Sep, or from that day of August to the day before it in September.
            let first = startDay == 1 ? "2026-09-01" : String(format: "2026-08-%02d", startDay)
            let last = startDay == 1 ? "2026-09-30" : String(format: "2026-09-%02d", startDay - 1)
            let inGroups = try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM group_members WHERE user_id = ?", arguments: [u.id])! }
            guard inGroups == 0, rows.allSatisfy({ ($0["currency"] as String) == u.currency }) else { continue }
            let zone = try XCTUnwrap(TimeZone(identifier: u.timezone))
            var income: Int64 = 0, expenses: Int64 = 0, count = 0
            for r in rows {
                let date = try XCTUnwrap(Self.localDate(r["occurred_at"], in: zone), "unparsable \(r["occurred_at"] as String)")
                guard date >= first, date <= last else { continue }
                count += 1
                switch r["kind"] as String {
                case "income": income += r["amount_minor"] as Int64
                case "expense": expenses += r["amount_minor"] as Int64
                default: break
                }
            }
            let entry = try XCTUnwrap(manifest.users.first { $0.id == u.id })
            XCTAssertEqual(entry.incomeMinor, income, "user \(u.id) income")
            XCTAssertEqual(entry.expensesMinor, expenses, "user \(u.id) expenses")
            XCTAssertEqual(entry.transactionCount, count, "user \(u.id) rows")
            XCTAssertEqual(entry.currency, u.currency)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 3, "too few single-currency users outside groups to make the check meaningful")
    }

    /// comparison.csv and the appended columns of categories.csv, as the monthly run wrote them,
    /// against SQL sums of September 2026, August 2026 and September 2025 — each user's own months,
    /// from their payday when `users.month_start_day` is set (single-currency users outside groups,
    /// whose figures are plain sums of their own rows).
    func testComparisonCSVAndCategoryColumnsReconcileWithSQLSumsOfTheThreeMonths() throws {
        let db = try DatabaseQueue(path: fixture.ledger, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let months = [(2026, 9), (2026, 8), (2025, 9)]   // this period, the previous month, a year earlier
        var checked = 0, yearAgoSpending = 0
        for u in try liveUsers() {
            let startDay = try db.read { try Int.fetchOne($0, sql: "SELECT month_start_day FROM users WHERE id = ?", arguments: [u.id]) } ?? 1
            // A month named Y-M: the calendar month, or from `startDay` of the month before to the day before it in Y-M.
            let windows = months.map { y, m -> (String, String) in
                if startDay == 1 { return (String(format: "%04d-%02d-01", y, m), String(format: "%04d-%02d-31", y, m)) }
                let (py, pm) = m == 1 ? (y - 1, 12) : (y, m - 1)
                return (String(format: "%04d-%02d-%02d", py, pm, startDay), String(format: "%04d-%02d-%02d", y, m, startDay - 1))
            }
            let rows = try db.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT t.kind, t.amount_minor, t.currency, t.occurred_at, CASE WHEN c.deleted_at IS NULL THEN c.name END
                    FROM transactions t LEFT JOIN categories c ON c.id = t.category_id
                    WHERE t.user_id = ? AND t.deleted_at IS NULL AND t.occurred_at >= '2025-07-25' AND t.occurred_at < '2026-10-08'
                    """, arguments: [u.id])
            }
            let inGroups = try db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM group_members WHERE user_id = ?", arguments: [u.id])! }
            // Amounts written with two decimals below; rows in another currency would need conversion.
            guard inGroups == 0, !["JPY", "KRW", "BHD", "KWD"].contains(u.currency) else { continue }
            let zone = try XCTUnwrap(TimeZone(identifier: u.timezone))
            var inMonths: [(Int, Row)] = []
            for r in rows {
                let date = try XCTUnwrap(Self.localDate(r[3], in: zone))
                if let k = windows.firstIndex(where: { date >= $0.0 && date <= $0.1 }) { inMonths.append((k, r)) }
            }
            guard inMonths.allSatisfy({ ($0.1[2] as String) == u.currency }) else { continue }
            var income = [Int64](repeating: 0, count: 3), expenses = [Int64](repeating: 0, count: 3)
            var byCategory = [[String: Int64]](repeating: [:], count: 3)
            for (k, r) in inMonths {
                switch r[0] as String {
                case "income": income[k] += r[1] as Int64
                case "expense":
                    expenses[k] += r[1] as Int64
                    byCategory[k][r[4] ?? "Others", default: 0] += r[1] as Int64
                default: break
                }
            }
            func cents(_ v: Int64) -> String {
                let m = v.magnitude
                return (v < 0 ? "-" : "") + "\(m / 100)." + (m % 100 < 10 ? "0" : "") + "\(m % 100)"
            }
            let userFolder = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder + "/users").first { $0.hasPrefix("\(u.id)-") })
            let comparison = try String(contentsOfFile: "\(folder!)/users/\(userFolder)/comparison.csv", encoding: .utf8)
            XCTAssertEqual(comparison, "measure,current,previous,year_ago,currency\r\n"
                + "income,\(income.map(cents).joined(separator: ",")),\(u.currency)\r\n"
                + "expenses,\(expenses.map(cents).joined(separator: ",")),\(u.currency)\r\n"
                + "net,\((0..<3).map { cents(income[$0] - expenses[$0]) }.joined(separator: ",")),\(u.currency)\r\n", "user \(u.id)")
            let categories = CSVReader.records(try String(contentsOfFile: "\(folder!)/users/\(userFolder)/categories.csv", encoding: .utf8))
                .dropFirst().filter { $0 != [""] }
            XCTAssertEqual(Set(categories.map { $0[0] }), Set(byCategory[0].keys), "user \(u.id) categories")
            for c in categories {
                XCTAssertEqual(c[2], cents(byCategory[0][c[0]] ?? 0), "user \(u.id) \(c[0]) amount")
                XCTAssertEqual(c[5], cents(byCategory[1][c[0]] ?? 0), "user \(u.id) \(c[0]) previous_amount")
                XCTAssertEqual(c[6], cents(byCategory[2][c[0]] ?? 0), "user \(u.id) \(c[0]) year_ago_amount")
            }
            if expenses[2] > 0 { yearAgoSpending += 1 }
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 3, "too few single-currency users outside groups to make the check meaningful")
        XCTAssertGreaterThanOrEqual(yearAgoSpending, 2, "the year-ago month must hold real spending")
    }

    /// `YYYY-MM-DD` of an ISO-8601 timestamp in `zone`; a bare date is already local.
    static func localDate(_ text: String, in zone: TimeZone) -> String? {
        if text.count == 10 { return text }
        let parser = ISO8601DateFormatter()
        parser.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        guard let instant = parser.date(from: text) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: instant)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    func testHostileAndNonASCIIUsernamesStayInsideTheOutputFolderAndReadable() throws {
        let users = try liveUsers()
        XCTAssertTrue(users.contains { $0.username == "../../etc" }, "the sample has the '../../etc' user")
        let root = (folder as NSString).deletingLastPathComponent
        // Nothing was written beside the output root: the root holds only the period folder.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root), ["2026-09"])
        let canonicalUsers = URL(fileURLWithPath: folder + "/users").resolvingSymlinksInPath().path
        for name in try FileManager.default.contentsOfDirectory(atPath: folder + "/users") {
            XCTAssertFalse(name.contains("/") || name.hasPrefix("."), name)
            let resolved = URL(fileURLWithPath: folder + "/users/" + name).standardized.resolvingSymlinksInPath().path
            XCTAssertEqual((resolved as NSString).deletingLastPathComponent, canonicalUsers, name)
        }
        let etc = try XCTUnwrap(users.first { $0.username == "../../etc" })
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/users/\(etc.id)-_._.._etc/transactions.csv"))
        if let zoe = users.first(where: { $0.username == "zoë" }) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/users/\(zoe.id)-zoë/statement.pdf"), "non-ASCII stays readable")
        }
        if let yamada = users.first(where: { $0.username == "山田" }) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/users/\(yamada.id)-山田/statement.pdf"))
        }
    }
}
