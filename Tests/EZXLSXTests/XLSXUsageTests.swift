import EZAnalytics
import EZCore
import EZXLSX
import Foundation
import EZRenderingTestSupport
import XCTest

/// The admin usage workbook, read back by openpyxl.
final class XLSXUsageTests: XCTestCase {
    override func tearDown() { ExternalReader.removeTemporaryDirectories() }

    func testUsageWorkbookHasASheetPerTableAndSuppressedCellsAreLessThanFive() throws {
        let path = try ExternalReader.temporaryDirectory() + "/usage.xlsx"
        try UsageWorkbook.write(RenderFixtures.usage(), provenance: RenderFixtures.provenance(), to: path)
        let out = try ExternalReader.python("""
        import json, sys, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        m = wb['Months']
        print(json.dumps({
          'sheets': wb.sheetnames,
          'row2': [[c.data_type, str(c.value)] for c in m[2]],
          'rare': [[c.data_type, str(c.value)] for c in wb['Top categories'][3]],
          'charts': len(m._charts) + len(wb['Top categories']._charts),
        }))
        """, [path])
        struct Out: Decodable { let sheets: [String]; let row2: [[String]]; let rare: [[String]]; let charts: Int }
        let o = try ExternalReader.json(Out.self, out)
        XCTAssertEqual(o.sheets, ["Months", "Top categories", "Group sizes", "Family sizes", "Cohorts", "About"])
        XCTAssertEqual(o.row2[0], ["d", "2025-08-01 00:00:00"])
        XCTAssertEqual(o.row2[1], ["n", "108"])
        XCTAssertEqual(o.row2[3], ["s", "<5"])
        XCTAssertEqual(o.row2[7], ["n", "12345.58"])
        XCTAssertEqual(o.row2[8], ["s", "<5"])
        XCTAssertEqual(o.rare, [["s", "=Rare"], ["s", "<5"], ["s", "<5"]])
        XCTAssertEqual(o.charts, 4, "users, transactions and volume on Months; the top-categories bar")
    }

    func testUsageWorkbookIsByteIdenticalAcrossWrites() throws {
        let dir = try ExternalReader.temporaryDirectory()
        try UsageWorkbook.write(RenderFixtures.usage(), provenance: RenderFixtures.provenance(), to: dir + "/a.xlsx")
        try UsageWorkbook.write(RenderFixtures.usage(), provenance: RenderFixtures.provenance(), to: dir + "/b.xlsx")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.xlsx")),
                       try Data(contentsOf: URL(fileURLWithPath: dir + "/b.xlsx")))
    }
}
