import EZTestSupport
import Foundation
import XCTest

/// A user who has written nothing yet still gets a whole statement.
final class QuietUserTests: XCTestCase {
    func testAUserWithNoTransactionsGetsTwelveMonthsOfZerosInTrendsCSV() throws {
        let ledger = try TestLedger()
        let newcomer = try ledger.user("newcomer", createdAt: "2026-09-15T00:00:00Z")
        let active = try ledger.user("active")
        _ = try ledger.expense(active, 1_250, on: "2026-10-05T10:00:00Z")
        let out = SampleFixture.scratch("quiet-user")
        let run = try CLI.run(["monthly", "--db", ledger.path, "--period", "2026-10", "--as-of", "2026-11-01", "--out", out,
                               "--formats", "csv", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        for (id, name) in [(newcomer, "newcomer"), (active, "active")] {
            let csv = try String(contentsOfFile: "\(out)/2026-10/users/\(id)-\(name)/trends.csv", encoding: .utf8)
            let lines = csv.split(whereSeparator: \.isNewline)
            XCTAssertEqual(lines.count, 13, "\(name): a header and the statement's 12 months\n\(csv)")
            XCTAssertEqual(lines.dropFirst().first?.hasPrefix("2025-11-01,"), true, csv)
            XCTAssertEqual(lines.last?.hasPrefix("2026-10-01,"), true, csv)
            if id == newcomer {
                XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasSuffix(",0.00,0.00,0.00,0,EUR") }, csv)
            }
        }
    }
}
