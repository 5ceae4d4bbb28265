import EZAnalytics
import EZCore
import EZLedger
import EZSample
import Foundation
import XCTest

/// The transaction list (filtered exports, statistics) is built from the range's rows alone
/// (``LedgerReadTransaction/loadWindow(id:from:through:)``); for every user of a generated ledger
/// (time zones on both sides of UTC, groups, several currencies) it lists exactly the rows a
/// statement over the same range lists, with the same counted amounts and statistics.
final class TransactionListTests: XCTestCase {
    func testTheWindowsListEqualsTheStatementsRowsForEveryUserAndRange() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-window-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("ledger.sqlite").path
        _ = try SampleGenerator.generate(to: path, options: SampleOptions(users: 30, months: 14, endYear: 2026, endMonth: 10, seed: 5))
        let ledger = try Ledger(path: path)
        let asOf = try XCTUnwrap(CivilDate(iso: "2026-11-01"))
        let ranges = try ["2026-09", "2026-10-01..2026-10-01", "2026-08-31..2026-09-01", "2026-Q3", "2026-03-15..2026-10-15"]
            .map { try Period.parse($0, asOf: asOf) }
        var compared = 0, rows = 0
        for user in try ledger.userRefs() where !user.deleted {
            for range in ranges {
                let full = try ledger.readTransaction { try $0.loadUser(id: user.id, through: range.end) }
                guard full.user.role != .admin else { continue }
                let statement = try StatementAnalytics.statement(for: full, period: range, asOf: range.end)
                // A month is the user's month (payday), so the list is asked for the statement's own dates.
                let dates = statement.period
                let window = try ledger.readTransaction { try $0.loadWindow(id: user.id, from: dates.start, through: dates.end) }
                let list = try TransactionListAnalytics.list(for: window, range: dates, filter: TransactionFilter())
                XCTAssertEqual(list.rows, statement.transactions, "user \(user.id), \(range.name)")
                XCTAssertEqual(list.statistics.income, statement.kpis.income, "user \(user.id), \(range.name)")
                XCTAssertEqual(list.statistics.expenses, statement.kpis.expenses, "user \(user.id), \(range.name)")
                compared += 1
                rows += list.rows.count
            }
        }
        XCTAssertGreaterThan(compared, 50)
        XCTAssertGreaterThan(rows, 1000, "the ranges should hold many rows")
    }
}
