import EZBatch
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// `ezreport export`: one user's statement on demand, to a folder or to standard output.
final class ExportCommandTests: XCTestCase {
    var fixture: SampleFixture!

    override func setUpWithError() throws {
        fixture = try SampleFixture.shared()
    }

    func export(_ user: String, _ extra: [String]) throws -> CLI.Outcome {
        try CLI.run(["export", "--db", fixture.ledger, "--user", user, "--period", fixture.period, "--as-of", fixture.asOf] + extra)
    }

    func testPDFAndXLSXGoToStandardOutputWithTheirMagicBytes() throws {
        let pdf = try export("\(fixture.markedUser)", ["--format", "pdf", "--out", "-"])
        XCTAssertEqual(pdf.status, 0, pdf.stderr)
        XCTAssertEqual(pdf.stdout.prefix(5), Data("%PDF-".utf8))
        XCTAssertTrue(String(decoding: pdf.stdout.suffix(32), as: UTF8.self).contains("%%EOF"), "the whole PDF, not a part")
        let xlsx = try export("\(fixture.markedUser)", ["--format", "xlsx", "--out", "-"])
        XCTAssertEqual(xlsx.status, 0, xlsx.stderr)
        XCTAssertEqual(xlsx.stdout.prefix(4), Data([0x50, 0x4B, 0x03, 0x04]))
        XCTAssertEqual(xlsx.stderr, "")
    }

    func testExportToStandardOutputEqualsTheMonthlyRunsFile() throws {
        let clean = try fixture.cleanRun()
        let entry = try XCTUnwrap(try OutputTree.manifest(clean.folder).users.first { $0.id == fixture.markedUser })
        let pdf = try export("\(fixture.markedUser)", ["--format", "pdf", "--out", "-"])
        XCTAssertEqual(pdf.stdout, FileManager.default.contents(atPath: clean.folder + "/" + entry.folder + "/statement.pdf"))
    }

    func testALibqpdfThatCannotBeLoadedFailsOnlyThePDFInOneLine() throws {
        // libqpdf is loaded when the first PDF is completed (it is not linked): a broken one found
        // first on the library path is named, no statement.pdf appears, and the formats that do not
        // need it still export.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-noqpdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = ["LD_LIBRARY_PATH": folder.path]
        for soname in ["libqpdf.so.28", "libqpdf.so.29", "libqpdf.so.30", "libqpdf.so"] {
            try Data("not a shared object".utf8).write(to: folder.appendingPathComponent(soname))
        }
        let out = folder.appendingPathComponent("out").path
        let base = ["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period, "--as-of", fixture.asOf]
        let pdf = try CLI.run(base + ["--format", "pdf", "--out", out], environment: broken)
        XCTAssertNotEqual(pdf.status, 0, pdf.stderr)
        XCTAssertTrue(pdf.stderr.hasPrefix("ezreport: ") && pdf.stderr.contains("qpdf: loading libqpdf failed: ")
                      && pdf.stderr.contains(folder.path + "/libqpdf.so"), pdf.stderr)
        XCTAssertEqual(pdf.stderr.split(separator: "\n").count, 1, pdf.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".pdf") }, [])
        let csv = try CLI.run(base + ["--format", "csv", "--out", out], environment: broken)
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/transactions.csv"))
        let healthy = try CLI.run(base + ["--format", "pdf", "--out", out])
        XCTAssertEqual(healthy.status, 0, healthy.stderr)
    }

    /// Under a file-size limit (`ulimit -f`, systemd's LimitFSIZE=) the process was ended by
    /// SIGXFSZ mid-write, with no message and its temporary file left in the folder.
    func testAWriteOverTheFileSizeLimitIsOneLineNamingTheFileAndLeavesNoTemporaryFile() throws {
        for (format, limit, file) in [("pdf", 24, "statement.pdf"), ("xlsx", 6, "statement.xlsx"), ("csv", 1, "transactions.csv")] {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-fsize-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let folder = scratch.appendingPathComponent("out").path
            let run = try CLI.run(["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period,
                                   "--as-of", fixture.asOf, "--format", format, "--out", folder], fileSizeLimitKiB: limit)
            XCTAssertEqual(run.status, 1, "\(format): \(run.stderr)")
            // libxlsxwriter prints its own "[ERROR]" lines first; ezreport's is one line.
            let ours = run.stderr.split(separator: "\n").filter { $0.hasPrefix("ezreport:") }
            XCTAssertEqual(ours.count, 1, run.stderr)
            XCTAssertTrue(ours.first?.hasPrefix("ezreport: cannot write '\(folder)/\(file)': ") ?? false, run.stderr)
            XCTAssertTrue(ours.first?.hasSuffix("File too large") ?? false, "\(format): \(run.stderr)")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            XCTAssertFalse(left.contains { $0.contains(".tmp-") }, "\(format): \(left)")
            XCTAssertFalse(left.contains(file), "\(format): no part of the file appears")
        }
    }

    /// Under an address-space limit (`ulimit -v`) too low for its threads and libraries, a
    /// command was aborted by GLib (`Error creating thread`, SIGTRAP, exit 133) or by a failed
    /// allocation, with no line of ours (outside scale test). It is refused at once, with one line
    /// that names the limit and what to use instead; `--version` still answers.
    func testAnAddressSpaceLimitTooLowToRunIsRefusedWithOneLine() throws {
        let run = try CLI.run(["export", "--db", fixture.ledger, "--user", "\(fixture.markedUser)", "--period", fixture.period,
                               "--as-of", fixture.asOf, "--format", "pdf", "--out", "-"], shellSetUp: "ulimit -v 400000")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stdout.isEmpty)
        XCTAssertEqual(run.stderr, "ezreport: the address-space limit (ulimit -v) is 390 MiB; ezreport needs at least 1024 MiB "
            + "of address space (threads and libraries reserve far more than they use): raise it, and limit memory with a "
            + "cgroup instead (systemd's MemoryMax=, a container's memory limit)\n")
        let version = try CLI.run(["--version"], shellSetUp: "ulimit -v 400000")
        XCTAssertEqual(version.status, 0, version.stderr)
        let enough = try CLI.run(["--version"], shellSetUp: "ulimit -v 1048576")
        XCTAssertEqual(enough.status, 0, enough.stderr)
    }

    func testCSVOrPNGToStandardOutputIsRejectedWithExitSixtyFour() throws {
        for format in ["csv", "png", "all"] {
            let run = try export("\(fixture.markedUser)", ["--format", format, "--out", "-"])
            XCTAssertEqual(run.status, 64, format)
            XCTAssertTrue(run.stdout.isEmpty)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("--out -"), run.stderr)
        }
    }

    func testExportByUsernameAndByIdWriteTheSameFiles() throws {
        let db = try DatabaseQueue(path: fixture.ledger, configuration: { var c = Configuration(); c.readonly = true; return c }())
        // The hostile '../../etc' user, by name: the export lands in the folder given, nowhere else.
        let (id, name): (Int64, String) = try db.read { db in
            let r = try Row.fetchOne(db, sql: "SELECT id, username FROM users WHERE username = '../../etc'")!
            return (r[0], r[1])
        }
        let byId = SampleFixture.scratch("export-id"), byName = SampleFixture.scratch("export-name")
        let a = try export("\(id)", ["--format", "csv", "--out", byId])
        let b = try export(name, ["--format", "csv", "--out", byName])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(b.status, 0, b.stderr)
        let x = OutputTree.snapshot(byId), y = OutputTree.snapshot(byName)
        XCTAssertTrue(x.keys.contains("transactions.csv"), "\(x.keys.sorted())")
        XCTAssertEqual(x, y)
        XCTAssertEqual(a.text.split(separator: "\n").map(String.init), x.keys.sorted().map { byId + "/" + $0 }.sorted(),
                       "export prints the paths it wrote")
        // The same bytes as the monthly run's CSV files for that user.
        let clean = try fixture.cleanRun()
        let entry = try XCTUnwrap(try OutputTree.manifest(clean.folder).users.first { $0.id == id })
        for (path, data) in x {
            XCTAssertEqual(FileManager.default.contents(atPath: clean.folder + "/" + entry.folder + "/" + path), data, path)
        }
    }

    /// Without --out, the folder used to be named after the --user text: `a/b` and `a_b` (two
    /// people) wrote into one folder, and one person had a folder per spelling. It is now the
    /// user's `<id>-<safe-username>`, as in a monthly run.
    func testTheDefaultFolderIsTheUsersOwnWhateverTheUserWasCalled() throws {
        let ledger = try fixture.copyOfLedger("export-names")
        let ids = try DatabaseQueue(path: ledger).write { db -> [Int64] in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM users WHERE deleted_at IS NULL AND role = 'user' ORDER BY id LIMIT 2")
            try db.execute(sql: "UPDATE users SET username = 'a/b' WHERE id = ?", arguments: [ids[0]])
            try db.execute(sql: "UPDATE users SET username = 'a_b' WHERE id = ?", arguments: [ids[1]])
            return ids
        }
        let work = SampleFixture.scratch("export-default-folder")
        for user in ["a/b", "a_b", "\(ids[0])"] {
            let run = try CLI.run(["export", "--db", ledger, "--user", user, "--period", fixture.period, "--as-of", fixture.asOf,
                                   "--format", "csv"], in: work)
            XCTAssertTrue([0, 3].contains(run.status), run.stderr)
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: work + "/Reports/exports/" + fixture.period).sorted()
        XCTAssertEqual(folders, ["\(ids[0])-a_b", "\(ids[1])-a_b"].sorted())
    }

    /// `last-month` for a user paid on the 25th, as of 28 September 2026 (after their payday):
    /// `monthly` wrote their `2026-09` (25 Aug – 24 Sep) into the folder `2026-08`, where a run
    /// with `--period 2026-08` writes their `2026-08`, so two runs put two different statements
    /// in one folder; `export` did the same under `Reports/exports/2026-08`. A run's folder now
    /// holds each user's month of that name, and an export's folder is named by the month the user got.
    func testLastMonthOfAPaydayUserIsTheMonthItsFolderIsNamedFor() throws {
        let (payday, calendar): (Int64, Int64) = try DatabaseQueue(path: fixture.ledger).read { db in
            let p = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE deleted_at IS NULL AND month_start_day = 25 ORDER BY id LIMIT 1")
            let c = try Int64.fetchOne(db, sql: """
                SELECT id FROM users WHERE deleted_at IS NULL AND role = 'user' AND IFNULL(month_start_day, 1) = 1 ORDER BY id LIMIT 1
                """)
            return (try XCTUnwrap(p), try XCTUnwrap(c))
        }
        let work = SampleFixture.scratch("payday-last-month")
        let users = "\(payday),\(calendar)"
        for (out, period) in [("relative", "last-month"), ("named", "2026-08")] {
            let run = try CLI.run(["monthly", "--db", fixture.ledger, "--period", period, "--as-of", "2026-09-28", "--out", work + "/" + out,
                                   "--users", users, "--formats", "csv,xlsx", "--quiet"])
            XCTAssertTrue([0, 3].contains(run.status), run.stderr)
        }
        let relative = OutputTree.snapshot(work + "/relative/2026-08").filter { !$0.key.hasPrefix("manifest") && !$0.key.hasPrefix(".") }
        let named = OutputTree.snapshot(work + "/named/2026-08").filter { !$0.key.hasPrefix("manifest") && !$0.key.hasPrefix(".") }
        XCTAssertFalse(relative.isEmpty)
        XCTAssertEqual(relative.keys.sorted(), named.keys.sorted())
        for (path, bytes) in relative {
            XCTAssertEqual(bytes, named[path], "\(path): last-month and 2026-08 wrote different statements into one folder")
        }
        let manifest = try OutputTree.manifest(work + "/relative/2026-08")
        let entry = try XCTUnwrap(manifest.users.first { $0.id == payday })
        let dates = try CSVReader.rows(work + "/relative/2026-08/" + entry.folder + "/transactions.csv").compactMap { $0["date"] }
        XCTAssertFalse(dates.isEmpty)
        XCTAssertTrue(dates.allSatisfy { $0 >= "2026-07-25" && $0 <= "2026-08-24" }, "\(dates.min() ?? "") … \(dates.max() ?? "")")
        // One user on demand: their own last month, in a folder named for it.
        let export = try CLI.run(["export", "--db", fixture.ledger, "--user", "\(payday)", "--period", "last-month",
                                  "--as-of", "2026-09-28", "--format", "csv"], in: work)
        XCTAssertTrue([0, 3].contains(export.status), export.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work + "/Reports/exports"), ["2026-09"])
        let exported = try CSVReader.rows(work + "/Reports/exports/2026-09/" + String(entry.folder.split(separator: "/").last ?? "") + "/transactions.csv").compactMap { $0["date"] }
        XCTAssertTrue(exported.allSatisfy { $0 >= "2026-08-25" && $0 <= "2026-09-24" }, "\(exported.min() ?? "") … \(exported.max() ?? "")")
    }

    func testUnknownOrDeletedUserExitsOneWithOneLine() throws {
        let deleted: Int64 = try DatabaseQueue(path: fixture.ledger, configuration: { var c = Configuration(); c.readonly = true; return c }())
            .read { try Int64.fetchOne($0, sql: "SELECT id FROM users WHERE deleted_at IS NOT NULL LIMIT 1")! }
        for user in ["no-such-user", "\(deleted)"] {
            let run = try export(user, ["--format", "pdf", "--out", "-"])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stdout.isEmpty)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(user), run.stderr)
        }
    }
}
