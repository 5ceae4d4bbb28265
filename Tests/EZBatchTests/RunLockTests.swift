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
        XCTAssertTrue(shard.stderr.contains("another run (monthly, pid \(whole.processIdentifier)) holds '\(period)'"), shard.stderr)
        whole.waitUntilExit()
        XCTAssertEqual(whole.terminationStatus, 0)

        let shardRun = try CLI.start(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet", "--shard", "0/2", "--force"]),
                                     stdoutFile: out + "/../s.out", stderrFile: out + "/../s.err")
        defer { if shardRun.isRunning { kill(shardRun.processIdentifier, SIGKILL) } }
        _ = try Self.waitForHolder(period + "/.lock-0-of-2", process: shardRun)
        let wholeAgain = try CLI.run(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet"]))
        XCTAssertEqual(wholeAgain.status, 1, wholeAgain.stderr)
        // Shards write no pid into the folder's shared lock: the refusal names the shard's, from its own.
        XCTAssertTrue(wholeAgain.stderr.contains("another run (monthly, pid \(shardRun.processIdentifier)) holds '\(period)'"), wholeAgain.stderr)
        shardRun.waitUntilExit()
        XCTAssertEqual(shardRun.terminationStatus, 0)
    }

    /// `deliver` and `admin` take the period's lock too: a `monthly` refused while `deliver` mails
    /// the period said "another run is writing", and sent the operator looking for a second
    /// monthly (outside faults test). The refusal names the holder's command.
    func testARunRefusedWhileDeliverHoldsTheFolderNamesDeliver() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("lock-deliver")
        let period = out + "/" + fixture.period
        try FileManager.default.createDirectory(atPath: period, withIntermediateDirectories: true)
        let held = try RunLock(folder: period, shard: nil, waitSeconds: 0, command: "deliver")
        XCTAssertEqual(try String(contentsOfFile: period + "/.lock", encoding: .utf8), "\(getpid()) deliver\n")
        let refused = try CLI.run(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet"]))
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(refused.stderr, "ezreport: another run (deliver, pid \(getpid())) holds '\(period)'; "
                                       + "wait for it to finish or pass --wait SECONDS\n")
        _ = held
    }

    /// A lock file written by an older ezreport holds only a pid: the refusal still names it.
    func testALockFileWithOnlyAPidStillNamesTheHolder() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("lock-old-holder")
        let period = out + "/" + fixture.period
        try FileManager.default.createDirectory(atPath: period, withIntermediateDirectories: true)
        let fd = open(period + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        _ = "\(getpid())\n".withCString { pwrite(fd, $0, strlen($0), 0) }
        let refused = try CLI.run(fixture.monthly(out: out, ["--formats", "pdf", "--jobs", "1", "--quiet"]))
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("another run (pid \(getpid())) holds '\(period)'"), refused.stderr)
    }

    /// Waits until the lock file names a pid (the holder writes it right after locking).
    static func waitForHolder(_ lockFile: String, process: Process, timeout: Double = 30) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: lockFile, encoding: .utf8),
               let first = text.split(whereSeparator: \.isWhitespace).first, let pid = Int32(first) {
                return pid
            }
            guard process.isRunning else { throw XCTSkip("the first run finished before it could be observed holding the lock") }
            usleep(2_000)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "no pid in \(lockFile) after \(timeout) s"])
    }
}
