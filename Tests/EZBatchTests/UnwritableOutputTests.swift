@testable import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// An output the machine stops letting the run write (a folder made read-only, no file
/// descriptors left) stops the run as a full disk does: one line, exit 1, the journal kept, no
/// manifest. It used to go on failing every user for the machine's reason and publish a manifest
/// of them (143 of 196 users "failed" after `chmod 555` mid-run, 49 of 49 at `ulimit -n 14`:
/// outside scale test), which `deliver` then recorded as failed deliveries.
final class UnwritableOutputTests: XCTestCase {
    private var mounts: [String] = []

    override func tearDown() {
        for mount in mounts.reversed() { _ = SystemCommand.run("/bin/umount", [mount]) }
        super.tearDown()
    }

    func testAUsersFolderThatTurnsReadOnlyStopsTheRunAndTheRerunResumes() throws {
        let fixture = try SampleFixture.shared()
        let folder = SampleFixture.scratch("read-only-users")
        guard SystemCommand.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", folder]) == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): the read-only output test did not run")
        }
        mounts.append(folder)
        let period = folder + "/" + fixture.period, users = period + "/users"
        try FileManager.default.createDirectory(atPath: users, withIntermediateDirectories: true)
        // The users folder alone read-only (EROFS), as a folder made unwritable while the run is
        // under way: the period folder, with the run's lock and journal, stays writable.
        XCTAssertEqual(SystemCommand.run("/bin/mount", ["--bind", users, users]), 0)
        mounts.append(users)
        XCTAssertEqual(SystemCommand.run("/bin/mount", ["-o", "remount,bind,ro", users]), 0)
        let args = fixture.monthly(out: folder, ["--formats", "pdf,csv", "--jobs", "2", "--quiet"])

        let stopped = try CLI.run(args)
        XCTAssertEqual(stopped.status, 1, stopped.stderr)
        XCTAssertEqual(stopped.stderr.split(separator: "\n").count, 1, stopped.stderr)
        XCTAssertTrue(stopped.stderr.hasPrefix("ezreport: the output folder '\(users)' cannot be written any more, so the run stopped ("),
                      stopped.stderr)
        XCTAssertTrue(stopped.stderr.hasSuffix("make it writable and run again: it resumes where it stopped\n"), stopped.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: period + "/manifest.json"), "a stopped run published a manifest")
        let journal = try String(contentsOfFile: period + "/.journal.jsonl", encoding: .utf8)
        let failed = journal.split(separator: "\n").filter { $0.contains("\"status\":\"failed\"") }.count
        XCTAssertLessThanOrEqual(failed, 2, "the run went on starting users (one per worker may fail)")

        XCTAssertEqual(SystemCommand.run("/bin/mount", ["-o", "remount,bind,rw", users]), 0)
        let resumed = try CLI.run(args)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let manifest = try OutputTree.manifest(period)
        XCTAssertEqual(manifest.users.count, try OutputTree.manifest(try fixture.cleanRun().folder).users.count)
        XCTAssertTrue(manifest.users.allSatisfy { $0.status == .ok })
    }

    /// libxlsxwriter says only "Error creating output xlsx file. Usually a permissions error." when
    /// it could not open its file: out of file descriptors, the run learns why by making a file.
    func testAFailureThatNamesNoSystemErrorIsTracedToNoFileDescriptorsLeft() throws {
        let folder = SampleFixture.scratch("no-descriptors")
        try FileManager.default.createDirectory(atPath: folder + "/users", withIntermediateDirectories: true)
        let reason = "Error creating output xlsx file. Usually a permissions error."
        XCTAssertNil(OutputSpace.stop(after: reason, folder: folder), "a writable folder: the user's own failure")

        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        var starved = saved
        starved.rlim_cur = 3
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &starved), 0)
        let stop = OutputSpace.stop(after: reason, folder: folder)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        XCTAssertEqual(stop, .outOfFileDescriptors(reason: "Too many open files"))
        XCTAssertEqual(OutputSpace.stop(after: "cannot write 'x.pdf': Too many open files", folder: folder),
                       .outOfFileDescriptors(reason: "cannot write 'x.pdf': Too many open files"))
        XCTAssertEqual(stop.map { "\($0)" }, "the process ran out of file descriptors, so the run stopped (Too many open files); "
            + "raise the limit (ulimit -n; LimitNOFILE= for a systemd unit) and run again: it resumes where it stopped")
    }
}
