import EZAnalytics
import EZCore
import EZLocale
@testable import EZXLSX
import Foundation
import EZRenderingTestSupport
import XCTest

/// The statement workbook, read back by openpyxl, Python's zipfile and LibreOffice.
final class XLSXStatementTests: XCTestCase {
    override func tearDown() { ExternalReader.removeTemporaryDirectories() }

    func writeWorkbook(_ figures: StatementFigures = RenderFixtures.figures(), name: String = "statement.xlsx") throws -> String {
        let path = try ExternalReader.temporaryDirectory() + "/" + name
        try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: path)
        return path
    }

    /// Cells of a sheet as openpyxl sees them: [row][col] = [data_type, value as text].
    struct Cell: Decodable, Equatable { let t: String; let v: String? }
    func cells(_ path: String, sheet: String, dataOnly: Bool = false) throws -> [[Cell]] {
        let script = """
        import json, sys, datetime, openpyxl
        from openpyxl.utils.escape import unescape
        wb = openpyxl.load_workbook(sys.argv[1], data_only=(sys.argv[3] == '1'))
        ws = wb[sys.argv[2]]
        def text(v):
            if v is None: return None
            if isinstance(v, datetime.datetime): return v.isoformat()
            # OOXML stores a CR as the escape _x000D_ (as Excel does); openpyxl leaves it escaped.
            return unescape(v) if isinstance(v, str) else str(v)
        out = []
        for row in ws.iter_rows():
            out.append([{'t': c.data_type, 'v': text(c.value)} for c in row])
        print(json.dumps(out))
        """
        return try ExternalReader.json([[Cell]].self, ExternalReader.python(script, [path, sheet, dataOnly ? "1" : "0"]))
    }

    func sheetNames(_ path: String) throws -> [String] {
        let script = "import json, sys, openpyxl\nprint(json.dumps(openpyxl.load_workbook(sys.argv[1]).sheetnames))"
        return try ExternalReader.json([String].self, ExternalReader.python(script, [path]))
    }

    // MARK: - Constant memory

    func testTheConstantMemoryWorkbookHoldsTheSameCellsInEverySheet() throws {
        let figures = RenderFixtures.figures()
        let folder = try ExternalReader.temporaryDirectory()
        try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: folder + "/normal.xlsx",
                                    rowsPerSheet: 4, constantMemory: false)
        try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: folder + "/flat.xlsx",
                                    rowsPerSheet: 4, constantMemory: true)
        let sheets = try sheetNames(folder + "/normal.xlsx")
        XCTAssertEqual(try sheetNames(folder + "/flat.xlsx"), sheets)
        XCTAssertGreaterThan(sheets.filter { $0.hasPrefix("Transactions") }.count, 1, "the split sheets are covered too")
        for sheet in sheets {
            // A cell written above the current row is dropped in constant-memory mode: every sheet must match.
            XCTAssertEqual(try cells(folder + "/flat.xlsx", sheet: sheet), try cells(folder + "/normal.xlsx", sheet: sheet), sheet)
        }
        let parts = try ExternalReader.python("import sys, zipfile; print(' '.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
                                              [folder + "/flat.xlsx"])
        XCTAssertFalse(parts.contains("sharedStrings.xml"), "constant-memory mode was not on: the test proves nothing")
    }

    // MARK: - Structure

    func testWorkbookHasEverySheetInOrder() throws {
        let path = try writeWorkbook()
        XCTAssertEqual(try sheetNames(path),
                       ["Summary", "Transactions", "Categories", "Trends", "Budgets", "Groups", "Savings", "Comparison", "About"])
    }

    func testTransactionCellsAreNumbersDatesAndPlainStrings() throws {
        let figures = RenderFixtures.figures()
        let rows = try cells(writeWorkbook(figures), sheet: "Transactions")
        XCTAssertEqual(rows.count, figures.transactions.count + 1)
        // The fixture's user reads Italian: the headers are the catalog's words for these.
        let tr = Translator(locale: figures.user.locale)
        XCTAssertEqual(rows[0].compactMap(\.v), ["ID", "Date", "Kind", "Category", "Balance", "Method", "Description", "Amount",
                                                "Currency", "Counted", "Report currency", "Group", "Paid by"].map { tr($0) })
        XCTAssertEqual(rows[0][1].v, "Data")
        let first = rows[1]
        XCTAssertEqual(first[0], Cell(t: "n", v: "100"))
        XCTAssertEqual(first[1], Cell(t: "d", v: "2025-10-01T00:00:00"), "the date is a real Excel date")
        XCTAssertEqual(first[7], Cell(t: "n", v: "12.5"))
        let yen = rows[9]
        XCTAssertEqual(yen[7], Cell(t: "n", v: "1500"))
        XCTAssertEqual(yen[8].v, "JPY")
        XCTAssertEqual(yen[9], Cell(t: "n", v: "9.5"))
    }

    func testTheGroupsSheetListsThePeriodsSettleUpPaymentsAndEachMembersSettledAmount() throws {
        let figures = RenderFixtures.figuresWithASettleUpPayment()
        let tr = Translator(locale: figures.user.locale)
        let rows = try cells(writeWorkbook(figures), sheet: "Groups").map { $0.map { $0.v } }
        XCTAssertEqual(rows[1].last ?? nil, tr("Settled"))
        XCTAssertEqual(rows[2][9], "-5", "ana was paid back 5.00")
        XCTAssertEqual(rows[3][9], "5", "=bob paid back 5.00")
        let section = try XCTUnwrap(rows.firstIndex { $0.first == tr("Settle-up payments") })
        XCTAssertEqual(rows[section + 1].prefix(7).map { $0 ?? "" },
                       ["Group ID", "Group", "Date", "From", "To", "Amount", "Currency"].map { tr($0) })
        XCTAssertEqual(rows[section + 2].prefix(7).map { $0 ?? "" },
                       ["3", "Trip, \"Rome\"", "2025-10-12T00:00:00", "=bob", "ana", "5", "EUR"])
        let plain = try cells(writeWorkbook(RenderFixtures.figures(), name: "plain.xlsx"), sheet: "Groups").map { $0.first?.v ?? nil }
        XCTAssertTrue(plain.contains(tr("No settle-up payments in this period")))
    }

    func testFormulaLikeDescriptionsStayPlainStrings() throws {
        let figures = RenderFixtures.figures()
        let rows = try cells(writeWorkbook(figures), sheet: "Transactions")
        for (row, t) in zip(rows.dropFirst(), figures.transactions) {
            XCTAssertEqual(row[6], Cell(t: "s", v: t.description), "description of row \(t.id)")
        }
        let hyperlink = try XCTUnwrap(rows.first { $0[6].v == "=HYPERLINK(\"http://x\",\"y\")" })
        XCTAssertEqual(hyperlink[6].t, "s")
        // The category named '=Games' is text as well.
        let categories = try cells(writeWorkbook(figures), sheet: "Categories")
        XCTAssertEqual(categories[2][0], Cell(t: "s", v: "=Games"))
    }

    /// Excel reads a cell's `_xHHHH_` as the character U+HHHH, so a category named `_x0041_BC`
    /// showed as "ABC" and "pay _x0033__x0030_ now" as "pay 30 now". ECMA-376 (22.4.2.4) stores
    /// such a literal with its first underscore escaped, `_x005F_x0041_BC`, as Excel itself does;
    /// a text that only looks close (`_x12345`, `_xZZZZ_`) is left alone. Checked in the XML of
    /// both kinds of workbook (shared strings, and inline strings in constant-memory mode), and
    /// read back by openpyxl, which decodes the escape in shared strings.
    func testATextThatLooksLikeAnExcelEscapeIsStoredEscapedSoExcelShowsItAsWritten() throws {
        var figures = RenderFixtures.figures()
        figures.transactions[0].description = "pay _x0033__x0030_ now"
        figures.transactions[1].description = "file_x12345.txt _xZZZZ_"
        let folder = try ExternalReader.temporaryDirectory()
        for constantMemory in [false, true] {
            let path = folder + "/escapes-\(constantMemory).xlsx"
            try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: path, rowsPerSheet: Worksheet.maxRows - 1, constantMemory: constantMemory)
            let xml = try ExternalReader.python("""
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            print(''.join(z.read(n).decode() for n in z.namelist() if n.endswith('.xml')))
            """, [path])
            XCTAssertTrue(xml.contains("pay _x005F_x0033__x005F_x0030_ now"), "constant memory \(constantMemory)")
            XCTAssertFalse(xml.contains("pay _x0033_"), "constant memory \(constantMemory)")
            XCTAssertTrue(xml.contains("file_x12345.txt _xZZZZ_"), "no escape where none is needed")
            // openpyxl decodes the escape in shared strings (not in inline ones, as Excel does).
            guard !constantMemory else { continue }
            let rows = try ExternalReader.json([[String?]].self, ExternalReader.python("""
            import json, sys, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1])['Transactions']
            print(json.dumps([[c.value if isinstance(c.value, str) else None for c in row] for row in ws.iter_rows()]))
            """, [path]))
            XCTAssertEqual(rows[1][6], "pay _x0033__x0030_ now")
            XCTAssertEqual(rows[2][6], "file_x12345.txt _xZZZZ_")
        }
        XCTAssertEqual(Worksheet.escapingEscapes("_x0041_BC"), "_x005F_x0041_BC")
        XCTAssertEqual(Worksheet.escapingEscapes("a_x00e9_"), "a_x005F_x00e9_", "hex digits in either case")
        XCTAssertEqual(Worksheet.escapingEscapes("_x0041"), "_x0041", "no closing underscore, no escape")
    }

    /// XML 1.0 holds neither most control characters nor U+FFFE/U+FFFF. A category named with a
    /// vertical tab made the pie chart's cached labels invalid XML, and a noncharacter pasted into
    /// a description the shared strings: readers refused the whole workbook, which was written
    /// with exit 0 (outside standards test). Every part now parses with a strict XML parser, in
    /// both kinds of workbook; a cell keeps its control character as OOXML's escape, a chart's
    /// label and the document properties show U+FFFD, as noncharacters do everywhere.
    func testControlCharactersAndNoncharactersLeaveEveryXMLPartWellFormed() throws {
        var figures = RenderFixtures.figures()
        let hostile = "Food\u{0B}and\(nonchar(0xFFFF))more\(nonchar(0xFDD0))"
        figures.categories.rows[0].name = hostile
        figures.categories.folded[0].name = hostile
        figures.transactions[0].description = "pasted \(nonchar(0xFFFE)) text \u{1B}[31m"
        figures.user.username = "zo\u{07}\(nonchar(0xFFFF))ë"
        let folder = try ExternalReader.temporaryDirectory()
        for constantMemory in [false, true] {
            let path = folder + "/hostile-\(constantMemory).xlsx"
            try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: path, rowsPerSheet: Worksheet.maxRows - 1, constantMemory: constantMemory)
            let parsed = try ExternalReader.python("""
            import sys, zipfile, xml.dom.minidom
            z = zipfile.ZipFile(sys.argv[1])
            names = [n for n in z.namelist() if n.endswith('.xml') or n.endswith('.rels')]
            for n in names:
                xml.dom.minidom.parseString(z.read(n))   # expat: raises on a character XML cannot hold
            print(len(names), 'chart1' in ' '.join(names))
            """, [path])
            XCTAssertEqual(parsed.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").last, "True",
                           "the workbook has its pie chart, and every part parsed (constant memory \(constantMemory)): \(parsed)")
            // A constant-memory workbook has written its rows out before the chart: the chart then has no cached labels.
            guard !constantMemory else { continue }
            let chart = try ExternalReader.python("import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read('xl/charts/chart1.xml').decode())", [path])
            XCTAssertTrue(chart.contains("Food\u{FFFD}and\u{FFFD}more\u{FFFD}"), "the chart's label shows U+FFFD for each (constant memory \(constantMemory)): \(chart)")
        }
        XCTAssertEqual(XMLText.cell("a\u{0B}b\(nonchar(0xFFFE))c\(nonchar(0x10FFFF))"), "a\u{0B}b\u{FFFD}c\u{FFFD}", "a cell leaves control characters to libxlsxwriter's escapes")
        XCTAssertEqual(XMLText.holdable("a\u{0B}b\tc\nd\re\(nonchar(0xFFFF))"), "a\u{FFFD}b\tc\nd\re\u{FFFD}")
        XCTAssertEqual(XMLText.holdable("plain ë 食"), "plain ë 食")
        let summary = try cells(folder + "/hostile-false.xlsx", sheet: "Summary").flatMap { $0 }.compactMap(\.v)
        XCTAssertTrue(summary.contains("Food\u{FFFD}and\u{FFFD}more\u{FFFD}"), "\(summary)")
    }

    func testATextOverExcelsLimitIsCutThereAndEndsWithAnEllipsis() throws {
        var figures = RenderFixtures.figures()
        figures.transactions[0].description = "start " + String(repeating: "ü", count: 40_000)
        let rows = try cells(writeWorkbook(figures), sheet: "Transactions")
        let cut = try XCTUnwrap(rows[1][6].v)
        XCTAssertEqual(cut.unicodeScalars.count, 32_767, "Excel's limit")
        XCTAssertTrue(cut.hasPrefix("start üü"))
        XCTAssertEqual(cut.unicodeScalars.last, "\u{2026}", "the cut shows")
        XCTAssertEqual(rows[2][6].v, figures.transactions[1].description, "other texts are whole")
    }

    /// Excel counts a cell's characters in UTF-16 units: a description of 20,000 emoji (40,000
    /// units, 20,000 code points) passed the code-point check whole, past what Excel keeps.
    func testTheLimitIsCountedAsExcelCountsInUTF16Units() throws {
        var figures = RenderFixtures.figures()
        figures.transactions[0].description = String(repeating: "😀", count: 20_000)
        let rows = try cells(writeWorkbook(figures, name: "emoji.xlsx"), sheet: "Transactions")
        let cut = try XCTUnwrap(rows[1][6].v)
        XCTAssertLessThanOrEqual(cut.utf16.count, 32_767, "Excel's limit")
        XCTAssertGreaterThan(cut.utf16.count, 32_760, "cut at the limit, not before")
        XCTAssertEqual(cut.unicodeScalars.last, "\u{2026}", "the cut shows")
        XCTAssertTrue(cut.unicodeScalars.dropLast().allSatisfy { $0 == "😀" }, "no half of an emoji")
    }

    func testCategoriesTotalIsAFormulaWhoseCachedResultIsTheEnginesTotal() throws {
        let figures = RenderFixtures.figures()
        let path = try writeWorkbook(figures)
        let formulas = try cells(path, sheet: "Categories")
        let n = figures.categories.rows.count
        XCTAssertEqual(formulas[n + 1][0].v, Translator(locale: figures.user.locale)("Total"))
        XCTAssertEqual(formulas[n + 1][2], Cell(t: "f", v: "=ROUND(SUM(C2:C\(n + 1)),2)"))
        let cached = try cells(path, sheet: "Categories", dataOnly: true)
        XCTAssertEqual(cached[n + 1][2], Cell(t: "n", v: MinorUnits.plainDecimal(figures.categories.total, exponent: 2)))
        XCTAssertEqual(cached[n + 1][1].v, String(RenderFixtures.expenseRows.count))
    }

    // MARK: - Comparison

    /// The fixture's Comparison sheet: rows 5–7 are income, expenses and net; row 11 on, categories.
    func testComparisonChangesAreFormulasOverTheCellsCachedWithTheEnginesValues() throws {
        let figures = RenderFixtures.figures()
        let cmp = figures.comparison
        let path = try writeWorkbook(figures)
        let formulas = try cells(path, sheet: "Comparison")
        let cached = try cells(path, sheet: "Comparison", dataOnly: true)
        let rows: [(Int, ComparedAmount)] = [(4, cmp.income), (5, cmp.expenses), (6, cmp.net)]
            + cmp.categories.enumerated().map { (10 + $0.offset, $0.element.amounts) }
        XCTAssertEqual(formulas[10].compactMap(\.v).first, "Shopping", "categories start under their header")
        for (r, a) in rows {
            let n = r + 1
            XCTAssertEqual(formulas[r][3], Cell(t: "f", v: "=ROUND(B\(n)-C\(n),2)"), "row \(n)")
            XCTAssertEqual(formulas[r][4], Cell(t: "f", v: "=IF(C\(n)=0,\"\",(B\(n)-C\(n))/ABS(C\(n)))"), "row \(n)")
            XCTAssertEqual(formulas[r][6], Cell(t: "f", v: "=ROUND(B\(n)-F\(n),2)"), "row \(n)")
            XCTAssertEqual(formulas[r][7], Cell(t: "f", v: "=IF(F\(n)=0,\"\",(B\(n)-F\(n))/ABS(F\(n)))"), "row \(n)")
            // The amounts are values, each change's cached result the engine's exact figure.
            XCTAssertEqual(cached[r][1].v.flatMap { Decimal(string: $0) }, Decimal(a.current) / 100, "row \(n)")
            XCTAssertEqual(cached[r][3].v.flatMap { Decimal(string: $0) }, Decimal(a.vsPrevious.absolute) / 100, "row \(n)")
            XCTAssertEqual(cached[r][6].v.flatMap { Decimal(string: $0) }, Decimal(a.vsYearAgo.absolute) / 100, "row \(n)")
            for (column, change) in [(4, a.vsPrevious), (7, a.vsYearAgo)] {
                if let percent = change.percent {
                    // The cached ratio rounds to the engine's percentage to the tenth.
                    let ratio = try XCTUnwrap(cached[r][column].v.flatMap(Double.init), "row \(n) column \(column)")
                    XCTAssertEqual(ratio * 1000, Double(percent.tenths), accuracy: 0.5, "row \(n) column \(column)")
                } else {
                    XCTAssertTrue(cached[r][column].v == nil || cached[r][column].v == "", "no percent when the earlier value is 0: row \(n)")
                }
            }
        }
        // Both rules are covered: an earlier 0 (income last month, expenses of '=Games' last month) and real percentages.
        XCTAssertNil(cmp.income.vsPrevious.percent)
        XCTAssertNotNil(cmp.expenses.vsPrevious.percent)
        // The periods' first and last days are real dates.
        XCTAssertEqual(cached[1][1], Cell(t: "d", v: "2025-10-01T00:00:00"))
        XCTAssertEqual(cached[1][2], Cell(t: "d", v: "2025-09-01T00:00:00"))
        XCTAssertEqual(cached[2][5], Cell(t: "d", v: "2024-10-31T00:00:00"))
        // A category with expenses only a year ago is listed, with this period's 0.
        let travel = try XCTUnwrap(formulas.first { $0.first?.v == "Travel" })
        XCTAssertEqual(travel[1].v.flatMap { Decimal(string: $0) }, 0)
        XCTAssertEqual(travel[5].v.flatMap { Decimal(string: $0) }, 50)
    }

    func testLibreOfficeRecalculatesTheComparisonsChangesToTheEnginesFigures() throws {
        guard let soffice = ExternalReader.which("soffice") else {
            throw XCTSkip("LibreOffice (soffice) is not installed: install libreoffice-calc-nogui to run the recalculation check")
        }
        let figures = RenderFixtures.figures()
        let path = try writeWorkbook(figures)
        let dir = (path as NSString).deletingLastPathComponent
        // openpyxl saves the formulas without cached results: LibreOffice must compute every change.
        let stripped = dir + "/comparison.xlsx"
        _ = try ExternalReader.python("""
        import sys, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        for name in wb.sheetnames:
            if name != 'Comparison': del wb[name]
        wb.save(sys.argv[2])
        """, [path, stripped])
        try ExternalReader.run(soffice, ["-env:UserInstallation=file://\(dir)/lo-profile", "--headless", "--calc",
                                         "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false",
                                         "--outdir", dir, stripped])
        let csv = try String(contentsOfFile: dir + "/comparison.csv", encoding: .utf8)
        let lines = csv.split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let cmp = figures.comparison
        let tr = Translator(locale: figures.user.locale)
        for (label, a) in [(tr("Income"), cmp.income), (tr("Expenses"), cmp.expenses), (tr("Net"), cmp.net)]
            + cmp.categories.map({ ($0.name, $0.amounts) }) {
            let fields = try XCTUnwrap(lines.first { $0.first == label }, "\(label) in \(csv)")
            XCTAssertEqual(Decimal(string: fields[3]), Decimal(a.vsPrevious.absolute) / 100, "\(label) change vs previous: \(fields)")
            XCTAssertEqual(Decimal(string: fields[6]), Decimal(a.vsYearAgo.absolute) / 100, "\(label) change vs year ago: \(fields)")
            for (column, change) in [(4, a.vsPrevious), (7, a.vsYearAgo)] {
                if let percent = change.percent {
                    // LibreOffice writes the unrounded ratio in percent: "4.16666666666667%".
                    let ratio = try XCTUnwrap(fields[column].hasSuffix("%") ? Double(fields[column].dropLast()).map { $0 / 100 } : nil,
                                              "\(label) column \(column): \(fields)")
                    XCTAssertEqual(ratio * 1000, Double(percent.tenths), accuracy: 0.5, "\(label) column \(column)")
                } else {
                    XCTAssertEqual(fields[column], "", "\(label): no percent when the earlier value is 0")
                }
            }
        }
    }

    func testLibreOfficeRecalculatesTheEnginesCategoriesTotal() throws {
        guard let soffice = ExternalReader.which("soffice") else {
            throw XCTSkip("LibreOffice (soffice) is not installed: install libreoffice-calc-nogui to run the recalculation check")
        }
        let figures = RenderFixtures.figures()
        let totalLabel = Translator(locale: figures.user.locale)("Total")
        let path = try writeWorkbook(figures)
        let dir = (path as NSString).deletingLastPathComponent
        // openpyxl writes the formulas back without their cached results, so LibreOffice must
        // compute the total itself; Categories becomes the only sheet so the CSV export is it.
        let stripped = dir + "/recalc.xlsx"
        _ = try ExternalReader.python("""
        import sys, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        for name in wb.sheetnames:
            if name != 'Categories': del wb[name]
        wb.save(sys.argv[2])
        cached = openpyxl.load_workbook(sys.argv[2], data_only=True)['Categories']
        total = [r for r in cached.iter_rows() if r[0].value == sys.argv[3]][0]
        assert total[2].value is None, 'the copy must not carry a cached total'
        """, [path, stripped, totalLabel])
        try ExternalReader.run(soffice, ["-env:UserInstallation=file://\(dir)/lo-profile", "--headless", "--calc",
                                         "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1", "--outdir", dir, stripped])
        let csv = try String(contentsOfFile: dir + "/recalc.csv", encoding: .utf8)
        let lines = csv.split(whereSeparator: \.isNewline).map { $0.replacingOccurrences(of: "\"", with: "") }
        let total = try XCTUnwrap(lines.first { $0.hasPrefix(totalLabel + ",") }, csv)
        let fields = total.split(separator: ",").map(String.init)
        let value = try XCTUnwrap(Decimal(string: fields[2].filter { $0 != "\"" && $0 != " " && !$0.isLetter }))
        XCTAssertEqual(value, Decimal(string: MinorUnits.plainDecimal(figures.categories.total, exponent: 2)),
                       "LibreOffice's total \(fields[2]) against the engine's \(figures.categories.total) cents")
    }

    func testBudgetsAreConditionallyFormattedRedOverAndAmberWarning() throws {
        let path = try writeWorkbook()
        let script = """
        import json, sys, openpyxl
        ws = openpyxl.load_workbook(sys.argv[1])['Budgets']
        rules = []
        for rng in ws.conditional_formatting:
            for r in rng.rules: rules.append([str(rng.sqref), r.type, r.formula[0], r.dxf.fill.bgColor.rgb if r.dxf and r.dxf.fill else None])
        print(json.dumps(rules))
        """
        let rules = try ExternalReader.json([[String?]].self, ExternalReader.python(script, [path]))
        XCTAssertEqual(rules.count, 2)
        // The status column holds the reader's words (Italian here), and the rules test those words.
        XCTAssertEqual(rules.map { $0[2] }, ["$M2=\"SUPERATO\"", "$M2=\"ATTENZIONE\""])
        XCTAssertEqual(rules.first?[0], "A2:M4")
        let statuses = try ExternalReader.json([String].self, ExternalReader.python("""
            import json, sys, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1])['Budgets']
            print(json.dumps([ws.cell(row=r, column=13).value for r in range(2, ws.max_row + 1)]))
            """, [path]))
        XCTAssertFalse(statuses.isEmpty)
        XCTAssertTrue(Set(statuses).isSubset(of: ["OK", "ATTENZIONE", "SUPERATO"]), "\(statuses)")
    }

    func testSummaryHasANativePieAndLineChartAndAboutTheProvenance() throws {
        let path = try writeWorkbook()
        let charts = try ExternalReader.python("""
        import sys, zipfile
        z = zipfile.ZipFile(sys.argv[1])
        for n in sorted(z.namelist()):
            if n.startswith('xl/charts/chart'):
                x = z.read(n).decode()
                print(n, 'pie' if '<c:pieChart>' in x else 'line' if '<c:lineChart>' in x else 'other')
        """, [path])
        XCTAssertEqual(charts, "xl/charts/chart1.xml pie\nxl/charts/chart2.xml line\n")
        let about = try cells(path, sheet: "About")
        let facts = Dictionary(about.compactMap { r in r.count > 1 ? r[0].v.map { ($0, r[1].v ?? "") } : nil },
                               uniquingKeysWith: { a, _ in a })
        let tr = Translator(locale: RenderFixtures.figures().user.locale)
        XCTAssertEqual(facts[tr("Ledger SHA-256")], String(repeating: "ab", count: 32))
        XCTAssertEqual(facts[tr("Period")], "2025-10")
        // Dates are real Excel dates (openpyxl reads them back as datetimes), the count a number:
        // they were the texts '2025-11-01' and '1' (outside review).
        XCTAssertEqual(facts[tr("As of")], "2025-11-01T00:00:00")
        XCTAssertEqual(facts[tr("Period start")], "2025-10-01T00:00:00")
        XCTAssertEqual(facts[tr("Engine")], "ezreport 1.0.0-test")
        XCTAssertEqual(facts[tr("Quarantined rows")], "1")
        let types = Dictionary(about.compactMap { r in r.count > 1 ? r[0].v.map { ($0, r[1].t) } : nil }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(types[tr("Quarantined rows")], "n")
        XCTAssertEqual(types[tr("As of")], "d")
        XCTAssertEqual(facts["transactions"], "unknown kind 'refund'")
    }

    // MARK: - Determinism

    func testTwoWritesGiveIdenticalBytes() throws {
        let a = try Data(contentsOf: URL(fileURLWithPath: writeWorkbook(name: "a.xlsx")))
        let b = try Data(contentsOf: URL(fileURLWithPath: writeWorkbook(name: "b.xlsx")))
        XCTAssertGreaterThan(a.count, 5_000)
        XCTAssertEqual(a, b)
    }

    func testCreatedDateIsTheAsOfDateAndNoClockTimeIsStored() throws {
        let path = try writeWorkbook()
        let out = try ExternalReader.python("""
        import sys, zipfile, re
        z = zipfile.ZipFile(sys.argv[1])
        print(sorted(set(i.date_time for i in z.infolist())))
        core = z.read('docProps/core.xml').decode()
        print(re.findall(r'<dcterms:(created|modified)[^>]*>([^<]*)<', core))
        print(re.findall(r'<dc:creator>([^<]*)<', core))
        app = z.read('docProps/app.xml').decode()
        print(re.findall(r'\\d{4}-\\d\\d-\\d\\dT', app))
        """, [path])
        XCTAssertEqual(out, """
        [(1980, 1, 1, 0, 0, 0)]
        [('created', '2025-11-01T00:00:00Z'), ('modified', '2025-11-01T00:00:00Z')]
        ['ezreport']
        []

        """)
    }

    // MARK: - Splitting

    func testTransactionChunksCoverEveryRowOnceAndEmptyGivesOneSheet() {
        XCTAssertEqual(StatementWorkbook.transactionChunks(count: 0, rowsPerSheet: 4), [0..<0])
        XCTAssertEqual(StatementWorkbook.transactionChunks(count: 4, rowsPerSheet: 4), [0..<4])
        XCTAssertEqual(StatementWorkbook.transactionChunks(count: 9, rowsPerSheet: 4), [0..<4, 4..<8, 8..<9])
        XCTAssertEqual(StatementWorkbook.transactionChunks(count: 2_100_000, rowsPerSheet: 1_048_575).map(\.count),
                       [1_048_575, 1_048_575, 2_850])
        XCTAssertEqual(StatementWorkbook.transactionSheetNames(count: 3), ["Transactions", "Transactions (2)", "Transactions (3)"])
    }

    func testRowsBeyondTheSheetLimitContinueOnFurtherSheets() throws {
        let figures = RenderFixtures.figures()
        let path = try ExternalReader.temporaryDirectory() + "/split.xlsx"
        try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: path, rowsPerSheet: 4)
        let names = try sheetNames(path)
        XCTAssertEqual(Array(names.prefix(4)), ["Summary", "Transactions", "Transactions (2)", "Transactions (3)"])
        var ids: [String] = []
        for name in names where name.hasPrefix("Transactions") {
            let rows = try cells(path, sheet: name)
            XCTAssertEqual(rows[0][0].v, "ID", "\(name) repeats the header")
            XCTAssertLessThanOrEqual(rows.count - 1, 4)
            ids += rows.dropFirst().compactMap { $0[0].v }
        }
        XCTAssertEqual(ids, figures.transactions.map { String($0.id) })
    }

    // MARK: - Edges and errors

    func testEmptyFiguresStillGiveEverySheet() throws {
        let path = try writeWorkbook(RenderFixtures.emptyFigures())
        XCTAssertEqual(try sheetNames(path),
                       ["Summary", "Transactions", "Categories", "Trends", "Budgets", "Groups", "Savings", "Comparison", "About"])
        let rows = try cells(path, sheet: "Transactions")
        XCTAssertEqual(rows.count, 1)
    }

    func testAnUnwritablePathThrowsWithTheLibraryMessage() throws {
        let path = "/nonexistent-ezreport-dir/statement.xlsx"
        XCTAssertThrowsError(try StatementWorkbook.write(RenderFixtures.figures(), provenance: RenderFixtures.provenance(), to: path)) {
            let e = $0 as? XLSXError
            XCTAssertNotNil(e)
            XCTAssertTrue(e?.description.contains(path) ?? false, "\(String(describing: e))")
            XCTAssertNotEqual(e?.code, 0)
        }
    }

    func testCategoriesThatDoNotAddUpAreRefused() throws {
        var figures = RenderFixtures.figures()
        figures.categories.total += 1
        let path = try ExternalReader.temporaryDirectory() + "/bad.xlsx"
        XCTAssertThrowsError(try StatementWorkbook.write(figures, provenance: RenderFixtures.provenance(), to: path)) {
            XCTAssertTrue("\($0)".contains("153.48"), "\($0)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "no half-written file")
    }

    /// The noncharacter U+`value` as a string (Swift's literals refuse noncharacters).
    func nonchar(_ value: UInt32) -> String { String(Unicode.Scalar(value)!) }
}
