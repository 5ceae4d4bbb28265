import EZAnalytics
import EZCharts
import EZCore
import EZLocale
import EZRenderingTestSupport
import Foundation
@testable import EZPDF
import XCTest

/// The statement and the admin report are tagged PDFs, as poppler and qpdf read them: a structure
/// tree in reading order, figures with their data in words, the reader's language, page furniture
/// left out of the structure.
final class PDFTaggingTests: XCTestCase {
    /// One structure element of `pdfinfo -struct-text`: its type, depth and the text under it.
    struct Element { var type: String; var depth: Int; var text: String }

    func structure(_ tools: PDFToolRunner) throws -> [Element] {
        let out = try tools.run("pdfinfo", ["-struct-text", tools.file.path])
        XCTAssertEqual(out.status, 0, out.output)
        var elements: [Element] = []
        for line in out.output.split(separator: "\n") {
            let depth = line.prefix { $0 == " " }.count / 2
            let body = line.drop { $0 == " " }
            if body.hasPrefix("\"") {
                if !elements.isEmpty { elements[elements.count - 1].text += body.dropFirst().dropLast() }
            } else {
                elements.append(Element(type: String(body.prefix { $0 != " " }), depth: depth, text: ""))
            }
        }
        return elements
    }

    /// The catalog's /Lang and DisplayDocTitle and every /Alt, as qpdf's JSON writes them.
    func catalogAndAlts(_ tools: PDFToolRunner) throws -> (lang: String?, displayTitle: Bool?, alts: [String]) {
        let out = try tools.run("qpdf", ["--json=2", "--json-key=qpdf", tools.file.path])
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.output.utf8)) as? [String: Any])
        let qpdf = try XCTUnwrap(json["qpdf"] as? [Any])
        let objects = try XCTUnwrap(qpdf.last as? [String: Any])
        var lang: String?, display: Bool?
        var alts: [(Int, String)] = []
        for (key, object) in objects {
            guard let value = (object as? [String: Any])?["value"] as? [String: Any] else { continue }
            if let l = value["/Lang"] as? String { lang = String(l.dropFirst(2)) }
            if let v = value["/ViewerPreferences"] as? [String: Any] { display = v["/DisplayDocTitle"] as? Bool }
            if let a = value["/Alt"] as? String {
                let number = Int(key.split(separator: " ")[1]) ?? 0
                alts.append((number, String(a.dropFirst(2))))
            }
        }
        return (lang, display, alts.sorted { $0.0 < $1.0 }.map(\.1))
    }

    func testAStatementIsTaggedInReadingOrderWithItsLanguageAndFigureTexts() throws {
        let figures = PDFFixtures.statement(locale: "fr_FR", transactionCount: 60)
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                      name: "tagged-statement.pdf")
        defer { tools.cleanUp() }
        let tr = Translator(locale: "fr_FR")
        XCTAssertEqual(try tools.info()["Tagged"], "yes")
        XCTAssertEqual(try tools.qpdfCheck().status, 0)

        let elements = try structure(tools)
        XCTAssertEqual(elements.first?.type, "Document")
        XCTAssertEqual(elements.first?.depth, 0)
        let headings = elements.filter { $0.type == "H1" }.map(\.text)
        XCTAssertEqual(headings, [tr("Charts"), tr("Spending by category"), tr("Compared with earlier periods"), tr("Budgets"), tr("Groups"),
                                  tr("Family · {name}", ["name": "Famiglia Rossi"]), tr("Savings goals"), tr("Transactions"),
                                  tr("About this report")], "sections in reading order")
        XCTAssertTrue(elements.contains { $0.type == "H2" && $0.text.hasPrefix("Viaggio a Kyōto") },
                      "a group is a sub-heading: \(elements.filter { $0.type == "H2" }.map(\.text))")
        // Every table: one per table of the statement, each with header cells and data cells.
        XCTAssertGreaterThanOrEqual(elements.filter { $0.type == "Table" }.count, 5)
        XCTAssertTrue(elements.contains { $0.type == "TH" && $0.text == tr("Description").uppercased() })
        // The comparison is a table like the others: its column headers are TH cells.
        let yearAgo = LocaleFormat(locale: "fr_FR").monthYearLabel(figures.comparison.yearAgo.end)
        XCTAssertTrue(elements.contains { $0.type == "TH" && $0.text == tr("vs {period}", ["period": yearAgo]).uppercased() },
                      "\(elements.filter { $0.type == "TH" }.map(\.text))")
        XCTAssertTrue(elements.contains { $0.type == "H2" && $0.text == tr("Expenses by category") }, "the comparison's categories")
        XCTAssertTrue(elements.contains { $0.type == "TD" && $0.text == LocaleFormat(locale: "fr_FR").money(figures.kpis.net, .eur) }
                      || elements.contains { $0.type == "TD" && $0.text.contains(LocaleFormat(locale: "fr_FR").money(figures.kpis.net, .eur)) })
        // The charts are figures, in the order they are drawn, each with its data in words.
        let charts = StatementCharts.charts(for: figures).map(\.chart).filter { !$0.isEmpty }
        XCTAssertEqual(elements.filter { $0.type == "Figure" }.count, charts.count)
        let (lang, displayTitle, alts) = try catalogAndAlts(tools)
        XCTAssertEqual(lang, "fr")
        XCTAssertEqual(displayTitle, true)
        XCTAssertEqual(alts.count, charts.count)
        // Each figure's text alternative belongs to a chart drawn: the same title.
        for chart in charts { XCTAssertTrue(alts.contains { $0.hasPrefix(chart.title + ", ") }, chart.title) }
        let pie = try XCTUnwrap(alts.first { $0.hasPrefix(tr("Expenses by category") + ", ") })
        let top = try XCTUnwrap(figures.categories.rows.first)
        XCTAssertTrue(pie.contains("\(top.name) \(LocaleFormat(locale: "fr_FR").percent(top.percent))"), pie)
        // Footers are artifacts: printed on every page, never read as content.
        let pages = try XCTUnwrap(Int(try tools.info()["Pages"] ?? ""))
        let footer = tr("Page {page} of {pages}", ["page": "1", "pages": String(pages)])
        XCTAssertTrue(try tools.text().contains(footer))
        XCTAssertFalse(elements.contains { $0.text.contains(footer) }, "the footer is not in the structure")
        XCTAssertFalse(elements.contains { $0.type == "Private" })
    }

    func testTheAdminReportIsTaggedToo() throws {
        let tools = try PDFToolRunner(bytes: try UsagePDF.render(PDFFixtures.usage(), provenance: PDFFixtures.provenance()),
                                      name: "tagged-usage.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.info()["Tagged"], "yes")
        let elements = try structure(tools)
        XCTAssertEqual(elements.first?.type, "Document")
        XCTAssertTrue(elements.contains { $0.type == "H1" && $0.text == "Month by month" }, "\(elements.filter { $0.type == "H1" })")
        XCTAssertTrue(elements.contains { $0.type == "Table" })
        XCTAssertTrue(elements.contains { $0.type == "Figure" })
        let (lang, displayTitle, alts) = try catalogAndAlts(tools)
        XCTAssertEqual(lang, "en")
        XCTAssertEqual(displayTitle, true)
        XCTAssertEqual(alts.count, elements.filter { $0.type == "Figure" }.count)
    }

    func testTaggedOutputIsDeterministic() throws {
        let figures = PDFFixtures.statement(locale: "ja_JP", transactionCount: 30)
        let a = try StatementPDF.render(figures, provenance: PDFFixtures.provenance())
        let b = try StatementPDF.render(figures, provenance: PDFFixtures.provenance())
        XCTAssertEqual(a, b)
    }

    func testOnlyCompleteFurnitureOpeningsInPageContentBecomeArtifacts() {
        let marked = { (text: String) in PDFAccessibility.artifactMarked(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } }
        // Each complete `/Private << /MCID n >> BDC` becomes `/Artifact BMC`; the bytes around
        // and between them are kept as they are, including other marked content.
        XCTAssertEqual(marked("q /Private << /MCID 12 >> BDC BT (Page 1) Tj ET EMC /P << /MCID 3 >> BDC EMC /Private << /MCID 7 >> BDC EMC Q"),
                       "q /Artifact BMC BT (Page 1) Tj ET EMC /P << /MCID 3 >> BDC EMC /Artifact BMC EMC Q")
        XCTAssertEqual(marked("/Private << /MCID 0 >> BDC"), "/Artifact BMC", "an opening at both ends of the content")
        // Near misses are not furniture: no digits, a different closing, a cut-off end.
        XCTAssertNil(marked("/Private << /MCID  >> BDC /Private << /MCID 4 >> BMC /f-0-0 9 Tf"))
        XCTAssertNil(marked("BT /Span << /MCID 2 >> BDC ET /Private << /MCID 9 >> BD"))
        XCTAssertNil(marked(""))
    }

    func testALongStatementKeepsOneElementPerTableWithItsLanguageFiguresAndArtifacts() throws {
        // More rows than PDFAccessibility.rowLimit: rows and cells are not elements of their own
        // (qpdf's pass would otherwise hold ~6 objects a row), the rest of the tagging stays.
        let figures = PDFFixtures.statement(locale: "de_DE", transactionCount: PDFAccessibility.rowLimit + 100)
        let tools = try PDFToolRunner(bytes: try StatementPDF.render(figures, provenance: PDFFixtures.provenance()),
                                      name: "long-statement.pdf")
        defer { tools.cleanUp() }
        XCTAssertEqual(try tools.info()["Tagged"], "yes")
        XCTAssertEqual(try tools.qpdfCheck().status, 0)
        let elements = try structure(tools)
        let tr = Translator(locale: "de_DE")
        XCTAssertEqual(elements.first?.type, "Document")
        XCTAssertFalse(elements.contains { $0.type == "TD" || $0.type == "TR" })
        XCTAssertLessThan(elements.count, PDFAccessibility.elementLimit / 10)
        XCTAssertTrue(elements.contains { $0.type == "H1" && $0.text == tr("Transactions") })
        let bodies = elements.filter { $0.type == "TBody" }
        XCTAssertGreaterThan(bodies.count, PDFAccessibility.rowLimit / 60, "one TBody per page of a long table")
        // Each page's rows are their TBody's content: pdfinfo reads a row (its date first) under every one
        // of the transaction list's (it stops at the first nested marked content, an ellipsis).
        let dated = try Regex(#"^[0-9]{2}\.[0-9]{2}\.[0-9]{4}"#)
        XCTAssertGreaterThan(bodies.filter { $0.text.contains(dated) }.count, PDFAccessibility.rowLimit / 60)
        XCTAssertTrue(elements.contains { $0.type == "THead" && $0.text.contains(tr("Description").uppercased()) })
        XCTAssertFalse(elements.contains { $0.type == "Private" }, "furniture is an artifact")
        let (lang, _, alts) = try catalogAndAlts(tools)
        XCTAssertEqual(lang, "de")
        XCTAssertEqual(alts.count, elements.filter { $0.type == "Figure" }.count)
    }
}
