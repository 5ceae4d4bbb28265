import EZTestSupport
import Foundation
import XCTest

/// `--locale` writes the admin report in that language; a malformed one is refused.
final class AdminLocaleTests: XCTestCase {
    func pdfText(_ path: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["pdftotext", "-layout", "-enc", "UTF-8", path, "-"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    func testTheAdminReportIsWrittenInTheLocalesLanguage() throws {
        let ledger = try TestLedger()
        for i in 0..<6 {
            let u = try ledger.user("user\(i)")
            _ = try ledger.expense(u, 1_000 + Int64(i), on: "2026-10-0\(i + 1)T10:00:00Z")
        }
        for (locale, title, english) in [("de", "Monat für Monat", "Month by month"), ("ja_JP", "月ごと", "Month by month"),
                                         ("en", "Month by month", nil)] {
            let out = SampleFixture.scratch("admin-\(locale)")
            let run = try CLI.run(["admin", "--db", ledger.path, "--period", "2026-10", "--as-of", "2026-11-01", "--out", out,
                                   "--locale", locale])
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = try pdfText(out + "/2026-10/admin/usage.pdf")
            XCTAssertTrue(text.contains(title), "\(locale): \(title)")
            if let english { XCTAssertFalse(text.contains(english), "\(locale): English left") }
        }
    }

    func testAMalformedLocaleIsABadArgument() throws {
        let run = try CLI.run(["admin", "--db", "/nonexistent.sqlite", "--period", "2026-10", "--locale", "../etc"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("--locale must be a locale such as en, it_IT or de-CH"), run.stderr)
    }
}
