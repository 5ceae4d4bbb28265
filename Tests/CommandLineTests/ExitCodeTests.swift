import EZBatch
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// Every exit code a scheduler can see, each with one clear line on standard error, and the
/// ledger left untouched by every command.
final class ExitCodeTests: XCTestCase {
    var fixture: SampleFixture!

    override func setUpWithError() throws {
        fixture = try SampleFixture.shared()
    }

    /// The ledger's bytes and modification time, to compare before and after a command.
    func stamp(_ path: String) throws -> (Data, Date) {
        (try Data(contentsOf: URL(fileURLWithPath: path)),
         try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date)
    }

    /// Asserts the run failed with `status` and exactly one line on stderr containing `text`.
    func assertFails(_ args: [String], _ status: Int32, mentioning text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try CLI.run(args)
        XCTAssertEqual(run.status, status, "\(args): \(run.stderr)", file: file, line: line)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.count, 1, "one clear line on stderr, got: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.contains(text), "stderr lacks '\(text)': \(run.stderr)", file: file, line: line)
    }

    /// A copy of the sample ledger in which one live user's row gets `assignment` (SQL such as
    /// `timezone = 'Mars/Olympus_Mons'`): the user with the lowest id, or the highest with `last`.
    func copyWithOneUserChanged(_ name: String, _ assignment: String, last: Bool = false) throws -> (ledger: String, user: Int64) {
        let ledger = try fixture.copyOfLedger(name)
        let user: Int64 = try DatabaseQueue(path: ledger).write { db in
            let order = last ? "DESC" : "ASC"
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE deleted_at IS NULL AND role = 'user' ORDER BY id \(order) LIMIT 1")!
            try db.execute(sql: "UPDATE users SET \(assignment) WHERE id = ?", arguments: [id])
            return id
        }
        return (ledger, user)
    }

    func testCleanRunExitsZero() throws {
        let out = SampleFixture.scratch("exit0")
        let run = try CLI.run(fixture.monthly(out: out, ["--formats", "csv", "--quiet"]))
        XCTAssertEqual(run.status, 0, run.stderr)
        // Quiet: the summary line only.
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.hasPrefix("users "), run.stderr)
        XCTAssertEqual(try OutputTree.manifest(out + "/" + fixture.period).totals.failed, 0)
    }

    func testUserWhoseRowCannotBeReadFailsAloneWithExitTwo() throws {
        let (ledger, victim) = try copyWithOneUserChanged("exit2", "timezone = 'Mars/Olympus_Mons'", last: true)
        let out = SampleFixture.scratch("exit2-out")
        let before = try stamp(ledger)
        // --quiet, as the documented systemd unit runs it: the failure is still logged (it used to be hidden).
        let run = try CLI.run(["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                               "--formats", "csv", "--quiet"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("user failed") && run.stderr.contains("user=\(victim)"), run.stderr)
        let manifest = try OutputTree.manifest(out + "/" + fixture.period)
        let entry = try XCTUnwrap(manifest.users.first { $0.id == victim })
        XCTAssertEqual(entry.status, .failed)
        XCTAssertTrue(entry.error?.contains("Mars/Olympus_Mons") ?? false, entry.error ?? "no error")
        XCTAssertTrue(entry.files.isEmpty)
        XCTAssertEqual(manifest.totals.failed, 1)
        XCTAssertEqual(manifest.totals.ok, manifest.users.count - 1, "the run went on for everyone else")
        XCTAssertTrue(manifest.users.filter { $0.id != victim }.allSatisfy { $0.status == .ok && !$0.files.isEmpty })
        let after = try stamp(ledger)
        XCTAssertEqual(after.0, before.0); XCTAssertEqual(after.1, before.1)
    }

    func testQuarantinedRowsExitThreeAndAreListedForTheirUser() throws {
        let ledger = try fixture.copyOfLedger("exit3")
        let (user, row): (Int64, Int64) = try DatabaseQueue(path: ledger).write { db in
            let r = try Row.fetchOne(db, sql: """
                SELECT id, user_id FROM transactions WHERE group_id IS NULL AND deleted_at IS NULL
                  AND occurred_at >= '2026-09-05' AND occurred_at < '2026-09-25' ORDER BY id LIMIT 1
                """)!
            try db.execute(sql: "UPDATE transactions SET currency = 'ZZZ' WHERE id = ?", arguments: [r[0] as Int64])
            return (r[1], r[0])
        }
        let out = SampleFixture.scratch("exit3-out")
        let run = try CLI.run(["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                               "--formats", "csv", "--quiet"])
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("quarantined rows 1"), run.stderr)
        let manifest = try OutputTree.manifest(out + "/" + fixture.period)
        let entry = try XCTUnwrap(manifest.users.first { $0.id == user })
        XCTAssertEqual(entry.status, .ok)
        XCTAssertEqual(entry.quarantined.map(\.table), ["transactions"])
        XCTAssertEqual(entry.quarantined.map(\.id), [row])
        XCTAssertTrue(entry.quarantined[0].reason.contains("ZZZ"), entry.quarantined[0].reason)
        XCTAssertEqual(manifest.totals.quarantinedRows, 1)
        let rows = try CSVReader.rows(out + "/" + fixture.period + "/" + entry.folder + "/transactions.csv")
        XCTAssertFalse(rows.contains { $0["id"] == String(row) }, "a quarantined row is left out of the figures")
        // The admin report alone leaves the same row out and says so with the same exit code.
        let admin = try CLI.run(["admin", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out + "/admin-only"])
        XCTAssertEqual(admin.status, 3, admin.stderr)
        XCTAssertTrue(admin.stderr.contains("1 row was quarantined (left out of the figures)"), admin.stderr)
    }

    /// Rows that belong to no user's statement make every command that is affected by them exit
    /// 3, as `check` does: a rate row breaking the contract (every conversion went without it)
    /// for monthly, export and admin, which used to exit 0 and, for export, say "Quarantined rows
    /// 0"; a transaction of a user that does not exist for monthly and admin (no export shows it).
    func testRowsOfNoUserAreQuarantinedAlikeByEveryCommand() throws {
        let rates = try fixture.copyOfLedger("rate-row-bad")
        let orphan = try fixture.copyOfLedger("orphan-row")
        try DatabaseQueue(path: rates).write { db in
            try db.execute(sql: "UPDATE exchange_rates SET rate = -1.08 WHERE rowid = (SELECT MIN(rowid) FROM exchange_rates)")
        }
        try DatabaseQueue(path: orphan).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE transactions SET user_id = 999999 WHERE id = (SELECT MIN(id) FROM transactions WHERE deleted_at IS NULL)")
        }
        let user = try XCTUnwrap(try DatabaseQueue(path: rates).read { db in
            try Int64.fetchOne(db, sql: "SELECT MIN(id) FROM users WHERE deleted_at IS NULL AND role = 'user'")
        })
        for (ledger, exportStatus) in [(rates, Int32(3)), (orphan, Int32(0))] {
            let out = SampleFixture.scratch("rows-of-no-user")
            let runs: [(String, [String], Int32)] = [
                ("check", ["check", "--db", ledger], 3),
                ("monthly", ["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out + "/m",
                             "--formats", "csv", "--quiet"], 3),
                ("export", ["export", "--db", ledger, "--user", "\(user)", "--period", fixture.period, "--as-of", fixture.asOf,
                            "--format", "xlsx", "--out", out + "/e"], exportStatus),
                ("admin", ["admin", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out + "/a"], 3),
            ]
            for (name, args, status) in runs {
                let run = try CLI.run(args)
                XCTAssertEqual(run.status, status, "\(name) on \(ledger): \(run.stderr)")
            }
        }
    }

    /// The usage workbook's About sheet counts the rows its figures left out: one transaction of
    /// a user and one rate row breaking the contract. It said "Quarantined rows 0" whatever the
    /// ledger held, from `monthly` and `admin` alike, while both exited 3 for those rows.
    func testTheUsageWorkbookCountsTheRowsItLeftOut() throws {
        let ledger = try fixture.copyOfLedger("usage-quarantine")
        try DatabaseQueue(path: ledger).write { db in
            try db.execute(sql: "UPDATE exchange_rates SET rate = -1.08 WHERE rowid = (SELECT MIN(rowid) FROM exchange_rates)")
            try db.execute(sql: """
                UPDATE transactions SET currency = 'ZZZ' WHERE id = (SELECT MIN(id) FROM transactions
                 WHERE group_id IS NULL AND deleted_at IS NULL AND occurred_at >= '2026-09-05' AND occurred_at < '2026-09-25')
                """)
        }
        let out = SampleFixture.scratch("usage-quarantine")
        let monthly = try CLI.run(["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out + "/m",
                                   "--formats", "xlsx", "--quiet"])
        XCTAssertEqual(monthly.status, 3, monthly.stderr)
        XCTAssertTrue(monthly.stderr.contains("quarantined rows 2"), monthly.stderr)
        let admin = try CLI.run(["admin", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out + "/a"])
        XCTAssertEqual(admin.status, 3, admin.stderr)
        for folder in [out + "/m/" + fixture.period, out + "/a/" + fixture.period] {
            let script = """
                import sys, openpyxl
                about = openpyxl.load_workbook(sys.argv[1])["About"]
                facts = {r[0]: r[1] for r in about.iter_rows(values_only=True) if len(r) > 1 and r[0]}
                print(facts["Quarantined rows"])
                """
            let count = String(decoding: try CLI.tool("/usr/bin/env", ["python3", "-c", script, folder + "/admin/usage.xlsx"]), as: UTF8.self)
            XCTAssertEqual(count.trimmingCharacters(in: .whitespacesAndNewlines), "2", folder)
        }
    }

    /// `--users` naming no live user used to run over nobody, exit 0, and replace the folder's
    /// manifest with an empty one. It is now one line and exit 1, the folder left as it was.
    func testUsersThatDoNotExistAreNamedAndTheFolderIsLeftAlone() throws {
        let out = SampleFixture.scratch("unknown-users")
        XCTAssertEqual(try CLI.run(fixture.monthly(out: out, ["--formats", "csv", "--quiet"])).status, 0)
        let manifest = out + "/" + fixture.period + "/manifest.json"
        let before = try Data(contentsOf: URL(fileURLWithPath: manifest))
        try assertFails(fixture.monthly(out: out, ["--formats", "csv", "--users", "999998,999999"]), 1,
                        mentioning: "no user '999998, 999999' in ledger")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: manifest)), before)
        // Into an output folder with no run yet, nothing at all is written (the period folder and
        // its `.lock` were left behind).
        let fresh = SampleFixture.scratch("unknown-users-fresh")
        try assertFails(fixture.monthly(out: fresh, ["--formats", "csv", "--users", "999999"]), 1, mentioning: "no user '999999' in ledger")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fresh + "/" + fixture.period))
    }

    func testNotADatabaseExitsOne() throws {
        let junk = SampleFixture.scratch("junk") + "/ledger.sqlite"
        try Data("this is not a database, just text\n".utf8).write(to: URL(fileURLWithPath: junk))
        let out = SampleFixture.scratch("exit1-out")
        try assertFails(["monthly", "--db", junk, "--period", "2026-09", "--out", out], 1, mentioning: junk)
        try assertFails(["monthly", "--db", out + "/missing.sqlite", "--period", "2026-09", "--out", out], 1, mentioning: "missing.sqlite")
        try assertFails(["export", "--db", junk, "--user", "1", "--period", "2026-09", "--format", "pdf", "--out", "-"], 1, mentioning: junk)
        try assertFails(["admin", "--db", junk, "--period", "2026-09", "--out", out], 1, mentioning: junk)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "nothing written")
    }

    /// With `--log-format json`, the error that ends a run is one JSON object like every other
    /// line (it was the one text line a log collector could not parse), still exit 1.
    func testAFatalErrorIsAJSONLineWhenTheLogIsJSON() throws {
        let out = SampleFixture.scratch("exit1-json")
        let missing = out + "/missing.sqlite"
        for quiet in [[], ["--quiet"]] {
            let run = try CLI.run(["monthly", "--db", missing, "--period", "2026-09", "--out", out, "--log-format", "json"] + quiet)
            XCTAssertEqual(run.status, 1, run.stderr)
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, run.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data((lines.first ?? "").utf8)) as? [String: String], run.stderr)
            XCTAssertEqual(object["event"], "run failed")
            XCTAssertTrue(object["reason"]?.contains(missing) == true, run.stderr)
        }
    }

    func testUnwritableOutputFolderExitsOne() throws {
        // A regular file where the output folder should be: no folder can be made under it (even as root).
        let blocker = SampleFixture.scratch("blocked") + "/not-a-folder"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        let before = try stamp(fixture.ledger)
        try assertFails(fixture.monthly(out: blocker, ["--formats", "csv"]), 1, mentioning: "not-a-folder")
        try assertFails(["admin", "--db", fixture.ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", blocker],
                        1, mentioning: "not-a-folder")
        try assertFails(["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period,
                         "--as-of", fixture.asOf, "--format", "csv", "--out", blocker + "/x"], 1, mentioning: "not-a-folder")
        let after = try stamp(fixture.ledger)
        XCTAssertEqual(after.0, before.0); XCTAssertEqual(after.1, before.1)
    }

    /// A negative number given to a numeric option reaches that option's own check, which names
    /// the range; it is not read as the next option ("Missing value for '--wait'").
    func testNegativeNumbersReachTheirOptionsCheck() throws {
        let db = fixture.ledger
        let out = SampleFixture.scratch("exit64-negative")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--wait", "-1", "--out", out], 64, mentioning: "--wait takes")
        try assertFails(["sample", "--out", out + "/x.sqlite", "--users", "-1"], 64, mentioning: "--users must be")
        try assertFails(["sample", "--out", out + "/x.sqlite", "--months", "-3"], 64, mentioning: "--months must be")
        try assertFails(["token", "--user", "-1", "--jwt-secret-file", db], 64, mentioning: "positive user id")
        try assertFails(["serve", "--db", db, "--jwt-secret-file", db, "--port", "-1"], 64, mentioning: "invalid --port -1")
        try assertFails(["serve", "--db", db, "--jwt-secret-file", db, "--max-concurrent", "-2"], 64, mentioning: "invalid --max-concurrent -2")
        try assertFails(["serve", "--db", db, "--jwt-secret-file", db, "--max-connections", "-2"], 64, mentioning: "invalid --max-connections -2")
        try assertFails(["deliver", "--db", db, "--period", "2026-09", "--out", out, "--dry-run", out, "--from", "ezwallet@example.com", "--smtp-timeout", "-5"], 64, mentioning: "--smtp-timeout takes")
        try assertFails(["deliver", "--db", db, "--period", "2026-09", "--out", out, "--dry-run", out, "--from", "ezwallet@example.com", "--rate", "-1"], 64, mentioning: "--rate must be")
    }

    func testBadArgumentsExitSixtyFour() throws {
        let db = fixture.ledger
        let out = SampleFixture.scratch("exit64")
        try assertFails(["monthly", "--db", db, "--period", "2026-13", "--out", out], 64, mentioning: "2026-13")
        try assertFails(["monthly", "--db", db, "--period", "someday", "--out", out], 64, mentioning: "someday")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--formats", "pdf,docx", "--out", out], 64, mentioning: "docx")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--shard", "3/2", "--out", out], 64, mentioning: "--shard")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--shard", "1", "--out", out], 64, mentioning: "--shard")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--jobs", "0", "--out", out], 64, mentioning: "--jobs")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--jobs", "-1", "--out", out], 64, mentioning: "at least 1")
        try assertFails(["sample", "--out", out + "/x.sqlite", "--months", "100000"], 64, mentioning: "--months")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--users", "1,x", "--out", out], 64, mentioning: "--users")
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--as-of", "2026-02-30", "--out", out], 64, mentioning: "2026-02-30")
        try assertFails(["monthly", "--db", db, "--log-format", "xml", "--out", out], 64, mentioning: "--log-format")
        try assertFails(["monthly", "--period", "2026-09"], 64, mentioning: "--db")
        try assertFails(["export", "--db", db, "--user", "1", "--period", "2026-09", "--format", "docx"], 64, mentioning: "docx")
        try assertFails(["admin", "--db", db, "--period", "2026-09", "--currency", "euro"], 64, mentioning: "--currency")
        try assertFails(["frobnicate"], 64, mentioning: "frobnicate")
        // An empty --out (an unset $OUT in a cron line) would write under /<period>.
        try assertFails(["monthly", "--db", db, "--period", "2026-09", "--out", ""], 64, mentioning: "--out")
        try assertFails(["admin", "--db", db, "--period", "2026-09", "--out", ""], 64, mentioning: "--out")
        try assertFails(["export", "--db", db, "--user", "1", "--period", "2026-09", "--out", " "], 64, mentioning: "--out")
        // Periods a statement's trend and comparison cannot reach back from: refused, not a trap.
        try assertFails(["monthly", "--db", db, "--period", "0001-01", "--out", out], 64, mentioning: "1900")
        try assertFails(["export", "--db", db, "--user", "1", "--period", "last-month", "--as-of", "0001-01-01"], 64, mentioning: "1900")
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/2026-09"), "nothing was written at the root")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "bad arguments write nothing")
    }

    func testAShardCountNearTheIntegerLimitSelectsUsersWithoutOverflow() throws {
        let out = SampleFixture.scratch("bigshard")
        let run = try CLI.run(fixture.monthly(out: out, ["--formats", "csv", "--quiet", "--shard", "1/9223372036854775807"]))
        XCTAssertEqual(run.status, 0, run.stderr)
        let manifest = try OutputTree.manifest(out + "/" + fixture.period, name: "manifest.shard-1-of-9223372036854775807.json")
        XCTAssertEqual(manifest.users.map(\.id), [1], "only the user whose id is 1 modulo N")
    }

    func testAFullStandardOutputIsOneLineAndExitOne() throws {
        let args = ["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period,
                    "--as-of", fixture.asOf, "--format", "pdf", "--out", "-"]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try CLI.executable())
        process.arguments = args
        process.standardOutput = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, stderr)
        XCTAssertEqual(stderr.split(separator: "\n").count, 1, stderr)
        XCTAssertTrue(stderr.hasPrefix("ezreport: cannot write 'standard output'") && stderr.contains("No space left"), stderr)
    }

    func testAUserWithALimitNearTheIntegerLimitGetsEveryFile() throws {
        let (ledger, user) = try copyWithOneUserChanged("hugelimit", "monthly_limit_minor = 9223372036854775806")
        let out = SampleFixture.scratch("hugelimit-out")
        let run = try CLI.run(["export", "--db", ledger, "--user", "\(user)", "--period", fixture.period, "--as-of", fixture.asOf,
                               "--format", "all", "--out", out])
        XCTAssertTrue([0, 2, 3].contains(run.status), "no trap: \(run.status) \(run.stderr)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/statement.pdf"), run.stderr)
    }

    func testEveryCommandLeavesTheLedgerBytesAndModificationTimeUnchanged() throws {
        let before = try stamp(fixture.ledger)
        let out = SampleFixture.scratch("untouched")
        let commands: [[String]] = [
            fixture.monthly(out: out, ["--formats", "csv", "--quiet"]),
            fixture.monthly(out: out, ["--formats", "csv", "--quiet", "--force", "--jobs", "2"]),
            fixture.monthly(out: out, ["--formats", "csv", "--quiet", "--shard", "1/2"]),
            ["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period, "--as-of", fixture.asOf,
             "--format", "all", "--out", out + "/export"],
            ["admin", "--db", fixture.ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out + "/admin"],
            ["check", "--db", fixture.ledger],
        ]
        for args in commands {
            let run = try CLI.run(args)
            XCTAssertEqual(run.status, 0, "\(args.prefix(1)): \(run.stderr)")
            let after = try stamp(fixture.ledger)
            XCTAssertEqual(after.0, before.0, "\(args.prefix(1)) changed the ledger's bytes")
            XCTAssertEqual(after.1, before.1, "\(args.prefix(1)) changed the ledger's modification time")
        }
        let dir = (fixture.ledger as NSString).deletingLastPathComponent
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ledger.sqlite-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/ledger.sqlite-journal"))
    }
}

/// What an earlier run of a folder wrote for users who are gone.
final class StaleUserFolderTests: XCTestCase {
    /// A deleted user's statement (e-mail, transactions) stayed published in the folder after a
    /// re-run, and a renamed user kept their old folder beside the new one: both are removed.
    func testARerunRemovesTheFoldersOfDeletedAndRenamedUsers() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger("stale-folders")
        let out = SampleFixture.scratch("stale-folders-out")
        let args = ["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                    "--formats", "csv", "--quiet"]
        XCTAssertTrue([0, 3].contains(try CLI.run(args).status))
        let users = out + "/" + fixture.period + "/users"
        let (deleted, renamed) = try DatabaseQueue(path: ledger).write { db -> (Int64, Int64) in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM users WHERE deleted_at IS NULL AND role = 'user' ORDER BY id LIMIT 2")
            try db.execute(sql: "UPDATE users SET deleted_at = '2026-10-20T00:00:00Z' WHERE id = ?", arguments: [ids[0]])
            try db.execute(sql: "UPDATE users SET username = 'renamed.user' WHERE id = ?", arguments: [ids[1]])
            return (ids[0], ids[1])
        }
        let operatorFile = users + "/README.txt"   // not a user folder: left alone
        XCTAssertTrue(FileManager.default.createFile(atPath: operatorFile, contents: Data("notes".utf8)), "could not create \(operatorFile)")
        XCTAssertTrue([0, 3].contains(try CLI.run(args).status))
        let names = try FileManager.default.contentsOfDirectory(atPath: users)
        XCTAssertFalse(names.contains { $0.hasPrefix("\(deleted)-") }, "the deleted user's folder is still there: \(names)")
        XCTAssertEqual(names.filter { $0.hasPrefix("\(renamed)-") }, ["\(renamed)-renamed.user"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: operatorFile))
        let manifest = try OutputTree.manifest(out + "/" + fixture.period)
        XCTAssertEqual(Set(names.filter { $0 != "README.txt" }), Set(manifest.users.map { String($0.folder.dropFirst("users/".count)) }))
    }
}
