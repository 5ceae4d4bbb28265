import EZAnalytics
import EZCore
import EZLocale
import EZRenderingTestSupport
@testable import EZXLSX
import XCTest

/// The workbook's labels and titles are in the user's language; its sheet names stay as scripts
/// know them.
final class XLSXLanguageTests: XCTestCase {
    override func tearDown() { ExternalReader.removeTemporaryDirectories() }

    static let englishLabels = ["Key figures", "Income", "Savings rate", "Previous period's expenses", "Expenses by category"]
    /// The Comparison sheet's headers and row labels as English writes them.
    static let comparisonLabels = ["Compared with earlier periods", "This period", "Previous period", "A year earlier",
                                   "Change vs previous", "% vs year ago", "First day", "Income", "Expenses", "Net"]

    /// Every text cell of `sheet`, and the workbook's sheet names, as openpyxl reads them.
    func texts(_ path: String, sheet: String) throws -> (cells: Set<String>, sheets: [String]) {
        let out = try ExternalReader.python("""
            import json, sys, openpyxl
            wb = openpyxl.load_workbook(sys.argv[1])
            cells = [c.value for row in wb[sys.argv[2]].iter_rows() for c in row if isinstance(c.value, str)]
            print(json.dumps({"cells": cells, "sheets": wb.sheetnames}))
            """, [path, sheet])
        struct Read: Decodable { var cells: [String]; var sheets: [String] }
        let read = try ExternalReader.json(Read.self, out)
        return (Set(read.cells), read.sheets)
    }

    func testEachLanguagesWorkbookHasItsOwnLabelsAndEnglishSheetNames() throws {
        var sheetsInEnglish: [String]?
        for locale in ["it_IT", "fr_FR", "es_ES", "de_DE", "ja_JP", "en_GB"] {
            var figures = RenderFixtures.figures()
            figures.user.locale = locale
            let path = try ExternalReader.temporaryDirectory() + "/statement-\(locale).xlsx"
            try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: path)
            let tr = Translator(locale: locale)
            let summary = try texts(path, sheet: "Summary")
            for english in Self.englishLabels {
                XCTAssertTrue(summary.cells.contains(tr(english)), "\(locale): '\(tr(english))' for '\(english)'")
                if tr.language != "en" {
                    XCTAssertFalse(summary.cells.contains(english), "\(locale): English '\(english)' left in Summary")
                }
            }
            if figures.kpis.limit != nil {
                XCTAssertTrue(summary.cells.contains { [tr("Within limit"), tr("Close to limit"), tr("Limit exceeded")].contains($0) },
                              "\(locale): the limit's status in words")
            }
            let categories = try texts(path, sheet: "Categories")
            XCTAssertTrue(categories.cells.contains(tr("Category")), "\(locale): Categories header")
            XCTAssertTrue(categories.cells.contains(tr("Total")), "\(locale): Categories total")
            let comparison = try texts(path, sheet: "Comparison")
            for english in Self.comparisonLabels {
                XCTAssertTrue(comparison.cells.contains(tr(english)), "\(locale): Comparison '\(tr(english))' for '\(english)'")
                if tr.language != "en" {
                    XCTAssertFalse(comparison.cells.contains(english), "\(locale): English '\(english)' left in Comparison")
                }
            }
            // Sheet names are what scripts read: the same in every language.
            if let sheetsInEnglish { XCTAssertEqual(summary.sheets, sheetsInEnglish, locale) } else { sheetsInEnglish = summary.sheets }
            XCTAssertEqual(summary.sheets.first, "Summary")
        }
    }
}
