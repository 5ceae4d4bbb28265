import EZAnalytics
import EZCore
@testable import EZCSV
import Foundation
import EZRenderingTestSupport
import XCTest

/// The statement CSV files, read back by Python's csv module (an independent reader).
final class CSVStatementTests: XCTestCase {
    override func tearDown() { ExternalReader.removeTemporaryDirectories() }

    /// The contract of docs/exports.md, spelled out independently of the implementation.
    let contract: [(String, String)] = [
        ("transactions.csv", "id,date,kind,category,balance,method,description,amount,currency,counted,report_currency,group,paid_by"),
        ("categories.csv", "category,count,amount,percent,currency,previous_amount,year_ago_amount"),
        ("trends.csv", "bucket_start,income,expenses,net,transaction_count,currency"),
        ("category-trends.csv", "bucket_start,category,expenses,currency"),
        ("budgets.csv", "category,window_start,window_end,base,transfers_in,transfers_out,effective,spent,remaining,percent,expected_percent,projected,status,currency"),
        ("groups.csv", "group_id,group,member_id,member,paid,share,net,outstanding,currency,settled"),
        ("settlements.csv", "group_id,group,from,to,amount,currency,plan"),
        ("savings.csv", "goal,target,saved,percent,due_on,monthly_needed,currency"),
        ("comparison.csv", "measure,current,previous,year_ago,currency"),
    ]

    /// Writes the files to a directory and returns it.
    func writeFiles(_ files: [CSVFile]) throws -> String {
        let dir = try ExternalReader.temporaryDirectory()
        for f in files { try Data(f.bytes).write(to: URL(fileURLWithPath: "\(dir)/\(f.name)")) }
        return dir
    }

    /// Every row of a CSV file as Python's csv module reads it (newline='' as its docs require).
    func pythonRows(_ path: String) throws -> [[String]] {
        let script = """
        import csv, json, sys
        with open(sys.argv[1], newline='', encoding='utf-8') as f:
            print(json.dumps(list(csv.reader(f, strict=True))))
        """
        return try ExternalReader.json([[String]].self, ExternalReader.python(script, [path]))
    }

    func testEveryStatementFileHasTheContractNameAndHeaderInOrder() throws {
        let files = StatementCSV.files(for: RenderFixtures.figures())
        XCTAssertEqual(files.map(\.name), contract.map(\.0))
        for (file, (_, header)) in zip(files, contract) {
            let text = String(decoding: file.bytes, as: UTF8.self)
            XCTAssertTrue(text.hasPrefix(header + "\r\n"), "\(file.name) starts with \(text.prefix(120))")
        }
    }

    func testEmptyFiguresGiveHeaderOnlyFilesAndAllZeroComparison() throws {
        let files = StatementCSV.files(for: RenderFixtures.emptyFigures())
        XCTAssertEqual(files.map(\.name), contract.map(\.0))
        // comparison.csv always has its three measures, zeros for a user with nothing.
        let zeros = "income,0.00,0.00,0.00,EUR\r\nexpenses,0.00,0.00,0.00,EUR\r\nnet,0.00,0.00,0.00,EUR\r\n"
        for (file, (_, header)) in zip(files, contract) {
            XCTAssertEqual(String(decoding: file.bytes, as: UTF8.self), header + "\r\n" + (file.name == "comparison.csv" ? zeros : ""),
                           file.name)
        }
        let dir = try writeFiles(files)
        for (name, header) in contract where name != "comparison.csv" {
            XCTAssertEqual(try pythonRows("\(dir)/\(name)"), [header.components(separatedBy: ",")], name)
        }
    }

    func testGroupsCarryThePeriodsSettleUpPaymentsInTheAppendedSettledColumn() throws {
        let dir = try writeFiles(StatementCSV.files(for: RenderFixtures.figuresWithASettleUpPayment()))
        let groups = try pythonRows("\(dir)/groups.csv")
        XCTAssertEqual(groups[1], ["3", "Trip, \"Rome\"", "7", "ana", "30.00", "15.00", "15.00", "10.00", "EUR", "-5.00"])
        XCTAssertEqual(groups[2], ["3", "Trip, \"Rome\"", "8", "'=bob", "0.00", "15.00", "-15.00", "-10.00", "EUR", "5.00"])
        let settlements = try pythonRows("\(dir)/settlements.csv")
        XCTAssertEqual(settlements[1], ["3", "Trip, \"Rome\"", "'=bob", "ana", "10.00", "EUR", "exact"])
    }

    // MARK: - Comparison

    /// categories.csv as it was before the comparison columns, written here from the figures
    /// independently: the appended columns must leave every earlier byte of each line as it was.
    func testCategoriesKeepTheirOriginalColumnsByteForByteWithTheComparisonAppended() throws {
        let figures = RenderFixtures.figures()
        let file = try XCTUnwrap(StatementCSV.files(for: figures).first { $0.name == "categories.csv" })
        let lines = String(decoding: file.bytes, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
        XCTAssertEqual(lines.first, "category,count,amount,percent,currency,previous_amount,year_ago_amount")
        XCTAssertEqual(lines.count, figures.categories.rows.count + 1, "the period's categories, and only they")
        for (line, c) in zip(lines.dropFirst(), figures.categories.rows) {
            let name = RenderFixtures.startsLikeAFormula(c.name) ? "'" + c.name : c.name
            let original = "\(name),\(c.count),\(MinorUnits.plainDecimal(c.amount, exponent: 2)),\(c.percent),EUR"
            let earlier = RenderFixtures.earlierByCategory[c.name]!
            XCTAssertEqual(line, original + ",\(MinorUnits.plainDecimal(earlier.previous, exponent: 2)),"
                + MinorUnits.plainDecimal(earlier.yearAgo, exponent: 2), c.name)
        }
    }

    func testCategoryComparisonColumnsReadBackAsTheFixturesEarlierAmounts() throws {
        let dir = try writeFiles(StatementCSV.files(for: RenderFixtures.figures()))
        let rows = try pythonRows("\(dir)/categories.csv")
        XCTAssertEqual(rows[1], ["Shopping", "2", "78.83", "51.4", "EUR", "40.00", "0.00"])
        XCTAssertEqual(rows[2], ["'=Games", "2", "34.69", "22.6", "EUR", "0.00", "12.00"])
        XCTAssertEqual(rows[3], ["Food", "3", "29.77", "19.4", "EUR", "60.00", "30.00"])
        XCTAssertFalse(rows.contains { $0[0] == "Travel" }, "a category with expenses only a year ago is not one of the period's")
    }

    func testComparisonHasIncomeExpensesAndNetInThreePeriods() throws {
        let figures = RenderFixtures.figures()
        let file = try XCTUnwrap(StatementCSV.files(for: figures).first { $0.name == "comparison.csv" })
        // Income 2500.00 now, 0 last month, 2400.00 a year ago; expenses 153.48 / 100.00 / 92.00.
        XCTAssertEqual(String(decoding: file.bytes, as: UTF8.self), """
            measure,current,previous,year_ago,currency\r
            income,2500.00,0.00,2400.00,EUR\r
            expenses,153.48,100.00,92.00,EUR\r
            net,2346.52,-100.00,2308.00,EUR\r

            """)
        let dir = try writeFiles([file])
        let rows = try pythonRows("\(dir)/comparison.csv")
        XCTAssertEqual(rows.map { $0[0] }, ["measure", "income", "expenses", "net"])
        // Each row's net is income − expenses, in every period, to the cent.
        func cents(_ s: String) -> Int64 { Int64(s.replacingOccurrences(of: ".", with: ""))! }
        for column in 1...3 {
            XCTAssertEqual(cents(rows[3][column]), cents(rows[1][column]) - cents(rows[2][column]), "column \(rows[0][column])")
        }
    }

    func testTrickyDescriptionsSurviveAPythonCSVRoundTrip() throws {
        let figures = RenderFixtures.figures()
        let dir = try writeFiles(StatementCSV.files(for: figures))
        let rows = try pythonRows("\(dir)/transactions.csv")
        XCTAssertEqual(rows.count, figures.transactions.count + 1)
        let header = rows[0]
        let description = try XCTUnwrap(header.firstIndex(of: "description"))
        for (row, original) in zip(rows.dropFirst(), figures.transactions) {
            let expected = RenderFixtures.startsLikeAFormula(original.description) ? "'" + original.description : original.description
            XCTAssertEqual(row[description], expected)
            XCTAssertEqual(row.count, header.count)
        }
        // The quoted balance and group names come back whole.
        XCTAssertEqual(rows[1][header.firstIndex(of: "balance")!], "Card, \"main\"")
        XCTAssertEqual(rows[4][header.firstIndex(of: "group")!], "Trip, \"Rome\"")
        XCTAssertEqual(rows[4][header.firstIndex(of: "paid_by")!], "bob")
    }

    func testFormulaLikeTextIsGuardedButNumbersNeverAre() throws {
        let figures = RenderFixtures.figures()
        let dir = try writeFiles(StatementCSV.files(for: figures))
        let categories = try pythonRows("\(dir)/categories.csv")
        XCTAssertEqual(categories.map { $0[0] }, ["category", "Shopping", "'=Games", "Food", "Transport"])
        let groups = try pythonRows("\(dir)/groups.csv")
        XCTAssertEqual(groups[2], ["3", "Trip, \"Rome\"", "8", "'=bob", "0.00", "15.00", "-15.00", "-15.00", "EUR", "0.00"])
        let settlements = try pythonRows("\(dir)/settlements.csv")
        XCTAssertEqual(settlements[1], ["3", "Trip, \"Rome\"", "'=bob", "ana", "15.00", "EUR", "greedy"])
        let trends = try pythonRows("\(dir)/trends.csv")
        XCTAssertEqual(trends[2], ["2025-09-01", "0.00", "100.00", "-12.50", "6", "EUR"])
    }

    /// The documented reader's rule, written from docs/exports.md's words (not from the writer's
    /// bytes): after the leading quotes and then any blanks (space, U+00A0, U+3000), a formula
    /// sign (`=+-@`, tab, CR, LF, NUL or a full-width `＝＋－＠`) means the field was guarded.
    private func wasGuarded(_ field: String) -> Bool {
        let signs: Set<Character> = ["=", "+", "-", "@", "\t", "\r", "\n", "\0", "＝", "＋", "－", "＠"]
        let blanks: Set<Character> = [" ", "\u{00A0}", "\u{3000}"]
        let rest = field.drop { $0 == "'" }.drop { blanks.contains($0) }
        return rest.first.map { signs.contains($0) } ?? false
    }

    /// The guard can be undone exactly by the documented rule (drop one `'` when the leading
    /// quotes, then blanks, are followed by a formula sign): a description typed as `'=1+1` used
    /// to come out as `'=1+1`, exactly like a guarded `=1+1`, and read back as `=1+1`.
    func testTheFormulaGuardIsUndoneExactlyByTheDocumentedRule() throws {
        let texts = ["=1+1", "'=1+1", "''=1+1", "'hello'", "'", "''", "-5", "'-5", "@SUM(A1)", "'@x", "\tx", "'\tx", "plain", "a'=b",
                     " =1+1", "' =1+1", "\u{3000}＝1+1", "＋1", "'－1", "＠x", "\u{00A0}@x", "\nx", "  plain", " ", "\u{3000}", "＝"]
        var writer = CSVWriter(header: ["text"])
        for t in texts { writer.text(t); writer.endRow() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("guard.csv").path
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(writer.bytes)))
        let read = try pythonRows(file).dropFirst().map { $0[0] }
        XCTAssertEqual(read.count, texts.count)
        for (written, original) in zip(read, texts) {
            XCTAssertFalse(written.first.map { "=+-@\t\r\n＝＋－＠".contains($0) } ?? false, "'\(written)' could start a formula")
            let unguarded = wasGuarded(written) ? String(written.dropFirst()) : written
            XCTAssertEqual(unguarded, original, "written as '\(written)'")
        }
    }

    /// A spreadsheet that trims leading blanks on import, or an East Asian input method's
    /// full-width signs, would still reach a formula: `" =HYPERLINK(…)"` and `"＝1+1"` are guarded
    /// like `"=1+1"`, and so is a text that begins with LF or NUL (ASVS 1.2.10). Plain texts that
    /// merely start with blanks, or hold a sign later on, are written as they are.
    func testBlanksBeforeASignAndFullWidthSignsAreGuarded() {
        func written(_ text: String) -> String {
            var writer = CSVWriter(header: ["t"])
            writer.text(text)
            writer.endRow()
            return String(decoding: writer.bytes, as: UTF8.self)
        }
        XCTAssertEqual(written(" =HYPERLINK(\"http://x\")"), "t\r\n\"' =HYPERLINK(\"\"http://x\"\")\"\r\n")
        XCTAssertEqual(written("\u{3000}\u{00A0} @x"), "t\r\n'\u{3000}\u{00A0} @x\r\n")
        for sign in ["＝", "＋", "－", "＠"] {
            XCTAssertEqual(written("\(sign)1"), "t\r\n'\(sign)1\r\n", sign)
        }
        XCTAssertEqual(written("\0x"), "t\r\n'\0x\r\n")
        XCTAssertEqual(written("\nx"), "t\r\n\"'\nx\"\r\n")
        XCTAssertEqual(written("  two spaces"), "t\r\n  two spaces\r\n")
        XCTAssertEqual(written("a = b"), "t\r\na = b\r\n")
        XCTAssertEqual(written("\u{FF10}"), "t\r\n\u{FF10}\r\n", "a full-width digit is no sign")
    }

    func testAmountsArePlainDecimalsWithTheCurrencysMinorDigits() throws {
        let figures = RenderFixtures.figures()
        let dir = try writeFiles(StatementCSV.files(for: figures))
        let rows = try pythonRows("\(dir)/transactions.csv")
        let h = rows[0]
        let yen = try XCTUnwrap(rows.first { $0[0] == "108" })
        XCTAssertEqual(yen[h.firstIndex(of: "amount")!], "1500")
        XCTAssertEqual(yen[h.firstIndex(of: "currency")!], "JPY")
        XCTAssertEqual(yen[h.firstIndex(of: "counted")!], "9.50")
        XCTAssertEqual(yen[h.firstIndex(of: "report_currency")!], "EUR")
        XCTAssertEqual(yen[h.firstIndex(of: "date")!], "2025-10-09")
        let transfer = try XCTUnwrap(rows.first { $0[0] == "201" })
        XCTAssertEqual(transfer[h.firstIndex(of: "counted")!], "0.00")
        XCTAssertEqual(transfer[h.firstIndex(of: "kind")!], "transfer")
        let savings = try pythonRows("\(dir)/savings.csv")
        XCTAssertEqual(savings[1], ["Bike", "800.00", "200.50", "25.1", "2026-04-30", "99.92", "EUR"])
        XCTAssertEqual(savings[2], ["Trip to Japan", "300000", "1500", "0.5", "", "", "JPY"])
        XCTAssertEqual(MinorUnits.plainDecimal(-1250, exponent: 2), "-12.50")
    }

    func testCountedExpensesAddUpToTheStatementsExpenses() throws {
        let figures = RenderFixtures.figures()
        let dir = try writeFiles(StatementCSV.files(for: figures))
        let rows = try pythonRows("\(dir)/transactions.csv")
        let h = rows[0]
        let cents = rows.dropFirst().filter { $0[h.firstIndex(of: "kind")!] == "expense" }
            .map { Int64($0[h.firstIndex(of: "counted")!].replacingOccurrences(of: ".", with: ""))! }
        XCTAssertEqual(cents.reduce(0, +), figures.kpis.expenses)
    }

    func testBudgetsCategoryTrendsAndPercentsAreWrittenInFull() throws {
        let dir = try writeFiles(StatementCSV.files(for: RenderFixtures.figures()))
        let budgets = try pythonRows("\(dir)/budgets.csv")
        XCTAssertEqual(budgets[1], ["", "2025-10-01", "2025-10-31", "150.00", "0.00", "0.00", "150.00", "153.48", "-3.48",
                                    "102.3", "100.0", "153.48", "over", "EUR"])
        XCTAssertEqual(budgets[2][0], "Food")
        XCTAssertEqual(budgets[2][12], "warning")
        let grid = try pythonRows("\(dir)/category-trends.csv")
        XCTAssertEqual(grid.count, 1 + 3 * 4, "every bucket × every category")
        XCTAssertEqual(grid[1], ["2025-08-01", "Shopping", "0.00", "EUR"])
        XCTAssertEqual(grid[10], ["2025-10-01", "'=Games", "34.69", "EUR"])
        let categories = try pythonRows("\(dir)/categories.csv")
        let tenths = categories.dropFirst().map { Int($0[3].replacingOccurrences(of: ".", with: ""))! }
        XCTAssertEqual(tenths.reduce(0, +), 1000)
    }

    func testLinesEndWithCRLFAndTextIsUTF8() throws {
        let file = StatementCSV.files(for: RenderFixtures.figures())[0]
        let text = String(decoding: file.bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\"Café 🍕☕️ and 寿司\"") || text.contains("Café 🍕☕️ and 寿司"))
        // Every record separator is CRLF; a bare LF only appears inside a quoted field.
        XCTAssertTrue(text.hasSuffix("\r\n"))
        XCTAssertFalse(file.bytes.starts(with: [0xEF, 0xBB, 0xBF]), "no byte-order mark")
        XCTAssertEqual(text.components(separatedBy: "\r\n").count - 1, RenderFixtures.figures().transactions.count + 2,
                       "one CRLF per record plus the one inside the multi-line description")
    }

    func testTheSameFiguresGiveIdenticalBytes() {
        let a = StatementCSV.files(for: RenderFixtures.figures())
        let b = StatementCSV.files(for: RenderFixtures.figures())
        XCTAssertEqual(a, b)
    }
}
