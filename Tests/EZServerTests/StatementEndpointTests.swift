import EZServer
import EZTestSupport
import Foundation
import HTTPTypes
import XCTest

/// The statement endpoints give the very bytes `ezreport export` writes for the same user,
/// period, as-of date and ledger path.
final class StatementEndpointTests: LiveServerTestCase {
    private func export(_ format: String, out: String) throws -> CLI.Outcome {
        let run = try CLI.run(["export", "--db", fixture.ledger.path, "--user", "\(fixture.alice)", "--period", fixture.period,
                               "--as-of", fixture.asOf, "--format", format, "--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run
    }

    func testThePDFAndWorkbookAreByteForByteTheExportedOnes() async throws {
        let token = try await fixture.token(fixture.alice)
        for format in ["pdf", "xlsx"] {
            let exported = try export(format, out: "-")
            let response = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09.\(format)?as_of=2026-10-01", token: token)
            XCTAssertEqual(response.status, .ok, format)
            XCTAssertFalse(exported.stdout.isEmpty)
            XCTAssertEqual(response.bytes, Array(exported.stdout), "\(format) differs from ezreport export")
            XCTAssertEqual(response.headers[.contentDisposition], "attachment; filename=\"statement-2026-09.\(format)\"")
        }
    }

    /// A preset period names its download by the period it stands for, as the admin report
    /// does (`statement-2026-09.pdf`, not `statement-last-month.pdf`).
    /// RFC 3986 §6.2.2.2: an encoded unreserved character is the character. `/v1/users/%3X…`
    /// answered 404 and `2026%2D09` was "not a period"; an encoded `/` still splits nothing.
    func testEncodedUnreservedCharactersInThePathAreTheCharacters() async throws {
        let token = try await fixture.token(fixture.alice)
        let id = String(fixture.alice)
        let plain = try await server.get("/v1/users/\(id)/statement/2026-09/categories.csv?as_of=2026-10-01", token: token)
        let encodedId = "%3" + String(id.first!) + id.dropFirst()
        let encoded = try await server.get("/v1/users/\(encodedId)/statement/2026%2D09/categ%6Fries.csv?as_of=2026-10-01", token: token)
        XCTAssertEqual(plain.status, .ok)
        XCTAssertEqual(encoded.status, .ok)
        XCTAssertEqual(encoded.bytes, plain.bytes)
        let slash = try await server.get("/v1/users/\(id)%2Fstatement/2026-09/categories.csv", token: token)
        XCTAssertEqual(slash.status, .notFound, "an encoded slash is not a separator")
    }

    func testAPresetPeriodsDownloadIsNamedByItsDates() async throws {
        let token = try await fixture.token(fixture.alice)
        for (path, name) in [("statement/last-month.pdf", "statement-2026-09.pdf"), ("statement/last-month/transactions.csv", "transactions-2026-09.csv"),
                             ("statement/this-month/charts/trend.png", "trend-2026-10.png")] {
            let response = try await server.get("/v1/users/\(fixture.alice)/\(path)?as_of=2026-10-01", token: token)
            XCTAssertEqual(response.status, .ok, path)
            XCTAssertEqual(response.headers[.contentDisposition], "attachment; filename=\"\(name)\"", path)
        }
    }

    /// For a user paid on the 25th, `last-month` as of 27 October is 25 Sep – 24 Oct, the month
    /// named `2026-10`: the download was named `statement-2026-09.pdf` (the calendar's last month).
    func testAPaydayUsersPresetIsNamedByTheMonthTheyGot() async throws {
        let fixture = try ServerFixture()
        try fixture.ledger.execute("UPDATE users SET month_start_day = 25 WHERE id = ?", [fixture.alice])
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.alice)
        for (path, name) in [("statement/last-month.pdf", "statement-2026-10.pdf"), ("statement/this-month/transactions.csv", "transactions-2026-11.csv")] {
            let response = try await server.get("/v1/users/\(fixture.alice)/\(path)?as_of=2026-10-27", token: token)
            XCTAssertEqual(response.status, .ok, path)
            XCTAssertEqual(response.headers[.contentDisposition], "attachment; filename=\"\(name)\"", path)
        }
        await server.stop()
    }

    func testEveryCSVAndChartIsByteForByteTheExportedFile() async throws {
        let folder = fixture.ledger.folder.appendingPathComponent("export").path
        _ = try export("csv,png", out: folder)
        let token = try await fixture.token(fixture.alice)
        for name in ["transactions", "categories", "trends", "category-trends", "budgets", "groups", "settlements", "savings", "comparison"] {
            let file = try XCTUnwrap(FileManager.default.contents(atPath: "\(folder)/\(name).csv"), name)
            let response = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09/\(name).csv?as_of=2026-10-01", token: token)
            XCTAssertEqual(response.status, .ok, name)
            XCTAssertEqual(response.bytes, Array(file), "\(name).csv differs")
        }
        let charts = try FileManager.default.contentsOfDirectory(atPath: folder + "/charts").filter { $0.hasSuffix(".png") }
        XCTAssertGreaterThanOrEqual(charts.count, 5)
        for chart in charts {
            let file = try XCTUnwrap(FileManager.default.contents(atPath: "\(folder)/charts/\(chart)"))
            let response = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09/charts/\(chart)?as_of=2026-10-01", token: token)
            XCTAssertEqual(response.status, .ok, chart)
            XCTAssertEqual(response.headers[.contentType], "image/png")
            XCTAssertEqual(response.bytes, Array(file), "\(chart) differs")
        }
    }

    /// A group share that cannot be converted into its member's currency (the ledger without
    /// the pair's rates up to the group's first expense): every statement of that member answered
    /// 500 ("the server logged why"), an error a client may retry. The figures cannot be made
    /// until the data changes, so it is a 422 problem, and it names no row.
    func testFiguresTheLedgerCannotMakeAre422NotAServerError() async throws {
        let sample = try SampleFixture.shared()
        let ledger = try sample.copyOfLedger("missing-rate")
        let found = try XCTUnwrap(SampleFixture.firstRow("""
            SELECT gm.user_id, u.currency, g.currency, substr(MIN(t.occurred_at), 1, 10) FROM group_members gm
            JOIN users u ON u.id = gm.user_id JOIN groups g ON g.id = gm.group_id JOIN transactions t ON t.group_id = g.id
            WHERE u.currency != g.currency AND u.deleted_at IS NULL AND t.deleted_at IS NULL AND t.occurred_at < '2026-09'
            GROUP BY gm.user_id, g.id ORDER BY gm.user_id LIMIT 1
            """, in: ledger), "the sample has a member whose currency is not their group's")
        let (member, own, groupCurrency, first) = (found[0], found[1], found[2], found[3])
        try SampleFixture.execute("""
            DELETE FROM exchange_rates WHERE day <= ?
              AND ((base = ? AND quote = ?) OR (base = ? AND quote = ?))
            """, [first, own, groupCurrency, groupCurrency, own], in: ledger)
        let other = try await LiveServer.start(ledger: ledger, secret: fixture.secret)
        defer { Task { await other.stop() } }
        let response = try await other.get("/v1/users/\(member)/statement/\(sample.period)/categories.csv?as_of=\(sample.asOf)",
                                           token: try await fixture.token(Int64(member)!))
        XCTAssertEqual(response.status, .unprocessableContent, response.text)
        XCTAssertEqual(response.headers[.contentType], "application/problem+json")
        XCTAssertTrue(response.text.contains("cannot be computed"), response.text)
        XCTAssertFalse(response.text.contains(groupCurrency) || response.text.contains("transaction"), "the problem names no row: \(response.text)")
    }

    /// A year of a shop's 200,000 rows took 36 s to draw, past the 30 s a request may take: it was
    /// answered 503 with `Retry-After: 1` on every try, and each try held a render slot. Over the
    /// limit (here lowered to 3 rows) a statement PDF is refused at once with 422; its workbook is made.
    func testAStatementPDFOfMoreRowsThanItsLimitIsRefusedAtOnceWhileItsWorkbookIsMade() async throws {
        XCTAssertEqual(ServerConfiguration(ledgerPath: "x", jwtSecret: []).statementPDFRowLimit, 100_000)
        let limited = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) { $0.statementPDFRowLimit = 3 }
        let token = try await fixture.token(fixture.alice)
        let pdf = try await limited.get("/v1/users/\(fixture.alice)/statement/\(fixture.period).pdf?as_of=\(fixture.asOf)", token: token)
        let xlsx = try await limited.get("/v1/users/\(fixture.alice)/statement/\(fixture.period).xlsx?as_of=\(fixture.asOf)", token: token)
        await limited.stop()
        XCTAssertEqual(pdf.status, .unprocessableContent, pdf.text)
        XCTAssertNil(pdf.headers[.retryAfter], "retrying cannot help")
        let json = try pdf.json()
        XCTAssertEqual(json["title"] as? String, "Too many rows for a PDF")
        XCTAssertTrue((json["detail"] as? String ?? "").contains("a statement PDF made here lists at most 3"), "\(json)")
        XCTAssertEqual(xlsx.status, .ok)
    }

    func testAChartTheStatementDoesNotHaveIs404() async throws {
        let response = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09/charts/groups.png?as_of=2026-10-01",
                                            token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .notFound)
        XCTAssertEqual(response.headers[.contentType], "application/problem+json")
    }

    func testFileResponsesCarryAStrongETagOfTheirBytes() async throws {
        let response = try await server.get("/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01",
                                            token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.headers[.cacheControl], "private, no-cache")
        let digest = ProcessSHA256.hex(response.bytes)
        XCTAssertEqual(response.headers[.eTag], "\"\(digest)\"")
    }
}

/// SHA-256 for checking ETags independently of the server's code: `sha256sum`.
enum ProcessSHA256 {
    static func hex(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ezserver-\(UUID().uuidString)").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "could not create \(path)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = (try? CLI.tool("/usr/bin/sha256sum", [path])) ?? Data()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }
}
