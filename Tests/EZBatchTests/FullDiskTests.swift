import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// On a full output file system the run stops starting users, keeps its journal, exits 1 with
/// one line, and a re-run (once there is room) resumes from the journal.
final class FullDiskTests: XCTestCase {
    private var mountPoint: String?

    override func tearDown() {
        if let mountPoint { _ = SystemCommand.run("/bin/umount", [mountPoint]) }
        super.tearDown()
    }

    func testAFullOutputFileSystemStopsTheRunCleanlyAndTheRerunResumes() throws {
        let fixture = try SampleFixture.shared()
        let ledgerBytes = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: fixture.ledger)[.size] as? Int)
        let folder = SampleFixture.scratch("full-disk")
        // Room for the run's snapshot copy and a handful of statements, not for all of them.
        let size = (ledgerBytes + 600 * 1024) / 4096 * 4096
        guard SystemCommand.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): the full-disk test did not run")
        }
        mountPoint = folder
        let period = folder + "/" + fixture.period
        let args = fixture.monthly(out: folder, ["--formats", "pdf,csv", "--jobs", "2", "--quiet"])

        let full = try CLI.run(args)
        XCTAssertEqual(full.status, 1, full.stderr)
        XCTAssertEqual(full.stderr.split(separator: "\n").count, 1, full.stderr)
        XCTAssertTrue(full.stderr.hasPrefix("ezreport: the output file system is full under '\(period)'"), full.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/manifest.json"), "an incomplete run wrote a manifest")
        let journal = try String(contentsOfFile: period + "/.journal.jsonl", encoding: .utf8)
        let journaled = journal.split(separator: "\n").filter { $0.contains("\"status\":\"ok\"") }.count
        let failed = journal.split(separator: "\n").filter { $0.contains("\"status\":\"failed\"") }.count
        XCTAssertGreaterThan(journaled, 0, "no user was finished before the disk filled: the test proves nothing")
        XCTAssertLessThanOrEqual(failed, 2, "the run went on starting users after the disk was full (one per worker may fail)")
        let allUsers = try OutputTree.manifest(try fixture.cleanRun().folder).users.count
        XCTAssertLessThan(journaled + failed, allUsers, "the disk never filled: the test proves nothing")

        XCTAssertEqual(SystemCommand.run("/bin/mount", ["-o", "remount,size=64m", folder]), 0)
        let resumed = try CLI.run(args)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertEqual(ResumeAndDeterminismTests.summaryCount("skipped", in: resumed.stderr), journaled, resumed.stderr)
        let manifest = try OutputTree.manifest(period)
        XCTAssertEqual(manifest.users.count, allUsers)
        XCTAssertTrue(manifest.users.allSatisfy { $0.status == .ok })
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/.journal.jsonl"))
    }

    /// A disk that fills while the run writes its last files (the entries record, the manifest)
    /// used to trap (exit 132, a stack trace): it now stops the run like a full disk anywhere else.
    func testADiskThatFillsWhileTheRunWritesItsManifestStopsTheRunCleanly() throws {
        let fixture = try SampleFixture.shared()
        let folder = SampleFixture.scratch("full-disk-end")
        guard SystemCommand.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", folder]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): the full-disk test did not run")
        }
        mountPoint = folder
        let period = folder + "/" + fixture.period
        let args = fixture.monthly(out: folder, ["--formats", "csv", "--jobs", "2", "--quiet"])
        XCTAssertEqual(try CLI.run(args).status, 0)
        // Every user is done; without a manifest the next run skips them all, journals them again
        // (about the entries record's size), then writes its last files: the entries record again and
        // the manifest. Leave room for the journal but not for the rest.
        try FileManager.default.removeItem(atPath: period + "/manifest.json")
        let entries = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: period + "/.entries.jsonl")[.size] as? Int)
        var info = statvfs()
        XCTAssertEqual(statvfs(folder, &info), 0)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let filler = (free - entries * 3 / 2) / 4096
        XCTAssertGreaterThan(filler, 0)
        XCTAssertEqual(SystemCommand.run("/bin/dd", ["if=/dev/zero", "of=\(folder)/filler", "bs=4096", "count=\(filler)"]), 0)

        let full = try CLI.run(args)
        XCTAssertEqual(full.status, 1, full.stderr)
        XCTAssertEqual(full.stderr.split(separator: "\n").count, 1, full.stderr)
        XCTAssertTrue(full.stderr.hasPrefix("ezreport: the output file system is full under '\(period)'"), full.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/manifest.json"))

        try FileManager.default.removeItem(atPath: folder + "/filler")
        let resumed = try CLI.run(args)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        XCTAssertTrue(try OutputTree.manifest(period).users.allSatisfy { $0.status == .ok })
    }
}
