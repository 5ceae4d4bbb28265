import EZTestSupport
import Foundation
import XCTest

/// The help text of every command, compared with the golden files in `Golden/` (set
/// `EZREPORT_UPDATE_GOLDEN=1` to rewrite them after an intended change, then review the diff).
final class HelpGoldenTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    func assertGolden(_ args: [String], _ file: String, line: UInt = #line) throws {
        let run = try CLI.run(args)
        XCTAssertEqual(run.status, 0, run.stderr, line: line)
        XCTAssertEqual(run.stderr, "", line: line)
        let url = Self.golden.appendingPathComponent(file)
        if ProcessInfo.processInfo.environment["EZREPORT_UPDATE_GOLDEN"] == "1" {
            try run.stdout.write(to: url)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(run.text, expected, "ezreport \(args.joined(separator: " ")) differs from Golden/\(file)", line: line)
    }

    func testRootHelp() throws { try assertGolden(["--help"], "help-root.txt") }
    func testMonthlyHelp() throws { try assertGolden(["monthly", "--help"], "help-monthly.txt") }
    func testExportHelp() throws { try assertGolden(["export", "--help"], "help-export.txt") }
    func testAdminHelp() throws { try assertGolden(["admin", "--help"], "help-admin.txt") }
    func testCheckHelp() throws { try assertGolden(["check", "--help"], "help-check.txt") }
    func testSampleHelp() throws { try assertGolden(["sample", "--help"], "help-sample.txt") }
    func testManifestHelp() throws { try assertGolden(["manifest", "--help"], "help-manifest.txt") }
    func testManifestMergeHelp() throws { try assertGolden(["manifest", "merge", "--help"], "help-manifest-merge.txt") }
    func testDeliverHelp() throws { try assertGolden(["deliver", "--help"], "help-deliver.txt") }
    func testServeHelp() throws { try assertGolden(["serve", "--help"], "help-serve.txt") }
    func testTokenHelp() throws { try assertGolden(["token", "--help"], "help-token.txt") }
    func testHelpSubcommandMatchesHelpFlag() throws {
        XCTAssertEqual(try CLI.run(["help", "monthly"]).text, try CLI.run(["monthly", "--help"]).text)
    }

    func testVersionIsTheEngineVersion() throws {
        let run = try CLI.run(["--version"])
        XCTAssertEqual(run.status, 0)
        let golden = try String(contentsOf: Self.golden.appendingPathComponent("version.txt"), encoding: .utf8)
        XCTAssertEqual(run.text, golden)
        XCTAssertNotNil(run.text.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression))
    }
}
