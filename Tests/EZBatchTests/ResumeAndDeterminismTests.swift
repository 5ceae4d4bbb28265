import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// Runs that must end with the same bytes: killed and resumed, one job or two, two shards.
final class ResumeAndDeterminismTests: XCTestCase {
    var fixture: SampleFixture!

    override func setUpWithError() throws {
        fixture = try SampleFixture.shared()
    }

    func testRunKilledMidwayThenRerunGivesExactlyTheBytesOfACleanRun() throws {
        let clean = try fixture.cleanRun()
        XCTAssertEqual(clean.outcome.status, 0, clean.outcome.stderr)
        let out = SampleFixture.scratch("killed")
        let period = out + "/" + fixture.period
        let logs = SampleFixture.scratch("killed-logs")
        let process = try CLI.start(fixture.monthly(out: out, ["--jobs", "1", "--quiet"]),
                                    stdoutFile: logs + "/out", stderrFile: logs + "/err")
        // Kill once the second user's folder appears: the first user is finished, the rest are not.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            if ((try? FileManager.default.contentsOfDirectory(atPath: period + "/users")) ?? []).count >= 2 { break }
            usleep(20_000)
        }
        XCTAssertTrue(process.isRunning, "the run finished before it could be killed; the test proves nothing")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/manifest.json"), "killed before the manifest")

        // Whatever is under a final name is whole: byte-identical to the clean run's file.
        let cleanFiles = OutputTree.snapshot(clean.folder)
        let killed = OutputTree.snapshot(period)
        let finals = killed.keys.filter { !($0 as NSString).lastPathComponent.hasPrefix(".") }
        XCTAssertFalse(finals.isEmpty, "the first user's files were written before the kill")
        for path in finals {
            XCTAssertEqual(killed[path], cleanFiles[path], "\(path) under its final name differs from the clean run's")
        }

        let rerun = try CLI.run(fixture.monthly(out: out, ["--jobs", "1"]))
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let resumed = OutputTree.snapshot(period)
        XCTAssertEqual(resumed.keys.sorted(), cleanFiles.keys.sorted(), "no leftover .tmp- or journal file, nothing missing")
        for (path, data) in cleanFiles {
            XCTAssertEqual(resumed[path], data, "\(path) differs from the clean run")
        }
        XCTAssertFalse(resumed.keys.contains { $0.contains(".tmp-") })
        // The users finished before the kill were not redone.
        let skipped = try XCTUnwrap(Self.summaryCount("skipped", in: rerun.stderr), rerun.stderr)
        XCTAssertGreaterThanOrEqual(skipped, 1, "the re-run resumed rather than redoing everything")
    }

    func testOneJobAndTwoJobsWriteTheSameBytes() throws {
        let one = SampleFixture.scratch("jobs1"), two = SampleFixture.scratch("jobs2")
        let a = try CLI.run(fixture.monthly(out: one, ["--formats", "pdf,csv", "--jobs", "1", "--quiet"]))
        let b = try CLI.run(fixture.monthly(out: two, ["--formats", "pdf,csv", "--jobs", "2", "--quiet"]))
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(b.status, 0, b.stderr)
        let x = OutputTree.snapshot(one + "/" + fixture.period), y = OutputTree.snapshot(two + "/" + fixture.period)
        XCTAssertGreaterThan(x.count, 50)
        XCTAssertEqual(x.keys.sorted(), y.keys.sorted())
        for (path, data) in x { XCTAssertEqual(y[path], data, path) }
    }

    /// Shards run as separate processes into one folder, then merged: the merged manifest is the
    /// manifest a single run writes (users, admin and totals alike), and so are the files.
    func testTwoShardsMergedEqualOneRun() throws {
        let whole = SampleFixture.scratch("whole"), shared = SampleFixture.scratch("sharded")
        let formats = ["--formats", "pdf,csv", "--jobs", "1", "--quiet"]
        let single = try CLI.run(fixture.monthly(out: whole, formats))
        XCTAssertEqual(single.status, 0, single.stderr)

        let logs = SampleFixture.scratch("shard-logs")
        let shards = try (0..<2).map { k in
            try CLI.start(fixture.monthly(out: shared, formats + ["--shard", "\(k)/2"]),
                          stdoutFile: logs + "/out\(k)", stderrFile: logs + "/err\(k)")
        }
        for s in shards { s.waitUntilExit(); XCTAssertEqual(s.terminationStatus, 0) }
        let period = shared + "/" + fixture.period
        let m0 = try OutputTree.manifest(period, name: "manifest.shard-0-of-2.json")
        let m1 = try OutputTree.manifest(period, name: "manifest.shard-1-of-2.json")
        XCTAssertEqual(m0.shard, "0/2")
        XCTAssertEqual(m1.shard, "1/2")
        XCTAssertTrue(m0.users.allSatisfy { $0.id % 2 == 0 })
        XCTAssertTrue(m1.users.allSatisfy { $0.id % 2 == 1 })
        XCTAssertFalse(m0.users.isEmpty || m1.users.isEmpty)
        XCTAssertNotNil(m0.admin, "shard 0 writes the admin report")
        XCTAssertNil(m1.admin, "only shard 0 writes the admin report")
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/manifest.json"), "a shard does not write manifest.json")

        let merge = try CLI.run(["manifest", "merge", period + "/manifest.shard-0-of-2.json", period + "/manifest.shard-1-of-2.json",
                                 "--out", period + "/manifest.json"])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        let merged = try Data(contentsOf: URL(fileURLWithPath: period + "/manifest.json"))
        let expected = try Data(contentsOf: URL(fileURLWithPath: whole + "/" + fixture.period + "/manifest.json"))
        XCTAssertEqual(String(decoding: merged, as: UTF8.self), String(decoding: expected, as: UTF8.self))

        // The same files, byte for byte (the shard manifests and each run's hidden entry record aside).
        var files = OutputTree.snapshot(period)
        files["manifest.shard-0-of-2.json"] = nil
        files["manifest.shard-1-of-2.json"] = nil
        files[".entries-0-of-2.jsonl"] = nil
        files[".entries-1-of-2.jsonl"] = nil
        var single_ = OutputTree.snapshot(whole + "/" + fixture.period)
        single_[".entries.jsonl"] = nil
        XCTAssertEqual(files.keys.sorted(), single_.keys.sorted())
        for (path, data) in single_ { XCTAssertEqual(files[path], data, path) }

        // Merging to standard output gives the same bytes; overlapping shards are refused.
        let toStdout = try CLI.run(["manifest", "merge", period + "/manifest.shard-1-of-2.json", period + "/manifest.shard-0-of-2.json"])
        XCTAssertEqual(toStdout.stdout, merged)
        let overlap = try CLI.run(["manifest", "merge", period + "/manifest.shard-0-of-2.json", period + "/manifest.shard-0-of-2.json"])
        XCTAssertNotEqual(overlap.status, 0)
        XCTAssertTrue(overlap.stderr.contains("shard 0/2 is given twice"), overlap.stderr)
        // One shard alone would leave the other's users out: refused, unless asked for.
        let alone = try CLI.run(["manifest", "merge", period + "/manifest.shard-1-of-2.json"])
        XCTAssertEqual(alone.status, 1, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("no manifest for shard 0/2"), alone.stderr)
        XCTAssertTrue(alone.stdout.isEmpty)
        let allowed = try CLI.run(["manifest", "merge", "--allow-missing-shards", period + "/manifest.shard-1-of-2.json"])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
        XCTAssertEqual(try Manifest.decode(allowed.stdout).users.map(\.id), m1.users.map(\.id))
    }

    /// The number after `name` in the summary line (`users 24, skipped 3, …`).
    static func summaryCount(_ name: String, in log: String) -> Int? {
        guard let r = log.range(of: #"\b"# + name + #" (\d+)"#, options: .regularExpression) else { return nil }
        return Int(log[r].split(separator: " ").last!)
    }

    /// A shard killed mid-run leaves its journal and `.tmp-<pid>` files; the whole run after it only
    /// looked for its own journal, so it kept them for good (outside operations test).
    func testAKilledShardsLeftoversAreRemovedByTheWholeRunAfterIt() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann")
        try ledger.expense(ann, 1250, on: "2026-09-10T12:00:00+02:00", description: "lunch")
        let out = ledger.folder.appendingPathComponent("out").path
        let args = ["monthly", "--db", ledger.path, "--period", "2026-09", "--as-of", "2026-10-01", "--out", out, "--formats", "csv", "--quiet"]
        XCTAssertEqual(try CLI.run(args).status, 0)
        let period = out + "/2026-09"
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let manifest = try OutputTree.manifest(period)
        let leftover = period + "/" + manifest.users[0].folder + "/.transactions.csv.tmp-\(gone.processIdentifier)"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data("half".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: period + "/.journal-1-of-2.jsonl", contents: Data()))
        XCTAssertEqual(try CLI.run(args).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover), "the killed shard's leftover is removed")
    }
}

