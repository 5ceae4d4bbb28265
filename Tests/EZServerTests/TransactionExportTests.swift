import EZServer
import EZTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import XCTest

/// `/transactions.xlsx` and `/transactions.pdf`: the same rows, for the same filters, as
/// `/transactions.csv` (whose rows the filter tests check against SQL), read back with
/// openpyxl and pdftotext, titled in the user's language (the fixture's users read Italian).
final class TransactionExportTests: LiveServerTestCase {
    /// Filters that select several rows, a few, and none.
    private let queries = [
        "from=2026-09-01&to=2026-09-30",
        "from=2026-08-01&to=2026-10-31&category=Food&min=15&q=r",
        "from=2026-09-01&to=2026-09-30&category=Fun&category=Rent",
        "from=2026-09-01&to=2026-09-30&max=12.50",
        "from=2026-09-01&to=2026-09-30&q=no-such-description",
    ]

    private func get(_ format: String, _ query: String) async throws -> TestClient.Response {
        let response = try await server.get("/v1/users/\(fixture.alice)/transactions.\(format)?" + query,
                                            token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .ok, "\(format) \(query): \(response.text.prefix(300))")
        return response
    }

    private func csvRecords(_ query: String) async throws -> [[String]] {
        CSVReader.records(try await get("csv", query).text)
    }

    private func saved(_ bytes: [UInt8], _ ext: String) throws -> String {
        let path = fixture.ledger.folder.appendingPathComponent("export-\(UUID().uuidString).\(ext)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Each sheet's rows as the CSV writes them (ids and dates as text, amounts with the
    /// currency's decimals), by openpyxl.
    private func sheets(_ path: String) throws -> [String: [[String]]] {
        let script = """
            import json, sys, datetime, openpyxl
            book = openpyxl.load_workbook(sys.argv[1])
            decimals = {"JPY": 0}
            out = {}
            for ws in book.worksheets:
                rows = []
                for row in ws.iter_rows(values_only=True):
                    cells = []
                    for i, v in enumerate(row):
                        if v is None: cells.append("")
                        elif isinstance(v, datetime.datetime): cells.append(v.date().isoformat())
                        elif isinstance(v, (int, float)) and ws.title.startswith("Transactions") and i in (7, 9):
                            code = row[8] if i == 7 else row[10]
                            cells.append("%.*f" % (decimals.get(code, 2), v))
                        elif isinstance(v, float) and v.is_integer(): cells.append(str(int(v)))
                        else: cells.append(str(v))
                    rows.append(cells)
                out[ws.title] = rows
            print(json.dumps(out))
            """
        let data = try CLI.tool("/usr/bin/env", ["python3", "-c", script, path])
        return try JSONDecoder().decode([String: [[String]]].self, from: data)
    }

    func testTheXLSXHoldsTheCSVsRowsAndColumnsForTheSameFilters() async throws {
        for query in queries {
            let csv = try await csvRecords(query)
            let path = try saved(try await get("xlsx", query).bytes, "xlsx")
            let book = try sheets(path)
            XCTAssertEqual(Set(book.keys), ["Transactions", "About"], query)
            let sheet = try XCTUnwrap(book["Transactions"])
            // The header in the user's language (Italian), one column per CSV column.
            XCTAssertEqual(sheet.first, ["ID", "Data", "Tipo", "Categoria", "Conto", "Metodo", "Descrizione", "Importo", "Valuta",
                                         "Conteggiato", "Valuta del report", "Gruppo", "Pagato da"], query)
            XCTAssertEqual(sheet.first?.count, csv.first?.count)
            // The same rows; the kind in the reader's words, as the PDF says it (the CSV keeps income/expense/transfer).
            let italian = ["income": "Entrata", "expense": "Spesa", "transfer": "Trasferimento"]
            let translated = csv.dropFirst().map { row in row.enumerated().map { $0.offset == 2 ? italian[$0.element] ?? "?" : $0.element } }
            XCTAssertEqual(Array(sheet.dropFirst()), translated, query)
            let about = try XCTUnwrap(book["About"]).map { $0.prefix(2).joined(separator: "=") }
            XCTAssertTrue(about.contains("Righe=\(csv.count - 1)"), "\(query): \(about)")
        }
        // The filters are named on the About sheet.
        let book = try sheets(try saved(try await get("xlsx", queries[1]).bytes, "xlsx"))
        let about = try XCTUnwrap(book["About"]).map { $0.prefix(2).joined(separator: "=") }
        XCTAssertTrue(about.contains("Categorie=Food"), "\(about)")
        XCTAssertTrue(about.contains("Importo minimo=15.00"), "\(about)")
        XCTAssertTrue(about.contains("La descrizione contiene=r"), "\(about)")
    }

    func testThePDFListsTheCSVsRowsInOrderForTheSameFilters() async throws {
        for query in queries {
            let csv = try await csvRecords(query)
            let path = try saved(try await get("pdf", query).bytes, "pdf")
            let text = String(decoding: try CLI.tool("/usr/bin/pdftotext", ["-layout", "-enc", "UTF-8", path, "-"]), as: UTF8.self)
            // A table row's line starts with its id, then its date ("3 set 2026" in Italian).
            let row = try NSRegularExpression(pattern: #"^\s*([0-9]+)\s+([0-9]{1,2}) \S+ ([0-9]{4})\s"#)
            var ids: [String] = [], dates: [String] = []
            for line in text.split(separator: "\n").map(String.init) {
                guard let m = row.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
                ids.append(String(line[Range(m.range(at: 1), in: line)!]))
                dates.append("\(line[Range(m.range(at: 3), in: line)!])/\(line[Range(m.range(at: 2), in: line)!])")
            }
            XCTAssertEqual(ids, csv.dropFirst().map { $0[0] }, "\(query):\n\(text)")
            XCTAssertEqual(dates, csv.dropFirst().map { "\($0[1].prefix(4))/\(Int($0[1].suffix(2))!)" }, query)
            // Every row's description and category are on the page too (descriptions may be cut in a narrow column).
            for record in csv.dropFirst() {
                XCTAssertTrue(text.contains(record[3]), "\(query): category \(record[3])")
                if !record[6].isEmpty {
                    XCTAssertTrue(text.contains(String(record[6].prefix(8))), "\(query): description \(record[6])")
                }
            }
            XCTAssertTrue(text.contains("Movimenti"), query)
            XCTAssertTrue(text.contains("Filtri"), query)
            if csv.count == 1 { XCTAssertTrue(text.contains("Nessun movimento corrisponde a questi filtri."), text) }
        }
    }

    func testThePDFIsTaggedWithItsTableAndLanguage() async throws {
        let path = try saved(try await get("pdf", queries[0]).bytes, "pdf")
        let info = String(decoding: try CLI.tool("/usr/bin/pdfinfo", [path]), as: UTF8.self)
        XCTAssertTrue(info.range(of: #"Tagged:\s+yes"#, options: .regularExpression) != nil, info)
        let qdf = fixture.ledger.folder.appendingPathComponent("qdf-\(UUID().uuidString).pdf").path
        _ = try CLI.tool("/usr/bin/qpdf", ["--qdf", "--object-streams=disable", path, qdf])
        let raw = String(decoding: try Data(contentsOf: URL(fileURLWithPath: qdf)), as: UTF8.self)
        for element in ["/Table", "/TH", "/TR", "/TD"] {
            XCTAssertTrue(raw.contains("/S \(element)"), "no \(element) structure element")
        }
        XCTAssertTrue(raw.contains("/Lang (it"), "the document's language is not Italian")
    }

    func testEveryFormatHasItsTypeFileNameAndETag() async throws {
        for (format, type, magic) in [("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "PK"),
                                      ("pdf", "application/pdf", "%PDF-")] {
            let response = try await get(format, queries[0])
            XCTAssertEqual(response.headers[.contentType], type)
            XCTAssertEqual(response.headers[.contentDisposition], "attachment; filename=\"transactions-2026-09-01-2026-09-30.\(format)\"")
            XCTAssertEqual(Array(response.bytes.prefix(magic.utf8.count)), Array(magic.utf8))
            let tag = try XCTUnwrap(response.headers[.eTag])
            let again = try await server.get("/v1/users/\(fixture.alice)/transactions.\(format)?" + queries[0],
                                             token: try await fixture.token(fixture.alice), headers: [.ifNoneMatch: tag])
            XCTAssertEqual(again.status, .notModified, format)
        }
    }

    func testBadFiltersAndOtherPeoplesIdsAreRefusedAsForTheCSV() async throws {
        let token = try await fixture.token(fixture.alice)
        for format in ["xlsx", "pdf"] {
            let bad = try await server.get("/v1/users/\(fixture.alice)/transactions.\(format)?from=2026-09-30&to=2026-09-01", token: token)
            XCTAssertEqual(bad.status, .badRequest, format)
            XCTAssertEqual(bad.headers[.contentType], "application/problem+json")
            let other = try await server.get("/v1/users/\(fixture.dave)/transactions.\(format)", token: token)
            XCTAssertEqual(other.status, .notFound, format)
            let none = try await server.get("/v1/users/\(fixture.alice)/transactions.\(format)")
            XCTAssertEqual(none.status, .unauthorized, format)
        }
    }

    /// A shop's month (100,000 rows) ran past the 30 s a request may take, was answered 503 with
    /// Retry-After, and a retrying client had it rendered again and again. Over the limit (here
    /// lowered to 3 rows) a PDF is refused at once with 422; the CSV still lists every row, and a
    /// narrower filter gets its PDF.
    func testAPDFOfMoreRowsThanItsLimitIsRefusedAtOnceWhileTheCSVListsThemAll() async throws {
        XCTAssertEqual(ServerConfiguration(ledgerPath: "x", jwtSecret: []).transactionPDFRowLimit, 20_000)
        let limited = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) { $0.transactionPDFRowLimit = 3 }
        let token = try await fixture.token(fixture.alice)
        let range = "from=2026-09-01&to=2026-09-30"
        let pdf = try await limited.get("/v1/users/\(fixture.alice)/transactions.pdf?" + range, token: token)
        let csv = try await limited.get("/v1/users/\(fixture.alice)/transactions.csv?" + range, token: token)
        let narrow = try await limited.get("/v1/users/\(fixture.alice)/transactions.pdf?" + range + "&category=Fun", token: token)
        await limited.stop()
        let rows = CSVReader.records(csv.text).count - 1
        XCTAssertGreaterThan(rows, 3)
        XCTAssertEqual(pdf.status, .unprocessableContent, pdf.text)
        XCTAssertEqual(pdf.headers[.contentType], "application/problem+json")
        XCTAssertNil(pdf.headers[.retryAfter], "retrying cannot help")
        let json = try pdf.json()
        XCTAssertEqual(json["title"] as? String, "Too many rows for a PDF")
        XCTAssertTrue((json["detail"] as? String ?? "").hasPrefix("the range and filters select \(rows) transactions and a PDF lists at most 3"), "\(json)")
        XCTAssertEqual(narrow.status, .ok, narrow.text)
        XCTAssertEqual(Array(narrow.bytes.prefix(5)), Array("%PDF-".utf8))
    }
}
