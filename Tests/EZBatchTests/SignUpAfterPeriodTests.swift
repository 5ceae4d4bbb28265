import EZCore
import EZLedger
import EZTestSupport
import Foundation
import XCTest
@testable import EZBatch

/// A monthly run writes statements for the users who had an account in the period: one who
/// signed up after its last day (in their own time zone) has none. A run for October made in
/// December e-mailed November's new users an empty "October statement", and listed users the
/// run made on the 1st of November did not (outside figures test, user 9).
final class SignUpAfterPeriodTests: XCTestCase {
    let october = Period.month(containing: CivilDate(year: 2026, month: 10, day: 1))

    func testAUserWhoSignedUpAfterThePeriodHasNoStatementForIt() throws {
        let ledger = try TestLedger()
        let early = try ledger.user("early", createdAt: "2025-03-01T09:00:00Z")
        // 31 October 23:30 in Rome is 22:30 UTC: signed up within the month, in their own zone.
        let lastEvening = try ledger.user("lastevening", timezone: "Europe/Rome", createdAt: "2026-10-31T22:30:00Z")
        // 1 November 00:30 in Rome (23:30 UTC on 31 October): after the month, in their own zone.
        let firstNight = try ledger.user("firstnight", timezone: "Europe/Rome", createdAt: "2026-10-31T23:30:00Z")
        let december = try ledger.user("december", createdAt: "2026-12-02T10:00:00Z")
        _ = try ledger.expense(early, 1250, on: "2026-10-03")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("signup-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let settings = ReportSettings(ledgerPath: ledger.path, ledgerSHA256: String(repeating: "0", count: 64),
                                      period: october, asOf: CivilDate(year: 2026, month: 12, day: 5), formats: [.csv])
        let run = try MonthlyRun.run(MonthlyRun.Options(settings: settings, outFolder: out), log: RunLog(quiet: true))
        let manifest = try Manifest.decode(Data(contentsOf: URL(fileURLWithPath: run.manifestPath)))
        XCTAssertEqual(manifest.users.map(\.id), [early, lastEvening])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/2026-10/users/\(firstNight)-firstnight"))

        // Named with --users, the operator asked for them: written.
        let named = try MonthlyRun.run(MonthlyRun.Options(settings: settings, outFolder: out + "/named", userIds: [december]),
                                       log: RunLog(quiet: true))
        XCTAssertEqual(try Manifest.decode(Data(contentsOf: URL(fileURLWithPath: named.manifestPath))).users.map(\.id), [december])
    }
}
