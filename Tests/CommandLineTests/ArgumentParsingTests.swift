import ArgumentParser
import EZBatch
import EZCore
import XCTest
@testable import ezreport

/// The typed arguments parse once, when the command line is read, and a bad value is refused
/// with a message that names it and shows what is accepted.
final class ArgumentParsingTests: XCTestCase {
    private func message(_ arguments: [String]) -> String {
        do {
            _ = try EZReport.parseAsRoot(arguments)
            return ""
        } catch {
            return EZReport.message(for: error)
        }
    }

    func testMonthlyParsesEveryTypedOptionOnce() throws {
        let command = try XCTUnwrap(try EZReport.parseAsRoot([
            "monthly", "--db", "l.sqlite", "--period", "2026-Q3", "--as-of", "2026-10-05",
            "--formats", "csv,pdf", "--users", "3, 17", "--shard", "1/4", "--log-format", "json",
        ]) as? EZReport.Monthly)
        XCTAssertEqual(command.asOf.resolve(command.period).name, "2026-Q3")
        XCTAssertEqual(command.formats.formats, [.pdf, .csv])
        XCTAssertEqual(command.users?.ids, [3, 17])
        XCTAssertEqual(command.shard, try ShardArgument(parsing: "1/4"))
        XCTAssertEqual(command.logFormat, .json)
    }

    func testMonthlyDefaultsToLastMonthEveryFormatAndTextLogs() throws {
        let command = try XCTUnwrap(try EZReport.parseAsRoot(["monthly", "--db", "l.sqlite", "--as-of", "2026-11-01"]) as? EZReport.Monthly)
        XCTAssertEqual(command.asOf.resolve(command.period).name, "2026-10")
        XCTAssertEqual(command.formats, .all)
        XCTAssertNil(command.users)
        XCTAssertNil(command.shard)
        XCTAssertEqual(command.logFormat, .text)
    }

    func testRelativePeriodsResolveAgainstAsOf() throws {
        let command = try XCTUnwrap(try EZReport.parseAsRoot(["export", "--db", "l", "--user", "1", "--period", "this-month",
                                                              "--as-of", "2024-02-10"]) as? EZReport.Export)
        XCTAssertEqual(command.period.resolvedPeriod.name, "2024-02")
    }

    /// A relative period that resolves outside the supported years is refused (64), as the
    /// explicit one is: `last-year` as of 1900-06-01 used to write a June 1900 statement, exit 0.
    func testARelativePeriodOutsideTheSupportedYearsIsRefusedNotReplaced() {
        for (command, period, asOf) in [("monthly", "last-year", "1900-06-01"), ("export", "this-week", "9998-12-31"),
                                        ("admin", "last-month", "1900-01-31"), ("deliver", "yesterday", "1900-01-01")] {
            var args = [command, "--db", "l", "--period", period, "--as-of", asOf]
            if command == "export" { args += ["--user", "1"] }
            if command == "deliver" { args += ["--from", "a@example.com", "--dry-run", "d"] }
            let text = message(args)
            XCTAssertTrue(text.contains("invalid period '\(period)': periods from 1900 to 9998 only (as of \(asOf))"), "\(command): \(text)")
        }
        XCTAssertEqual(message(["monthly", "--db", "l", "--period", "last-year", "--as-of", "1901-06-01"]), "", "1900 itself is fine")
    }

    func testBadValuesAreNamedWithWhatIsAccepted() {
        XCTAssertTrue(message(["monthly", "--db", "l", "--period", "someday"]).contains("invalid period 'someday'"))
        XCTAssertTrue(message(["monthly", "--db", "l", "--period", "someday"]).contains("accepted: YYYY-MM"))
        XCTAssertTrue(message(["monthly", "--db", "l", "--formats", "pdf,docx"]).contains("docx"))
        XCTAssertTrue(message(["monthly", "--db", "l", "--shard", "4/4"]).contains("--shard takes K/N with 0 ≤ K < N"))
        XCTAssertTrue(message(["monthly", "--db", "l", "--users", "1,,2"]).contains("--users takes comma-separated numeric ids"))
        XCTAssertTrue(message(["monthly", "--db", "l", "--as-of", "2026-02-30"]).contains("invalid --as-of '2026-02-30'"))
        XCTAssertTrue(message(["admin", "--db", "l", "--period", "2026-10", "--currency", "euro"]).contains("ISO-4217"))
        XCTAssertTrue(message(["export", "--db", "l", "--user", "1", "--period", "2026-10", "--format", "csv", "--out", "-"])
            .contains("--out - writes one file: give one --format, pdf or xlsx (csv and png write several files"))
        XCTAssertTrue(message(["export", "--db", "l", "--user", "1", "--period", "2026-10", "--format", "pdf,xlsx", "--out", "-"])
            .contains("--out - writes one file: give one --format, pdf or xlsx (a list of formats writes several files"))
        // A folder named '-' used to be made: standard output is export's alone.
        for command in [["monthly"], ["admin", "--period", "2026-10"], ["deliver", "--period", "2026-10", "--from", "a@example.com", "--dry-run", "d"]] {
            XCTAssertTrue(message(command + ["--db", "l", "--out", "-"]).contains("--out - (standard output) is for 'ezreport export'"), "\(command)")
        }
        XCTAssertEqual(message(["monthly", "--db", "l", "--period", "2026-10"]), "", "a good command line parses")
    }

    func testDeliverTakesAnAddressOrANameAndAnAddress() throws {
        let plain = try SenderAddress(parsing: "statements@example.com")
        XCTAssertEqual(plain.address.text, "statements@example.com")
        XCTAssertNil(plain.name)
        let named = try SenderAddress(parsing: "EZWallet Statements <statements@example.com>")
        XCTAssertEqual(named.address.text, "statements@example.com")
        XCTAssertEqual(named.name, "EZWallet Statements")
        XCTAssertEqual(try SenderAddress(parsing: "\"EZWallet, Inc.\" <s@example.com>").name, "EZWallet, Inc.")
        XCTAssertThrowsError(try SenderAddress(parsing: "Name <not an address>"))
        XCTAssertThrowsError(try SenderAddress(parsing: "Bad\r\nBcc: x <s@example.com>"))
    }

    func testExitStatusesKeepTheirDocumentedCodes() {
        XCTAssertEqual(ExitStatus.allCases.map(\.rawValue), [0, 1, 2, 3, 64])
    }
}
