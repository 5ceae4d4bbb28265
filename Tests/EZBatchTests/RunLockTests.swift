import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// One `monthly` run per period folder (and shard) at a time: a second run exits 1 at once naming
/// the folder and the holder's pid, or waits with `--wait`; a killed holder never leaves a stale lock.
final class RunLockTests: XCTestCase {
    func testASecondRunExitsOneNamingTheFolderAndTheHolderAndAWaitingRunFollows() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("lock-out")
        let period = out + "/" + fixture.period
        let args = fixture.monthly(out: out, ["--formats", "all", "--jobs", "1", "--quiet"])
        let holder = try CLI.start(args, stdoutFile: out + "/../lock-a.out", stderrFile: out + "/../lock-a.err")
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        let pid = try Self.waitForHolder(period + "/.lock", process: holder)
        XCTAssertEqual(pid, holder.processIdentifier)

        let refused = try CLI.run(args)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.hasPrefix("ezreport: "), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("'\(period)'"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pid \(holder.processIdentifier)"), refused.stderr)
        XCTAssertTrue(holder.isRunning, "the refused run must not have waited for the holder")

        let waiting = try CLI.run(args + ["--wait", "300"])
        holder.waitUntilExit()
        XCTAssertEqual(holder.terminationStatus, 0, (try? String(contentsOfFile: out + "/../lock-a.err", encoding: .utf8)) ?? "")
        XCTAssertEqual(waiting.status, 0, waiting.stderr)
        let manifest = try OutputTree.manifest(period)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: waiting.stderr), manifest.users.count,
                       "the waiting run started after the holder finished, so it found everything done")
    }

    func testARunKilledWhileHoldingTheLockLeavesNoStaleLock() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("lock-kill-out")
        let period = out + "/" + fixture.period
        let args = fixture.monthly(out: out, ["--formats", "pdf,csv", "--jobs", "1", "--quiet"])
        let holder = try CLI.start(args, stdoutFile: out + "/../kill-a.out", stderrFile: out + "/../kill-a.err")
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        _ = try Self.waitForHolder(period + "/.lock", process: holder)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        XCTAssertEqual(holder.terminationReason, .uncaughtSignal)

        let next = try CLI.run(args)   // no --wait: the kernel released the dead holder's lock
        XCTAssertEqual(next.status, 0, next.stderr)
        let manifest = try OutputTree.manifest(period)
        XCTAssertTrue(manifest.users.allSatisfy { $0.status == .ok })
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/.snapshot.sqlite"), "the killed run's snapshot copy was left")
    }

    func testShardsOfOneFolderDoNotWaitForEachOther() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("lock-shards")
        let period = out + "/" + fixture.period
        let first = try CLI.start(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet", "--shard", "0/2"]),
                                  stdoutFile: out + "/../s0.out", stderrFile: out + "/../s0.err")
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        _ = try Self.waitForHolder(period + "/.lock-0-of-2", process: first)
        let second = try CLI.run(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet", "--shard", "1/2"]))
        XCTAssertEqual(second.status, 0, second.stderr)
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
    }

    /// A whole run writes every shard's users: it used to run beside a shard of its folder, and
    /// the finished manifest then listed files the shard had replaced. Each now excludes the other.
    func testAWholeRunAndAShardOfTheSameFolderExcludeEachOther() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("lock-whole-shard")
        let period = out + "/" + fixture.period
        let whole = try CLI.start(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet"]),
                                  stdoutFile: out + "/../w.out", stderrFile: out + "/../w.err")
        defer { if whole.isRunning { kill(whole.processIdentifier, SIGKILL) } }
        _ = try Self.waitForHolder(period + "/.lock", process: whole)
        let shard = try CLI.run(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet", "--shard", "1/2"]))
        XCTAssertEqual(shard.status, 1, shard.stderr)
        XCTAssertTrue(shard.stderr.contains("another run is writing '\(period)'"), shard.stderr)
        whole.waitUntilExit()
        XCTAssertEqual(whole.terminationStatus, 0)

        let shardRun = try CLI.start(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet", "--shard", "0/2", "--force"]),
                                     stdoutFile: out + "/../s.out", stderrFile: out + "/../s.err")
        defer { if shardRun.isRunning { kill(shardRun.processIdentifier, SIGKILL) } }
        _ = try Self.waitForHolder(period + "/.lock-0-of-2", process: shardRun)
        let wholeAgain = try CLI.run(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet"]))
        XCTAssertEqual(wholeAgain.status, 1, wholeAgain.stderr)
        // Shards write no pid into the folder's shared lock: the refusal names the shard's, from its own.
        XCTAssertTrue(wholeAgain.stderr.contains("another run is writing '\(period)' (pid \(shardRun.processIdentifier))"), wholeAgain.stderr)
        shardRun.waitUntilExit()
        XCTAssertEqual(shardRun.terminationStatus, 0)
    }

    /// Waits until the lock file names a pid (the holder writes it right after locking).
    static func waitForHolder(_ lockFile: String, process: Process, timeout: Double = 30) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: lockFile, encoding: .utf8),
               let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            guard process.isRunning else { throw XCTSkip("the first run finished before it could be observed holding the lock") }
            usleep(2_000)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no pid in \(lockFile) after \(timeout) s"])
    }
}
