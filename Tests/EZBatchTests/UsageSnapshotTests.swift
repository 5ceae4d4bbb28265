import EZAnalytics
import EZBatch
import EZCore
import EZLedger
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// The admin usage figures for `ezreport serve` come from one read transaction: a commit the
/// app makes while the pass runs is not half-seen.
final class UsageSnapshotTests: XCTestCase {
    func testUsageFiguresReadInOneSnapshotDoNotSeeACommitMadeAfterItBegan() throws {
        let fixture = try SampleFixture.shared()
        let path = try fixture.copyOfLedger("usage-snapshot")
        let app = try DatabaseQueue(path: path)
        defer { try? app.close() }
        try app.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        let asOf = try XCTUnwrap(CivilDate(iso: fixture.asOf))
        let period = try Period.parse(fixture.period, asOf: asOf)
        let ledger = try Ledger(path: path)
        let before = try ledger.readTransaction { try UsageReport.figures(in: $0, period: period, asOf: asOf) }

        let inSnapshot = try ledger.readTransaction { snapshot throws -> UsageFigures in
            _ = try snapshot.account(fixture.markedUser)   // the read transaction's snapshot starts here
            try app.write { db in
                try db.execute(sql: """
                    UPDATE transactions SET amount_minor = amount_minor + 5000000 WHERE id = (
                      SELECT id FROM transactions WHERE kind = 'expense' AND group_id IS NULL AND deleted_at IS NULL
                        AND occurred_at >= '2026-09-05' AND occurred_at < '2026-09-25' ORDER BY id LIMIT 1)
                    """)
                XCTAssertEqual(db.changesCount, 1)
                try db.execute(sql: "UPDATE users SET deleted_at = '2026-09-10T00:00:00Z' WHERE id = (SELECT MAX(id) FROM users WHERE deleted_at IS NULL)")
            }
            return try UsageReport.figures(in: snapshot, period: period, asOf: asOf)
        }
        XCTAssertEqual(inSnapshot, before, "the pass saw a commit made after its snapshot began")

        let after = try ledger.readTransaction { try UsageReport.figures(in: $0, period: period, asOf: asOf) }
        XCTAssertNotEqual(after.months.last?.volume, before.months.last?.volume, "the commit should change the figures a later snapshot reads")
    }

    /// The usage report counts whole months. Cut at the day a period ends (`today`, a range), the
    /// last month held the rows up to the day after it, and two reports a day apart differed by
    /// that day's rows alone, which can be one person's, every cell of each being about five
    /// users or more. Now the month is the same however the period is written and whenever asked.
    func testTheLastMonthIsCountedWholeWhateverDayThePeriodEnds() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try Ledger(path: fixture.ledger)
        func lastMonth(_ period: String, asOf: String) throws -> UsageMonth {
            let asOf = try XCTUnwrap(CivilDate(iso: asOf))
            let p = try Period.parse(period, asOf: asOf)
            return try XCTUnwrap(try ledger.readTransaction { try UsageReport.figures(in: $0, period: p, asOf: asOf) }.months.last)
        }
        let whole = try lastMonth("2026-09", asOf: "2026-10-01")
        XCTAssertEqual(whole.month, CivilDate(year: 2026, month: 9, day: 1))
        for (period, asOf) in [("today", "2026-09-14"), ("today", "2026-09-15"), ("2026-09-01..2026-09-15", "2026-10-01"),
                               ("2026-09", "2026-09-15")] {
            XCTAssertEqual(try lastMonth(period, asOf: asOf), whole, "\(period) as of \(asOf)")
        }
    }
}
