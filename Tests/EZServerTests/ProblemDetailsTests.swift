import EZServer
import Foundation
import HTTPTypes
import XCTest

/// Bad input gets 400 (or 404 for a route) with an RFC 9457 body naming the parameter.
final class ProblemDetailsTests: LiveServerTestCase {
    func testEveryBadParameterIsA400ProblemNamingIt() async throws {
        let token = try await fixture.token(fixture.alice)
        let u = "/v1/users/\(fixture.alice)"
        let cases: [(path: String, parameter: String)] = [
            ("\(u)/statement/2026-13.pdf", "period"),
            ("\(u)/statement/not-a-period.xlsx", "period"),
            ("\(u)/statement/2026-09.docx", "format"),
            ("\(u)/statement/2026-09.pdf?as_of=2026-02-30", "as_of"),
            ("\(u)/statement/2026-09/secrets.csv", "name"),
            ("\(u)/statement/2026-09/categories.txt", "format"),
            ("\(u)/statement/2026-09/charts/pie.png", "name"),
            ("\(u)/transactions.csv?from=2026-09-31", "from"),
            ("\(u)/transactions.csv?from=2026-09-10&to=2026-09-01", "from"),
            ("\(u)/transactions.csv?from=2010-01-01&to=2026-09-01", "to"),
            // Ten years and a day by the calendar, though only 3,652 days apart (two leap days).
            ("\(u)/transactions.csv?from=2017-01-01&to=2027-01-01", "to"),
            ("\(u)/transactions.csv?min=12,50", "min"),
            ("\(u)/transactions.csv?max=-3", "max"),
            ("\(u)/transactions.csv?min=1.234", "min"),
            ("\(u)/transactions.csv?max=99999999999999999999", "max"),
            // Both dates out of range: the problem names the first, `from`.
            ("\(u)/transactions.csv?from=0001-01-01&to=0001-12-31", "from"),
            ("\(u)/statistics?min=20&max=10", "min"),
            ("/v1/admin/usage/2026-09.html", "format"),
            // A statement over more than 10 years took a render slot for a minute and 1-2 GB.
            ("\(u)/statement/2000-01-01..2026-09-30.pdf", "period"),
            ("\(u)/statement/2026-09.pdf?as_of=0001-01-01", "as_of"),
            // `to` defaults to today, so a `from` after today is after `to`.
            ("\(u)/transactions.csv?from=2999-01-01", "from"),
            // A single-value parameter given twice used to be silently its first value.
            ("\(u)/statement/2026-09.pdf?as_of=2026-10-01&as_of=2026-11-01", "as_of"),
            ("\(u)/statistics?min=1&min=2", "min"),
            ("\(u)/transactions.csv?q=a&q=b", "q"),
            // 200 code points at most: one letter with 1,000 combining marks is one Character,
            // and searching for it held a render slot for a minute on a large user.
            ("\(u)/transactions.csv?q=e" + String(repeating: "%CC%81", count: 1_000), "q"),
            // A value that does not percent-decode was searched for as written, and found nothing.
            ("\(u)/transactions.csv?q=caf%C3%A9%", "q"),
            ("\(u)/transactions.csv?q=%FF", "q"),
            ("\(u)/statistics?category=Food&category=%E2%82", "category"),
            ("\(u)/statement/2026-09.pdf?as_of=2026-10-0%ZZ", "as_of"),
        ]
        for (path, parameter) in cases {
            let response = try await server.get(path, token: token)
            XCTAssertEqual(response.status, .badRequest, path)
            XCTAssertEqual(response.headers[.contentType], "application/problem+json", path)
            let json = try response.json()
            XCTAssertEqual(json["parameter"] as? String, parameter, path)
            XCTAssertEqual((json["status"] as? NSNumber)?.intValue, 400, path)
            XCTAssertNotNil(json["title"] as? String, path)
            XCTAssertFalse(response.text.contains("Swift"), path)
        }
    }

    func testAnAmountsProblemSaysWhatShapeItTakes() async throws {
        let token = try await fixture.token(fixture.alice)
        let big = try await server.get("/v1/users/\(fixture.alice)/statistics?max=99999999999999999999", token: token)
        XCTAssertEqual(big.status, .badRequest)
        XCTAssertTrue((try big.json()["detail"] as? String ?? "").contains("at most 15 digits before the point and 6 after"), big.text)
    }

    func testAPeriodsProblemSaysWhyWhenTheParserKnows() async throws {
        let token = try await fixture.token(fixture.alice)
        let backwards = try await server.get("/v1/users/\(fixture.alice)/statement/2026-10-01..2026-09-01.pdf", token: token)
        let month = try await server.get("/v1/users/\(fixture.alice)/statement/2026-13.pdf", token: token)
        XCTAssertEqual(backwards.status, .badRequest)
        XCTAssertTrue((try backwards.json()["detail"] as? String ?? "").contains("the range ends before it starts"), backwards.text)
        XCTAssertTrue((try month.json()["detail"] as? String ?? "").contains("month 13 does not exist"), month.text)
    }

    func testAnUnknownRouteIsA404Problem() async throws {
        let response = try await server.get("/v1/users/\(fixture.alice)/nothing-here", token: try await fixture.token(fixture.alice))
        XCTAssertEqual(response.status, .notFound)
        XCTAssertEqual(response.headers[.contentType], "application/problem+json")
        let anonymous = try await server.get("/nothing")
        XCTAssertEqual(anonymous.status, .notFound)
        XCTAssertEqual(anonymous.headers[.contentType], "application/problem+json")
    }

    /// An empty path segment names no route: `statement//transactions.csv` (a client joining an
    /// empty period) answered a 400 about the format `csv`, as if `transactions.csv` were the
    /// period's file. Every such path is now a 404, as an unknown route is.
    func testAnEmptyPathSegmentIsA404NotAProblemAboutAParameter() async throws {
        let token = try await fixture.token(fixture.alice)
        let u = "/v1/users/\(fixture.alice)"
        for path in ["\(u)/statement//transactions.csv", "\(u)/statement//2026-09.pdf", "\(u)//statistics",
                     "/v1/admin/usage//2026-09.csv", "\(u)/statement/2026-09//categories.csv",
                     // A trailing slash too: `/healthz/` and `….pdf/` answered 200 (outside server test).
                     "\(u)/statistics/", "\(u)/statement/2026-09.pdf/", "/healthz/", "/v1/"] {
            let response = try await server.get(path, token: token)
            XCTAssertEqual(response.status, .notFound, path)
            XCTAssertEqual(response.headers[.contentType], "application/problem+json", path)
            let problem = try response.json()
            XCTAssertNil(problem["parameter"], "\(path): \(problem)")
        }
        // The same routes without the empty segment are found.
        let found = try await server.get("\(u)/statistics", token: token)
        XCTAssertEqual(found.status, .ok)
        let root = try await server.get("/healthz", token: nil)
        XCTAssertEqual(root.status, .ok)
    }
}
