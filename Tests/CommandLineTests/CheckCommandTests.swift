import EZTestSupport
import Foundation
import XCTest

/// `ezreport check`: a data-quality summary, exit 0 clean / 3 quarantined / 1 unusable file, and the
/// ledger untouched.
final class CheckCommandTests: XCTestCase {
    func testAGeneratedLedgerPassesCheck() throws {
        let folder = try temporaryFolder()
        let path = folder.appendingPathComponent("sample.sqlite").path
        let made = try CLI.run(["sample", "--out", path, "--users", "12", "--months", "3", "--end", "2026-10"])
        XCTAssertEqual(made.status, 0, made.stderr)
        let before = try fileState(path)
        let check = try CLI.run(["check", "--db", path])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.text.contains("Clean: no row breaks the ledger contract."), check.text)
        XCTAssertTrue(check.text.contains("transactions"), check.text)
        XCTAssertEqual(try fileState(path), before, "check changed the ledger")
    }

    func testQuarantinedRowsExitThreeGroupedByReasonWithTheirIds() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bad1 = try ledger.transaction(alice, kind: "refund", 100, on: "2026-10-02")
        let bad2 = try ledger.transaction(alice, kind: "rebate", 100, on: "2026-10-03")
        let bad3 = try ledger.expense(alice, 100, on: "yesterday")
        let before = try fileState(ledger.path)
        let check = try CLI.run(["check", "--db", ledger.path])
        XCTAssertEqual(check.status, 3, check.stderr)
        XCTAssertTrue(check.text.contains("Quarantined: 3 rows"), check.text)
        XCTAssertTrue(check.text.contains("2 × transactions: unknown kind '…' — ids \(bad1), \(bad2)"), check.text)
        XCTAssertTrue(check.text.contains("1 × transactions: occurred_at '…' is not an ISO-8601 timestamp — ids \(bad3)"), check.text)
        XCTAssertEqual(try fileState(ledger.path), before, "check changed the ledger")
    }

    /// A `statement_email` of 5 breaks the contract but is read by `deliver` alone: `check` names
    /// it and says it stops only the e-mail (it used to say "left out of every figure"), while the
    /// user's statement is made as usual and `export` exits 0 (outside audit).
    func testABadStatementEmailIsNamedAsStoppingOnlyTheEmail() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.expense(alice, 1_250, on: "2026-10-02")
        try ledger.execute("UPDATE users SET statement_email = 5 WHERE id = ?", [alice])
        let check = try CLI.run(["check", "--db", ledger.path])
        XCTAssertEqual(check.status, 3, check.stderr)
        XCTAssertTrue(check.text.contains("Quarantined: 1 rows (left out of every figure; 1 only stops the user's statement e-mail)"), check.text)
        XCTAssertTrue(check.text.contains("statement_email must be 0 or 1"), check.text)
        let out = try temporaryFolder().path
        let export = try CLI.run(["export", "--db", ledger.path, "--user", "\(alice)", "--period", "2026-10", "--as-of", "2026-11-01",
                                  "--format", "csv", "--out", out])
        XCTAssertEqual(export.status, 0, export.stderr)
    }

    func testAMonthStartDayOutsideOneToTwentyEightIsReported() throws {
        let ledger = try TestLedger()
        let paid = try ledger.user("paid"), late = try ledger.user("late"), fine = try ledger.user("fine")
        try ledger.execute("UPDATE users SET month_start_day = 31 WHERE id = ?", [late])
        try ledger.execute("UPDATE users SET month_start_day = 25 WHERE id = ?", [paid])
        try ledger.execute("UPDATE users SET month_start_day = NULL WHERE id = ?", [fine])
        let check = try CLI.run(["check", "--db", ledger.path])
        XCTAssertEqual(check.status, 3, check.stderr)
        XCTAssertTrue(check.text.contains("Quarantined: 1 rows"), check.text)
        XCTAssertTrue(check.text.contains("1 × users: month_start_day must be an integer from 1 to 28 (got #) — ids \(late)"), check.text)
    }

    func testAFileThatIsNotADatabaseIsOneLineAndExitOne() throws {
        let path = try temporaryFolder().appendingPathComponent("notes.sqlite").path
        try Data("just some notes, certainly not SQLite".utf8).write(to: URL(fileURLWithPath: path))
        let check = try CLI.run(["check", "--db", path])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stderr.split(separator: "\n").count, 1, check.stderr)
        XCTAssertTrue(check.stderr.hasPrefix("ezreport: '\(path)' is not a usable SQLite ledger"), check.stderr)
    }

    func testAWrongSchemaVersionNamesTheProblem() throws {
        let ledger = try TestLedger()
        try ledger.execute("PRAGMA user_version = 2")
        let check = try CLI.run(["check", "--db", ledger.path])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stderr, "ezreport: ledger '\(ledger.path)' does not match the ledger contract: PRAGMA user_version is 2, expected 1\n")
    }

    func testAMissingFileIsExitOne() throws {
        let check = try CLI.run(["check", "--db", "/nonexistent/ledger.sqlite"])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stderr, "ezreport: cannot open ledger '/nonexistent/ledger.sqlite': no such file\n")
    }

    func testMissingDbOptionIsAUsageError() throws {
        let check = try CLI.run(["check"])
        XCTAssertEqual(check.status, 64)
        XCTAssertTrue(check.stderr.contains("Missing expected argument '--db <path|url>'"), check.stderr)
    }

    // MARK: - Helpers

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func fileState(_ path: String) throws -> [String] {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return [String(describing: attributes[.modificationDate] ?? ""), String(describing: attributes[.size] ?? ""),
                String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedData(), as: UTF8.self)]
    }
}
