import EZTestSupport
import Foundation
import XCTest

/// `ezreport sample`: deterministic bytes, no overwriting, clear argument errors.
final class SampleCommandTests: XCTestCase {
    func testTheSameArgumentsGiveAByteIdenticalFileAndAnotherSeedDoesNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let args = ["--users", "8", "--months", "2", "--end", "2026-10", "--seed", "5"]
        for name in ["a", "b"] {
            XCTAssertEqual(try CLI.run(["sample", "--out", folder.appendingPathComponent("\(name).sqlite").path] + args).status, 0)
        }
        XCTAssertEqual(try CLI.run(["sample", "--out", folder.appendingPathComponent("c.sqlite").path,
                                              "--users", "8", "--months", "2", "--end", "2026-10", "--seed", "6"]).status, 0)
        let a = try Data(contentsOf: folder.appendingPathComponent("a.sqlite"))
        XCTAssertEqual(a, try Data(contentsOf: folder.appendingPathComponent("b.sqlite")))
        XCTAssertNotEqual(a, try Data(contentsOf: folder.appendingPathComponent("c.sqlite")))
    }

    func testItRefusesToOverwriteAnExistingFile() throws {
        let ledger = try TestLedger()
        let before = try ledger.bytes()
        let run = try CLI.run(["sample", "--out", ledger.path, "--users", "3", "--months", "1", "--end", "2026-10"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertEqual(try ledger.bytes(), before)
    }

    func testABadEndMonthIsAUsageError() throws {
        let run = try CLI.run(["sample", "--out", "/tmp/never.sqlite", "--end", "2026-13"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("--end takes a month YYYY-MM"), run.stderr)
    }
}
