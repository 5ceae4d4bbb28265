import EZAnalytics
import EZCore
import EZCSV
import Foundation
import EZRenderingTestSupport
import XCTest

/// usage.csv, read back by Python's csv module.
final class CSVUsageTests: XCTestCase {
    override func tearDown() { ExternalReader.removeTemporaryDirectories() }

    func testUsageCSVHasTheContractColumnsAndSuppressedCellsAreLessThanFive() throws {
        let file = UsageCSV.file(for: RenderFixtures.usage())
        XCTAssertEqual(file.name, "usage.csv")
        let dir = try ExternalReader.temporaryDirectory()
        let path = "\(dir)/usage.csv"
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        let script = """
        import csv, json, sys
        with open(sys.argv[1], newline='', encoding='utf-8') as f:
            print(json.dumps(list(csv.reader(f, strict=True))))
        """
        let rows = try ExternalReader.json([[String]].self, ExternalReader.python(script, [path]))
        XCTAssertEqual(rows[0], ["month", "users_total", "users_new", "users_deleted", "users_active", "mau", "transactions",
                                 "volume", "currency", "budgets_over_share", "spend_p50", "spend_p90"])
        XCTAssertEqual(rows.count, 4)
        XCTAssertEqual(rows[1], ["2025-08", "108", "12", "<5", "80", "75", "4008", "12345.58", "EUR", "<5", "450.00", "1500.05"])
        XCTAssertEqual(rows[2][2], "<5")
        XCTAssertEqual(rows[2][9], "12.5")
        XCTAssertEqual(rows[3][11], "<5")
    }

    func testUsageCSVWithoutMonthsIsItsHeaderAlone() {
        var usage = RenderFixtures.usage()
        usage.months = []
        XCTAssertEqual(String(decoding: UsageCSV.file(for: usage).bytes, as: UTF8.self),
                       "month,users_total,users_new,users_deleted,users_active,mau,transactions,volume,currency,budgets_over_share,spend_p50,spend_p90\r\n")
    }
}
