import EZBatch
import EZCore
import EZLedger
import EZTestSupport
import Foundation
import Synchronization
import XCTest

/// A re-run over a ledger whose bytes (main file and WAL) are those of the last run takes no
/// snapshot at all; it takes one as soon as anything must be read, and then reuses the rest only
/// if that snapshot is still the last run's.
final class SnapshotReuseTests: XCTestCase {
    func testAnUnchangedLedgerIsNotCopiedAndADamagedFileTakesASnapshotForThatUserAlone() throws {
        let fixture = try SampleFixture.shared()
        let out = SampleFixture.scratch("snapshot-reuse")
        let asOf = try XCTUnwrap(CivilDate(iso: fixture.asOf))
        let settings = ReportSettings(ledgerPath: fixture.ledger, ledgerSHA256: try FileDigest.sha256(ofFile: fixture.ledger),
                                      period: try Period.parse(fixture.period, asOf: asOf), asOf: asOf, formats: [.csv])
        let options = MonthlyRun.Options(settings: settings, outFolder: out, jobs: 2)
        let first = try MonthlyRun.run(options, log: RunLog(quiet: true))
        XCTAssertEqual(first.exitCode, 0)
        XCTAssertGreaterThan(first.snapshotSeconds, 0, "a first run reads a snapshot")

        let second = try MonthlyRun.run(options, log: RunLog(quiet: true))
        XCTAssertEqual(second.snapshotSeconds, 0, "the ledger's bytes are unchanged: no copy")
        XCTAssertEqual(second.snapshotSha256, first.snapshotSha256, "the manifest names the snapshot its reports were read from")
        XCTAssertEqual(second.skipped, first.totals.users)

        let manifest = try OutputTree.manifest(first.periodFolder)
        let victim = try XCTUnwrap(manifest.users.first)
        try Data("damaged".utf8).write(to: URL(fileURLWithPath: first.periodFolder + "/" + victim.folder + "/transactions.csv"))
        let third = try MonthlyRun.run(options, log: RunLog(quiet: true))
        XCTAssertGreaterThan(third.snapshotSeconds, 0, "a user had to be read: from a snapshot")
        XCTAssertEqual(third.snapshotSha256, first.snapshotSha256)
        XCTAssertEqual(third.skipped, first.totals.users - 1, "only the damaged user was redone")
        XCTAssertEqual(try OutputTree.manifest(first.periodFolder), manifest, "the repaired run's manifest is the first's")
    }

    /// The app's atomic save (a rename over the ledger) just after a run opened the file: the run
    /// read the old file but keyed the new one, and the next run, finding that key unchanged,
    /// skipped everyone and kept the old figures for good. A run now keys only the file it opened.
    func testALedgerReplacedAsTheRunOpensItIsNeverMistakenForTheOneItRead() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger("replaced-at-start")
        let saved = ledger + ".saved"
        try FileManager.default.copyItem(atPath: ledger, toPath: saved)
        try fixture.nudgeMarkedUsersExpense(in: saved)
        final class Once: Sendable { let pending = Mutex(true) }
        let once = Once()
        let out = SampleFixture.scratch("replaced-at-start-out")
        let asOf = try XCTUnwrap(CivilDate(iso: fixture.asOf))
        let period = try Period.parse(fixture.period, asOf: asOf)
        let racing = ReportSettings(ledgerPath: ledger, ledgerSHA256: try FileDigest.sha256(ofFile: ledger),
                                    period: period, asOf: asOf, formats: [.csv], openLedger: {
            let opened = try Ledger(path: ledger)
            if once.pending.withLock({ let first = $0; $0 = false; return first }) {
                XCTAssertEqual(rename(saved, ledger), 0, "the app's save")
            }
            return opened
        })
        let first = try MonthlyRun.run(MonthlyRun.Options(settings: racing, outFolder: out, jobs: 2), log: RunLog(quiet: true))
        XCTAssertEqual(first.exitCode, 0)
        let before = try XCTUnwrap(try OutputTree.manifest(first.periodFolder).users.first { $0.id == fixture.markedUser })

        let settings = ReportSettings(ledgerPath: ledger, ledgerSHA256: try FileDigest.sha256(ofFile: ledger),
                                      period: period, asOf: asOf, formats: [.csv])
        let second = try MonthlyRun.run(MonthlyRun.Options(settings: settings, outFolder: out, jobs: 2), log: RunLog(quiet: true))
        XCTAssertEqual(second.exitCode, 0)
        let after = try XCTUnwrap(try OutputTree.manifest(first.periodFolder).users.first { $0.id == fixture.markedUser })
        XCTAssertEqual(after.expensesMinor, before.expensesMinor! + 100, "the saved ledger's figures, not the replaced one's")
        XCTAssertEqual(second.skipped, first.totals.users - 1, "only the changed user is redone")
    }

    /// The app's atomic save between the moment the command hashed the ledger and the moment the
    /// run opened it: the manifest's `ledger_sha256` (and every statement's About) named the file
    /// that was replaced, which the run never read (outside faults test). They now name the file
    /// the run opened.
    func testTheManifestNamesTheLedgerFileTheRunRead() throws {
        let fixture = try SampleFixture.shared()
        let ledger = try fixture.copyOfLedger("replaced-after-hashing")
        let hashedBefore = try FileDigest.sha256(ofFile: ledger)
        let saved = ledger + ".saved"
        try FileManager.default.copyItem(atPath: ledger, toPath: saved)
        try fixture.nudgeMarkedUsersExpense(in: saved)
        XCTAssertEqual(rename(saved, ledger), 0, "the app's save")
        let read = try FileDigest.sha256(ofFile: ledger)
        XCTAssertNotEqual(read, hashedBefore)
        let asOf = try XCTUnwrap(CivilDate(iso: fixture.asOf))
        let settings = ReportSettings(ledgerPath: ledger, ledgerSHA256: hashedBefore,
                                      period: try Period.parse(fixture.period, asOf: asOf), asOf: asOf, formats: [.csv, .xlsx])
        let out = SampleFixture.scratch("replaced-after-hashing-out")
        let run = try MonthlyRun.run(MonthlyRun.Options(settings: settings, outFolder: out, jobs: 2), log: RunLog(quiet: true))
        XCTAssertEqual(run.exitCode, 0)
        let manifest = try OutputTree.manifest(run.periodFolder)
        XCTAssertEqual(manifest.ledgerSha256, read)
        let marked = try XCTUnwrap(manifest.users.first { $0.id == fixture.markedUser })
        // The workbook's texts, unzipped by Python's zipfile.
        let texts = String(decoding: try CLI.tool("/usr/bin/env", ["python3", "-c",
            "import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('xl/sharedStrings.xml').decode())",
            run.periodFolder + "/" + marked.folder + "/statement.xlsx"]), as: UTF8.self)
        XCTAssertTrue(texts.contains(read), "the statement's About names the file read")
        XCTAssertFalse(texts.contains(hashedBefore))
    }
}
