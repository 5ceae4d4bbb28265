import EZServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import XCTest

/// Every response, whatever its status, tells a browser not to sniff its body for another type:
/// a CSV export or a problem body may hold text from the ledger that looks like HTML.
final class NoSniffTests: LiveServerTestCase {
    func testEveryKindOfResponseCarriesNosniff() async throws {
        let alice = try await fixture.token(fixture.alice)
        let csv = "/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let ok = try await server.get(csv, token: alice)
        let etag = try XCTUnwrap(ok.headers[.eTag])
        let responses: [(String, TestClient.Response)] = [
            ("200", ok),
            ("304", try await server.get(csv, token: alice, headers: [.ifNoneMatch: etag])),
            ("400", try await server.get("/v1/users/\(fixture.alice)/statement/2026-13.pdf", token: alice)),
            ("401", try await server.get(csv)),
            ("403", try await server.get("/v1/admin/usage/2026-09.csv", token: alice)),
            ("404", try await server.get("/no/such/route", token: alice)),
            ("405", try await server.request(.post, csv, token: alice)),
            ("healthz", try await server.get("/healthz")),
        ]
        XCTAssertEqual(responses.map { $0.1.status.code }, [200, 304, 400, 401, 403, 404, 405, 200])
        for (name, response) in responses {
            XCTAssertEqual(response.headers[HTTPField.Name("X-Content-Type-Options")!], "nosniff", name)
        }
    }
}
