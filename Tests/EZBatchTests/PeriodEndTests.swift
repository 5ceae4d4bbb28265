import EZCore
import EZLedger
import EZTestSupport
import Foundation
import XCTest
@testable import EZBatch

/// A scheduled run shortly after midnight UTC holds back the users whose month is not over yet in
/// their own time zone: their statement was written and mailed without the month's last evening,
/// then written and mailed again with other figures (outside operations test).
final class PeriodEndTests: XCTestCase {
    let october = Period.month(containing: CivilDate(year: 2026, month: 10, day: 1))
    let first = CivilDate(year: 2026, month: 11, day: 1)

    private func at(_ iso: String) -> PeriodEnd {
        PeriodEnd(runStarted: ISO8601DateFormatter().date(from: iso)!)
    }

    func testAtTwoUTCOnTheFirstTheMonthIsNotOverWestOfUTC() {
        let run = at("2026-11-01T02:00:00Z")
        XCTAssertEqual(run.wait(period: october, asOf: first, zone: "America/New_York"),
                       "held back: the period ends at 2026-11-01 04:00 UTC in the user's time zone (America/New_York), "
                       + "after this run began; a run after then writes this statement")
        XCTAssertTrue(run.wait(period: october, asOf: first, zone: "Pacific/Pago_Pago")?.contains("2026-11-01 11:00 UTC") == true)
        for zone in ["Europe/Rome", "Asia/Tokyo", "Pacific/Kiritimati", "UTC"] {
            XCTAssertNil(run.wait(period: october, asOf: first, zone: zone), zone)
        }
    }

    func testAtNoonUTCOnTheFirstTheMonthIsOverEverywhere() {
        let run = at("2026-11-01T12:00:00Z")
        for zone in ["America/New_York", "Pacific/Pago_Pago", "Etc/GMT+12", "Pacific/Kiritimati"] {
            XCTAssertNil(run.wait(period: october, asOf: first, zone: zone), zone)
        }
    }

    /// A period the as-of date does not close (`this-month`), or a future as-of date (a rehearsal
    /// of a run), is written as asked.
    func testAnOpenPeriodOrAFutureAsOfDateIsNotHeldBack() {
        let run = at("2026-10-20T02:00:00Z")
        XCTAssertNil(run.wait(period: october, asOf: CivilDate(year: 2026, month: 10, day: 20), zone: "America/New_York"))
        XCTAssertNil(run.wait(period: october, asOf: first, zone: "America/New_York"), "as of a day still to come")
    }

    /// A user paid on the 25th: their October ended on 24 October, long before the run.
    func testAPaydayMonthEndsOnItsOwnLastDay() {
        let run = at("2026-11-01T02:00:00Z")
        XCTAssertNil(run.wait(period: october.startingMonths(onDay: 25), asOf: first, zone: "Pacific/Pago_Pago"))
    }

    /// In a run, the held-back user fails with the reason (the run exits 2, and its re-run, after
    /// the hour, writes the statement).
    func testAHeldBackUserIsRecordedWithTheReasonAndNoFiles() throws {
        let ledger = try TestLedger()
        let zoe = try ledger.user("zoe", timezone: "America/Los_Angeles")
        _ = try ledger.expense(zoe, 1250, on: "2026-10-03")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("periodend-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var settings = ReportSettings(ledgerPath: ledger.path, ledgerSHA256: String(repeating: "0", count: 64),
                                      period: october, asOf: first, formats: [.csv])
        let ref = try XCTUnwrap(try Ledger(path: ledger.path).userRefs().first { $0.id == zoe })
        settings.periodEnd = at("2026-11-01T02:00:00Z")
        let held = UserJob(settings: settings, periodFolder: folder, force: false).run(user: ref, ledger: try Ledger(path: ledger.path), previous: nil)
        XCTAssertEqual(held.entry.status, .failed)
        XCTAssertEqual(held.entry.files, [])
        XCTAssertTrue(held.entry.error?.contains("ends at 2026-11-01 07:00 UTC in the user's time zone (America/Los_Angeles)") == true,
                      held.entry.error ?? "")
        settings.periodEnd = at("2026-11-01T12:00:00Z")
        let written = UserJob(settings: settings, periodFolder: folder, force: false).run(user: ref, ledger: try Ledger(path: ledger.path), previous: held.entry)
        XCTAssertEqual(written.entry.status, .ok, written.entry.error ?? "")
        XCTAssertFalse(written.entry.files.isEmpty)
    }
}
