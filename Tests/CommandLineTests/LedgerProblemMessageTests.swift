import EZTestSupport
import Foundation
import GRDB
import XCTest

/// A ledger that cannot be read is named in one clear line, whatever the command: a directory
/// given as `--db`, and a ledger whose app died mid-write (a hot rollback journal).
final class LedgerProblemMessageTests: XCTestCase {
    func testADirectoryAsDbIsCalledADirectoryByEveryCommand() throws {
        let folder = SampleFixture.scratch("db-is-a-folder")
        let out = SampleFixture.scratch("db-is-a-folder-out")
        for args in [["monthly", "--db", folder, "--period", "2026-09", "--out", out, "--quiet"],
                     ["export", "--db", folder, "--user", "1", "--period", "2026-09", "--format", "csv", "--out", out + "/x"],
                     ["admin", "--db", folder, "--period", "2026-09", "--out", out],
                     ["check", "--db", folder]] {
            let outcome = try CLI.run(args)
            XCTAssertEqual(outcome.status, 1, "\(args[0]): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr, "ezreport: cannot open ledger '\(folder)': it is a directory\n", args[0])
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing written")
    }

    /// Ledger text quoted in an error (a time zone holding a line break and terminal escapes)
    /// stays on its one line, escaped: it forged a whole `ezreport: progress …` line and sent
    /// `ESC[2J` to the operator's terminal from `export` and `monthly`.
    func testLedgerTextInAnErrorCannotForgeALineOrReachTheTerminal() throws {
        let ledger = try TestLedger()
        let user = try ledger.user("mallory", timezone: "Nope\nezreport: progress done=49 FORGED\n\u{1B}[2J\u{1B}]0;pwned\u{7}")
        let out = SampleFixture.scratch("log-forgery")
        for args in [["export", "--db", ledger.path, "--user", "\(user)", "--period", "2026-09", "--format", "csv", "--out", out + "/x"],
                     ["monthly", "--db", ledger.path, "--period", "2026-09", "--as-of", "2026-10-01", "--out", out, "--formats", "csv"]] {
            let run = try CLI.run(args)
            XCTAssertNotEqual(run.status, 0, args[0])
            XCTAssertFalse(run.stderr.contains("\u{1B}") || run.stderr.contains("\u{7}"), "\(args[0]): \(run.stderr)")
            XCTAssertFalse(run.stderr.split(separator: "\n").contains { $0.hasPrefix("ezreport: progress done=49") }, "\(args[0]): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("Nope\\nezreport: progress done=49 FORGED\\n\\u{1B}[2J"), "\(args[0]): \(run.stderr)")
        }
    }

    /// The run's snapshot copy of the ledger over the file-size limit: the process used to be
    /// ended by SIGXFSZ, and once that was an error, it read "SQLite error 10: not an error".
    func testASnapshotCopyOverTheFileSizeLimitSaysWhyAndLeavesNoCopy() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("snapshot-fsize")
        let run = try CLI.run(["monthly", "--db", fixture.ledger, "--period", fixture.period, "--as-of", fixture.asOf,
                               "--out", out, "--quiet"], fileSizeLimitKiB: 16)
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("ezreport: reading ledger '\(fixture.ledger)' failed: cannot copy a snapshot to '"), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(": disk I/O error: File too large\n"), run.stderr)
        let period = out + "/" + fixture.period
        let left = (try? FileManager.default.contentsOfDirectory(atPath: period)) ?? []
        XCTAssertFalse(left.contains { $0.hasPrefix(".snapshot") }, "\(left)")
    }

    /// A FIFO as `--db` used to hang export, monthly and admin for ever (opening it waits for a
    /// writer); a file that is not SQLite was hashed whole before being refused. Both are refused
    /// at once, in one line, by every command.
    func testAFIFOOrANonSQLiteFileIsRefusedAtOnceByEveryCommand() throws {
        let folder = SampleFixture.scratch("db-is-odd")
        let fifo = folder + "/ledger.fifo", junk = folder + "/junk.sqlite"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: junk))
        let out = SampleFixture.scratch("db-is-odd-out")
        for (db, message) in [(fifo, "ezreport: cannot open ledger '\(fifo)': not a regular file\n"),
                              (junk, "ezreport: '\(junk)' is not a usable SQLite ledger: file is not a database (it does not start with SQLite's header)\n")] {
            for args in [["monthly", "--db", db, "--period", "2026-09", "--out", out, "--quiet"],
                         ["export", "--db", db, "--user", "1", "--period", "2026-09", "--format", "csv", "--out", out + "/x"],
                         ["admin", "--db", db, "--period", "2026-09", "--out", out],
                         ["check", "--db", db]] {
                // Started, not run: a command that hangs is killed and fails the test, not CI.
                let stdout = folder + "/stdout-\(args[0])", stderr = folder + "/stderr-\(args[0])"
                let process = try CLI.start(args, stdoutFile: stdout, stderrFile: stderr)
                let deadline = Date().addingTimeInterval(30)
                while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
                if process.isRunning { process.terminate(); process.waitUntilExit(); XCTFail("\(args[0]) hangs on \(db)"); continue }
                XCTAssertEqual(process.terminationStatus, 1, args[0])
                XCTAssertEqual(try String(contentsOfFile: stderr, encoding: .utf8), message, args[0])
            }
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing written")
    }

    func testAHotJournalIsReportedAsAnUnfinishedWriteAndLeftAlone() throws {
        let fixture = try SampleFixture.shared()
        let live = try fixture.copyOfLedger("hot-live")
        let crashed = SampleFixture.scratch("hot-copy") + "/ledger.sqlite"
        // The app's state when it dies mid-transaction: the database and its journal, copied while the
        // transaction is open (a small page cache makes it spill changed pages into the file).
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = 10") }
        let app = try DatabaseQueue(path: live, configuration: config)
        try app.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE transactions SET description = COALESCE(description, '') || ' (edited)'")
            try FileManager.default.copyItem(atPath: live, toPath: crashed)
            try FileManager.default.copyItem(atPath: live + "-journal", toPath: crashed + "-journal")
            try db.execute(sql: "ROLLBACK")
        }
        try app.close()
        let journal = try Data(contentsOf: URL(fileURLWithPath: crashed + "-journal"))
        let database = try Data(contentsOf: URL(fileURLWithPath: crashed))
        let out = SampleFixture.scratch("hot-out")
        for args in [["monthly", "--db", crashed, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out, "--quiet"],
                     ["export", "--db", crashed, "--user", "1", "--period", fixture.period, "--format", "pdf", "--out", "-"],
                     ["check", "--db", crashed]] {
            let outcome = try CLI.run(args)
            XCTAssertEqual(outcome.status, 1, "\(args[0]): \(outcome.stderr)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
            XCTAssertTrue(outcome.stderr.contains("ledger '\(crashed)' has an unfinished write"), "\(args[0]): \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains("its app must recover first"), outcome.stderr)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: crashed + "-journal")), journal, "the journal was touched")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: crashed)), database, "the ledger was touched")
    }
}
