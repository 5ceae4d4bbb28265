@testable import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// `admin` writes into `<out>/<period>/admin/`, the folder a monthly run writes too: it takes the
/// period's run lock and leaves a run's manifested admin files alone. An outside tester ran the
/// README's `admin` after `monthly`: it rewrote usage.pdf and usage.xlsx (as of today), and the
/// manifest's `sha256sum --check` failed; during a `monthly --force` it wrote into the same folder.
final class AdminFolderTests: XCTestCase {
    var firstUser: Int64 = 0

    func ledger() throws -> TestLedger {
        let ledger = try TestLedger()
        for i in 0..<6 {
            let u = try ledger.user("user\(i)")
            if i == 0 { firstUser = u }
            _ = try ledger.expense(u, 1_000 + Int64(i), on: "2026-10-0\(i + 1)T10:00:00Z")
        }
        return ledger
    }

    func testAdminLeavesAMonthlyRunsManifestedFilesAlone() throws {
        let ledger = try ledger()
        let out = SampleFixture.scratch("admin-after-monthly")
        let monthly = try CLI.run(["monthly", "--db", ledger.path, "--period", "2026-10", "--as-of", "2026-11-01", "--out", out])
        XCTAssertEqual(monthly.status, 0, monthly.stderr)
        let pdf = out + "/2026-10/admin/usage.pdf"
        let before = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let admin = try CLI.run(["admin", "--db", ledger.path, "--period", "2026-10", "--as-of", "2026-11-20", "--out", out])
        XCTAssertEqual(admin.status, 1, admin.stderr)
        XCTAssertEqual(admin.stderr, "ezreport: '\(out)/2026-10' holds a monthly run whose manifest.json lists admin/: rewriting it would "
                                     + "break the manifest; run monthly for the period again (it rewrites both), or give admin another --out\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pdf)), before, "the manifested file is as the run wrote it")
        let elsewhere = SampleFixture.scratch("admin-elsewhere")
        let other = try CLI.run(["admin", "--db", ledger.path, "--period", "2026-10", "--as-of", "2026-11-20", "--out", elsewhere])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/2026-10/admin/usage.pdf"))
        // A run that wrote no admin report (some users only) leaves the folder's admin/ to `admin`.
        let some = SampleFixture.scratch("admin-after-some-users")
        XCTAssertEqual(try CLI.run(["monthly", "--db", ledger.path, "--period", "2026-10", "--as-of", "2026-11-01", "--out", some,
                                    "--users", "\(firstUser)"]).status, 0)
        XCTAssertEqual(try CLI.run(["admin", "--db", ledger.path, "--period", "2026-10", "--out", some]).status, 0)
    }

    func testAdminWaitsForNoOneAndRefusesAFolderARunHolds() throws {
        let ledger = try ledger()
        let out = SampleFixture.scratch("admin-locked")
        try FileManager.default.createDirectory(atPath: out + "/2026-10", withIntermediateDirectories: true)
        let held = try RunLock(folder: out + "/2026-10", shard: nil, waitSeconds: 0, command: "monthly")
        let admin = try CLI.run(["admin", "--db", ledger.path, "--period", "2026-10", "--out", out])
        XCTAssertEqual(admin.status, 1, admin.stderr)
        XCTAssertEqual(admin.stderr, "ezreport: another run (monthly, pid \(getpid())) holds '\(out)/2026-10'; "
                                     + "run admin when it has finished, or with another --out\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/2026-10/admin"), "nothing was written")
        _ = held
    }
}
