import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// Re-runs skip users whose inputs and files are unchanged, redo exactly the changed ones, and
/// `--force` redoes everyone.
final class IncrementalRunTests: XCTestCase {
    func testRerunSkipsUnchangedUsersRedoesOnlyTheChangedOneAndForceRedoesAll() throws {
        let (fixture, ledger, out, args, period) = try Self.run(named: "incremental")

        let first = try CLI.run(args)
        XCTAssertEqual(first.status, 0, first.stderr)
        let users = try OutputTree.manifest(period).users.count
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: first.stderr), 0, first.stderr)
        let before = OutputTree.snapshot(period)
        let stamps = try Self.modificationTimes(period)

        // Nothing changed: everyone is skipped and no byte moves.
        let again = try CLI.run(args)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: again.stderr), users, again.stderr)
        XCTAssertEqual(OutputTree.snapshot(period), before)
        let afterSkip = try Self.modificationTimes(period)
        for (path, date) in stamps where path.hasPrefix("users/") {
            XCTAssertEqual(afterSkip[path], date, "\(path) was rewritten although its user was skipped")
        }

        // One user's row changes: that user alone is re-rendered.
        let manifest = try OutputTree.manifest(period)
        // The marked user is in no family, so no parent's report draws on their rows.
        let changed = try XCTUnwrap(manifest.users.first { $0.id == fixture.markedUser })
        try fixture.nudgeMarkedUsersExpense(in: ledger)
        let third = try CLI.run(args)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: third.stderr), users - 1, third.stderr)
        let afterChange = try OutputTree.manifest(period)
        let entry = try XCTUnwrap(afterChange.users.first { $0.id == changed.id })
        XCTAssertEqual(entry.expensesMinor, changed.expensesMinor! + 100, "the changed user's figures were recomputed")
        XCTAssertNotEqual(entry.fingerprint, changed.fingerprint)
        let now = OutputTree.snapshot(period)
        XCTAssertNotEqual(now[changed.folder + "/transactions.csv"], before[changed.folder + "/transactions.csv"])
        for u in manifest.users where u.id != changed.id {
            XCTAssertEqual(afterChange.users.first { $0.id == u.id }, u, "user \(u.id)'s entry changed")
        }
        let times = try Self.modificationTimes(period)
        for (path, date) in stamps where path.hasPrefix("users/") && !path.hasPrefix(changed.folder + "/") {
            XCTAssertEqual(times[path], date, "\(path) was rewritten although only user \(changed.id) changed")
        }

        // A file damaged on disk makes its user be redone even though the ledger did not change.
        let victim = try XCTUnwrap(manifest.users.last { $0.id != changed.id })
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: period + "/" + victim.folder + "/categories.csv"))
        let repaired = try CLI.run(args)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: repaired.stderr), users - 1, repaired.stderr)
        XCTAssertEqual(OutputTree.snapshot(period)[victim.folder + "/categories.csv"], before[victim.folder + "/categories.csv"])

        // --force redoes everyone: the folder then equals a clean run of the changed ledger. (Before
        // it, the skipped users' PDFs still name the ledger SHA-256 of the run that wrote them:
        // the ledger file changed, their inputs did not.)
        let forced = try CLI.run(args + ["--force"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: forced.stderr), 0, forced.stderr)
        let fresh = SampleFixture.scratch("incremental-fresh")
        var cleanArgs = args
        cleanArgs[cleanArgs.firstIndex(of: out)!] = fresh
        XCTAssertEqual(try CLI.run(cleanArgs).status, 0)
        let forcedFiles = OutputTree.snapshot(period), freshFiles = OutputTree.snapshot(fresh + "/" + fixture.period)
        XCTAssertEqual(forcedFiles.keys.sorted(), freshFiles.keys.sorted())
        for (path, data) in freshFiles { XCTAssertEqual(forcedFiles[path], data, path) }
    }

    /// The app's rate feed adds a row after the period: no statement can use it, so a re-run (the
    /// scheduled job restarted the next day) skips everyone and no file changes. It re-rendered
    /// every user, and as each new PDF named the new ledger SHA-256, `deliver` sent everyone their
    /// statement again. A rate inside the period between currencies a user holds still redoes them.
    func testARateAddedAfterThePeriodRedoesNobody() throws {
        let (_, ledger, _, args, period) = try Self.run(named: "late-rate")
        XCTAssertEqual(try CLI.run(args).status, 0)
        let users = try OutputTree.manifest(period).users.count
        let before = OutputTree.snapshot(period)

        try SampleFixture.execute("INSERT INTO exchange_rates (day, base, quote, rate) VALUES ('2099-01-01', 'EUR', 'USD', 1.0811)", in: ledger)
        let again = try CLI.run(args)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: again.stderr), users, again.stderr)
        // The manifest names the new ledger and the admin report is recomputed; no user's file moves.
        let userFiles = { (tree: [String: Data]) in tree.filter { $0.key.hasPrefix("users/") } }
        XCTAssertEqual(userFiles(OutputTree.snapshot(period)), userFiles(before), "a file changed although no figure could")

        // A rate in the period for a pair someone uses is an input: they are redone.
        let lastDay = try OutputTree.manifest(period).periodEnd
        try SampleFixture.execute("INSERT OR REPLACE INTO exchange_rates (day, base, quote, rate) SELECT ?, base, quote, rate * 1.5 FROM exchange_rates LIMIT 1",
                                  [lastDay], in: ledger)
        let third = try CLI.run(args)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertLessThan(try XCTUnwrap(ResumeAndDeterminismTests.summaryCount("skipped", in: third.stderr)), users, third.stderr)
    }

    /// A run of listed users (an operator's fix-up) replaced the entries record with its own users':
    /// the next whole run found no earlier entry for anyone else and rendered them all again; after
    /// any ledger change (a sign-in row) their PDFs named the new SHA-256, and `deliver` e-mailed
    /// every user a second time. The record keeps the others' entries, so they are skipped.
    func testAWholeRunAfterARunOfListedUsersRedoesNobodyElse() throws {
        let (fixture, ledger, _, args, period) = try Self.run(named: "listed-then-whole")
        XCTAssertEqual(try CLI.run(args).status, 0)
        let users = try OutputTree.manifest(period).users
        let before = OutputTree.snapshot(period)
        let fixed = try XCTUnwrap(users.first { $0.id == fixture.markedUser })
        try SampleFixture.execute("INSERT INTO logins (user_id, at) VALUES (?, '2026-10-01T08:00:00Z')", [fixed.id], in: ledger)
        let listed = try CLI.run(args + ["--users", "\(fixed.id)"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual(try OutputTree.manifest(period).users.map(\.id), [fixed.id], "the listed run's manifest lists its user only")
        let whole = try CLI.run(args)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: whole.stderr), users.count, whole.stderr)
        let after = OutputTree.snapshot(period)
        for (path, data) in before where path.hasPrefix("users/") && !path.hasPrefix(fixed.folder + "/") {
            XCTAssertEqual(after[path], data, "\(path) was rendered again")
        }
    }

    /// A copy of the sample ledger, the `monthly` arguments of a run of it into a fresh folder, and
    /// that run's period folder.
    /// A re-run with fewer formats (pdf,xlsx,csv,png then pdf) left the first run's workbook, CSV
    /// files, charts and admin files beside the new PDFs, out of the manifest and showing older
    /// figures (outside test). Each user's folder, and the admin folder, now hold exactly the
    /// files the manifest lists; a file of the operator's own in a folder is left alone.
    func testARerunWithFewerFormatsLeavesOnlyTheManifestsFiles() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger("fewer-formats")
        let out = SampleFixture.scratch("fewer-formats-out")
        let period = out + "/" + fixture.period
        func run(_ formats: String) throws {
            let result = try CLI.run(["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                                      "--formats", formats, "--jobs", "2", "--quiet"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        try run("pdf,xlsx,csv,png")
        let someone = try XCTUnwrap(try OutputTree.manifest(period).users.first).folder
        try Data("mine".utf8).write(to: URL(fileURLWithPath: period + "/" + someone + "/notes.txt"))
        try run("pdf")
        let manifest = try OutputTree.manifest(period)
        var listed = Set(manifest.users.flatMap { $0.files.map(\.path) })
        listed.formUnion(manifest.admin?.files.map(\.path) ?? [])
        // The run's own journal and lock are hidden files, not reports.
        let onDisk = Set(OutputTree.snapshot(period).keys.filter { !($0 as NSString).lastPathComponent.hasPrefix(".") })
            .subtracting(["manifest.json", someone + "/notes.txt"])
        XCTAssertEqual(onDisk.subtracting(listed).sorted(), [], "files out of the manifest")
        XCTAssertTrue(listed.allSatisfy { $0.hasSuffix(".pdf") }, "\(listed.sorted())")
        XCTAssertNotNil(FileManager.default.contents(atPath: period + "/" + someone + "/notes.txt"), "an operator's file was removed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/" + someone + "/charts"), "an emptied charts folder stays")
    }

    private static func run(named name: String) throws
        -> (fixture: SampleFixture, ledger: String, out: String, args: [String], period: String) {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger(name)
        let out = SampleFixture.scratch(name + "-out")
        let args = ["monthly", "--db", ledger, "--period", fixture.period, "--as-of", fixture.asOf, "--out", out,
                    "--formats", "pdf,csv", "--jobs", "2", "--quiet"]
        return (fixture, ledger, out, args, out + "/" + fixture.period)
    }

    static func modificationTimes(_ folder: String) throws -> [String: Date] {
        var out: [String: Date] = [:]
        for path in OutputTree.snapshot(folder).keys {
            out[path] = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.modificationDate] as? Date
        }
        return out
    }
}
