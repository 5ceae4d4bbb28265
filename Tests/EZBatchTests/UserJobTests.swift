import EZCore
import EZLedger
import EZTestSupport
import Foundation
import Synchronization
import XCTest
@testable import EZBatch

/// One user's part of a run: written and described when new, skipped when nothing changed and
/// the files are intact, redone when an input or a file changed or when forced, and a failure
/// recorded in the entry instead of stopping the run.
final class UserJobTests: XCTestCase {
    private var folder: String!
    private var ledger: TestLedger!
    private var alice: Int64!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("userjob-\(UUID().uuidString)").path
        ledger = try TestLedger()
        alice = try ledger.user("alice")
        _ = try ledger.expense(alice, 1250, on: "2026-10-03")
        _ = try ledger.income(alice, 90000, on: "2026-10-01")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func job(force: Bool = false) -> UserJob {
        let settings = ReportSettings(ledgerPath: ledger.path, ledgerSHA256: String(repeating: "0", count: 64),
                                      period: Period.month(containing: CivilDate(year: 2026, month: 10, day: 1)),
                                      asOf: CivilDate(year: 2026, month: 11, day: 1), formats: [.csv])
        return UserJob(settings: settings, periodFolder: folder, force: force)
    }

    /// The user's reference as a run plans it.
    private func ref(_ id: Int64) throws -> UserRef {
        try XCTUnwrap(try Ledger(path: ledger.path).userRefs().first { $0.id == id })
    }

    private func run(_ job: UserJob, previous: Manifest.UserEntry? = nil) throws -> UserJob.Outcome {
        job.run(user: try ref(alice), ledger: try Ledger(path: ledger.path), previous: previous)
    }

    func testAJobWhoseUserHasManyRowsWaitsForTheGateAloneBeforeReadingThem() throws {
        let gate = RenderGate(workers: 2)
        var configured = job()
        configured.gate = gate
        configured.largeStatementRows = 2   // alice has two transactions: her statement counts as large
        let large = configured
        let user = try ref(alice)
        let path = ledger.path
        let ordinary = gate.enter(exclusive: false)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<UserJob.Outcome?>(nil)
        Thread.detachNewThread {
            let result = try? large.run(user: user, ledger: Ledger(path: path), previous: nil)
            outcome.withLock { $0 = result }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 0.5), .timedOut, "a large statement waits for the render in progress")
        gate.leave(ordinary)
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(outcome.withLock { $0?.entry.status }, .ok)
        // The gate is free again: an ordinary render gets in at once.
        gate.leave(gate.enter(exclusive: false))
    }

    func testANewUserIsWrittenAndDescribed() throws {
        let outcome = try run(job())
        XCTAssertFalse(outcome.skipped)
        XCTAssertEqual(outcome.entry.status, .ok)
        XCTAssertEqual(outcome.entry.folder, "users/\(alice!)-alice")
        XCTAssertEqual(outcome.entry.incomeMinor, 90000)
        XCTAssertEqual(outcome.entry.expensesMinor, 1250)
        XCTAssertFalse(outcome.entry.files.isEmpty)
        XCTAssertTrue(UserJob.filesIntact(outcome.entry.files, in: folder))
        XCTAssertNotNil(outcome.entry.fingerprint)
    }

    func testAnUnchangedUserIsSkippedUnlessForced() throws {
        let first = try run(job())
        let again = try run(job(), previous: first.entry)
        XCTAssertTrue(again.skipped)
        XCTAssertEqual(again.entry, first.entry)
        XCTAssertFalse(try run(job(force: true), previous: first.entry).skipped, "--force redoes the user")
        XCTAssertEqual(job().reuse(user: try ref(alice), previous: first.entry), first.entry, "reused without reading the ledger")
        XCTAssertNil(job(force: true).reuse(user: try ref(alice), previous: first.entry))
    }

    func testAChangedRowOrADamagedFileRedoesTheUser() throws {
        let first = try run(job())
        try ledger.execute("UPDATE transactions SET amount_minor = 1300 WHERE user_id = ? AND kind = 'expense'", [alice])
        let changed = try run(job(), previous: first.entry)
        XCTAssertFalse(changed.skipped)
        XCTAssertEqual(changed.entry.expensesMinor, 1300)
        let file = try XCTUnwrap(changed.entry.files.first)
        try Data("tampered".utf8).write(to: URL(fileURLWithPath: folder + "/" + file.path))
        XCTAssertFalse(UserJob.filesIntact(changed.entry.files, in: folder))
        XCTAssertNil(job().reuse(user: try ref(alice), previous: changed.entry))
        let repaired = try run(job(), previous: changed.entry)
        XCTAssertFalse(repaired.skipped, "a damaged file is written again")
        XCTAssertTrue(UserJob.filesIntact(repaired.entry.files, in: folder))
    }

    func testAFailureIsRecordedInTheEntry() throws {
        // A user deleted after the run was planned cannot be loaded.
        let ghost = try ledger.user("ghost")
        let planned = try ref(ghost)
        try ledger.execute("UPDATE users SET deleted_at = '2026-11-01T00:00:00Z' WHERE id = ?", [ghost])
        let outcome = job().run(user: planned, ledger: try Ledger(path: ledger.path), previous: nil)
        XCTAssertEqual(outcome.entry.status, .failed)
        XCTAssertNotNil(outcome.entry.error)
        XCTAssertEqual(outcome.entry.files, [])
    }

    /// A user whose own row breaks the contract (here an unknown time zone) fails, and that row
    /// is the run's quarantine too: `check` counted it, the run's summary and totals did not.
    func testAUserWhoseOwnRowIsQuarantinedListsThatRow() throws {
        let lost = try ledger.user("lost")
        let planned = try ref(lost)
        try ledger.execute("UPDATE users SET timezone = 'Mars/Base' WHERE id = ?", [lost])
        let outcome = job().run(user: planned, ledger: try Ledger(path: ledger.path), previous: nil)
        XCTAssertEqual(outcome.entry.status, .failed)
        XCTAssertEqual(outcome.entry.quarantined, [Manifest.QuarantineEntry(table: "users", id: lost, reason: "unknown time zone 'Mars/Base'")])
    }
}
