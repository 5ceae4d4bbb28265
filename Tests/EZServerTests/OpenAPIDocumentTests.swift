import EZTestSupport
import Foundation
import XCTest

/// docs/openapi.yaml is a valid OpenAPI 3.1 document and names every route the server has.
final class OpenAPIDocumentTests: XCTestCase {
    /// docs/openapi.yaml, located from this source file (Tests/EZServerTests/ → the package root).
    let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/openapi.yaml").path

    func testTheOpenAPIDocumentIsValid() throws {
        let out = try CLI.tool("/usr/bin/env", ["python3", "-m", "openapi_spec_validator", document])
        XCTAssertTrue(String(decoding: out, as: UTF8.self).contains(": OK"), String(decoding: out, as: UTF8.self))
    }

    func testTheOpenAPIDocumentListsEveryRoute() throws {
        let text = try String(contentsOfFile: document, encoding: .utf8)
        let routes = [
            "/v1/users/{id}/statement/{period}.pdf:", "/v1/users/{id}/statement/{period}.xlsx:",
            "/v1/users/{id}/statement/{period}/{name}.csv:", "/v1/users/{id}/statement/{period}/charts/{name}.png:",
            "/v1/users/{id}/transactions.csv:", "/v1/users/{id}/transactions.xlsx:", "/v1/users/{id}/transactions.pdf:",
            "/v1/users/{id}/statistics:", "/v1/users/{id}/statistics.png:",
            "/v1/admin/usage/{period}.{format}:", "/healthz:", "/readyz:", "/metrics:",
        ]
        for route in routes { XCTAssertTrue(text.contains("\n  " + route), route) }
    }
}
