import EZBatch
import EZLedger
import EZTestSupport
import Foundation
import GRDB
import Synchronization
import XCTest

/// The batch against a ledger its app is writing: a commit still in the WAL is seen by a re-run,
/// and one run reads one snapshot for every user and the admin report, whatever `--jobs` is.
final class LiveLedgerTests: XCTestCase {
    func testARerunSeesACommitThatIsStillInTheWAL() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger("wal")
        // The app: a WAL ledger with its connection open and no automatic checkpoint, so that commits
        // stay in ledger.sqlite-wal and the main file's bytes do not move.
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        let app = try DatabaseQueue(path: ledger, configuration: config)
        defer { try? app.close() }
        try app.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }

        let out = SampleFixture.scratch("wal-out")
        let args = ["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                    "--formats", "csv", "--jobs", "2", "--quiet"]
        let period = out + "/" + fixture.period
        let first = try CLI.run(args)
        XCTAssertEqual(first.status, 0, first.stderr)
        let firstManifest = try OutputTree.manifest(period)
        let before = try XCTUnwrap(firstManifest.users.first { $0.id == fixture.markedUser })
        let mainFile = try FileDigest.sha256(ofFile: ledger, cache: nil)

        try app.write { db in
            try db.execute(sql: """
                UPDATE transactions SET amount_minor = amount_minor + 100 WHERE id = (
                  SELECT id FROM transactions WHERE user_id = ? AND kind = 'expense' AND group_id IS NULL AND deleted_at IS NULL
                    AND occurred_at >= '2026-09-05' AND occurred_at < '2026-09-25' ORDER BY id LIMIT 1)
                """, arguments: [fixture.markedUser])
            XCTAssertEqual(db.changesCount, 1)
        }
        XCTAssertEqual(try FileDigest.sha256(ofFile: ledger, cache: nil), mainFile, "the commit must still be in the WAL for this test")

        let second = try CLI.run(args)
        XCTAssertEqual(second.status, 0, second.stderr)
        let manifest = try OutputTree.manifest(period)
        let after = try XCTUnwrap(manifest.users.first { $0.id == fixture.markedUser })
        XCTAssertEqual(after.expensesMinor, before.expensesMinor! + 100, "the re-run skipped a user whose row changed in the WAL")
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: second.stderr), manifest.users.count - 1, second.stderr)
        XCTAssertEqual(manifest.ledgerSha256, mainFile)
        XCTAssertEqual(manifest.snapshotSha256?.count, 64, "the manifest names the snapshot it read")
        XCTAssertNotEqual(manifest.snapshotSha256, firstManifest.snapshotSha256, "the snapshot's digest covers the WAL")
    }

    func testAJobs2RunReadsOneSnapshotForEveryUserAndTheAdminReportWhileTheAppWrites() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger("snapshot")
        var config = Configuration()
        config.busyMode = .timeout(10)   // as an app waits for a reader's lock
        let app = try DatabaseQueue(path: ledger, configuration: config)   // rollback-journal mode, as the sample is made
        defer { try? app.close() }
        let (first, last) = try app.read { db in
            (try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM users WHERE deleted_at IS NULL")!,
             try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM users WHERE deleted_at IS NULL")!)
        }
        let out = SampleFixture.scratch("snapshot-out")
        let period = out + "/" + fixture.period
        let args = ["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                    "--formats", "pdf,csv", "--jobs", "2", "--quiet", "--force"]
        let baseline = try CLI.run(args)
        XCTAssertEqual(baseline.status, 0, baseline.stderr)
        let base = try Figures(period, fixture.period, first, last)

        // The app adds one expense to the first and one to the last user in each commit, all through the run.
        let steps = Counter()
        let writer = Thread {
            while !steps.stopped {
                do {
                    try app.write { db in
                        for user in [first, last] { try Self.addExpense(db, user: user, minor: 1) }
                    }
                    steps.add()
                } catch {
                    steps.fail("\(error)")
                }
                usleep(5_000)
            }
        }
        writer.start()
        let run = try CLI.run(args)
        let committedBy = steps.value
        steps.stop()
        while !steps.finished { usleep(10_000) }
        XCTAssertNil(steps.failure, "the app's writes failed during the run")
        XCTAssertEqual(run.status, 0, run.stderr)
        let seen = try Figures(period, fixture.period, first, last)
        let k = Int(seen.firstExpenses - base.firstExpenses)
        XCTAssertEqual(Int(seen.lastExpenses - base.lastExpenses), k, "the first and the last user were read at different moments")
        XCTAssertEqual(seen.adminTransactions - base.adminTransactions, 2 * k, "the admin report was read at another moment")
        XCTAssertGreaterThan(committedBy, k, "the app did not write during the run: nothing was tested")
    }

    // MARK: - Helpers

    /// The figures the snapshot test compares: two users' expenses and the admin report's transaction count.
    private struct Figures {
        var firstExpenses: Int64
        var lastExpenses: Int64
        var adminTransactions: Int
        init(_ folder: String, _ month: String, _ first: Int64, _ last: Int64) throws {
            let manifest = try OutputTree.manifest(folder)
            firstExpenses = try XCTUnwrap(manifest.users.first { $0.id == first }?.expensesMinor)
            lastExpenses = try XCTUnwrap(manifest.users.first { $0.id == last }?.expensesMinor)
            let rows = try CSVReader.rows(folder + "/admin/usage.csv")
            adminTransactions = try XCTUnwrap(rows.first { $0["month"] == month }?["transactions"].flatMap { Int($0) })
        }
    }

    /// One expense of `minor` cents in the user's currency, on the user's first balance, in September 2026.
    static func addExpense(_ db: Database, user: Int64, minor: Int64) throws {
        let balance = try Row.fetchOne(db, sql: """
            SELECT b.id, b.currency FROM balances b JOIN users u ON u.id = b.user_id
            WHERE b.user_id = ? AND b.currency = u.currency ORDER BY b.id LIMIT 1
            """, arguments: [user])!
        try db.execute(sql: """
            INSERT INTO transactions (user_id, balance_id, kind, amount_minor, currency, occurred_at, method, description, created_at)
            VALUES (?, ?, 'expense', ?, ?, '2026-09-15T12:00:00+00:00', 'card', 'app write', '2026-09-15T12:00:00.000Z')
            """, arguments: [user, balance["id"] as Int64, minor, balance["currency"] as String])
    }

    /// Counts the app's commits across threads.
    private final class Counter: Sendable {
        private struct State { var count = 0, stop = false, done = false, error: String? }
        private let state = Mutex(State())
        var value: Int { state.withLock { $0.count } }
        /// Whether the writer should stop (and, once it has seen it, that it has).
        var stopped: Bool {
            state.withLock {
                if $0.stop { $0.done = true }
                return $0.stop
            }
        }
        var finished: Bool { state.withLock { $0.done } }
        var failure: String? { state.withLock { $0.error } }
        func add() { state.withLock { $0.count += 1 } }
        func stop() { state.withLock { $0.stop = true } }
        func fail(_ message: String) { state.withLock { $0.error = $0.error ?? message } }
    }
}
