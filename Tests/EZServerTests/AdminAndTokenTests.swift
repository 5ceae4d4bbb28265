import EZServer
import EZTestSupport
import Foundation
import HTTPTypes
import JWTKit
import XCTest

/// The admin usage report over HTTP, and `ezreport token`.
final class AdminAndTokenTests: XCTestCase {
    func testTheAdminUsageReportComesInEveryFormatAndMatchesTheCSV() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let token = try await fixture.token(fixture.root)
        var responses: [String: [UInt8]] = [:]
        for format in ["pdf", "xlsx", "csv", "json"] {
            let r = try await server.get("/v1/admin/usage/2026-09.\(format)?as_of=2026-10-01", token: token)
            XCTAssertEqual(r.status, .ok, format)
            responses[format] = r.bytes
        }
        await server.stop()
        XCTAssertEqual(Array(responses["pdf"]!.prefix(5)), Array("%PDF-".utf8))
        XCTAssertEqual(Array(responses["xlsx"]!.prefix(2)), Array("PK".utf8))
        let csv = String(decoding: responses["csv"]!, as: UTF8.self)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(responses["json"]!)) as? [String: Any])
        let rows = try XCTUnwrap(json["rows"] as? [[String: String]])
        XCTAssertEqual(json["period"] as? String, "2026-09")
        XCTAssertEqual(json["as_of"] as? String, "2026-10-01")
        XCTAssertEqual(Set(json.keys), ["period", "as_of", "rows", "users_left_out"])
        XCTAssertEqual(json["users_left_out"] as? Int, 0, "every user's rows convert: the report is complete")
        // Each JSON row is the CSV's row, cell for cell, keyed by the CSV's column names
        // (suppressed cells as the CSV's '<5': with six users, most counts are).
        let records = CSVReader.records(csv)
        let header = try XCTUnwrap(records.first)
        let expected = records.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0).map { ($0, $1) }) }
        XCTAssertEqual(rows.count, 12)
        XCTAssertEqual(rows, Array(expected))
        XCTAssertTrue(rows.contains { $0.values.contains("<5") })
    }

    func testTheTokenCommandMintsATokenTheServerAccepts() async throws {
        let fixture = try ServerFixture()
        let secretFile = fixture.ledger.folder.appendingPathComponent("secret.key").path
        XCTAssertTrue(FileManager.default.createFile(atPath: secretFile, contents: Data(fixture.secret + [0x0A])), "could not create \(secretFile)")
        let run = try CLI.run(["token", "--user", "\(fixture.alice)", "--jwt-secret-file", secretFile, "--ttl", "10m"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let token = run.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: fixture.secret), digestAlgorithm: .sha256)
        let claims = try await keys.verify(token, as: TestClaims.self)
        XCTAssertEqual(claims.sub.value, "\(fixture.alice)")
        XCTAssertEqual(claims.exp.value.timeIntervalSinceNow, 600, accuracy: 30)
        // `iat` and `exp` are whole seconds in the payload (strict JWT libraries refuse fractions).
        let payloadPart = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let payload = try XCTUnwrap(Data(base64Encoded: payloadPart + String(repeating: "=", count: (4 - payloadPart.count % 4) % 4)))
        let text = String(decoding: payload, as: UTF8.self)
        XCTAssertNotNil(text.range(of: #""exp":\d+[,}]"#, options: .regularExpression), text)
        XCTAssertNotNil(text.range(of: #""iat":\d+[,}]"#, options: .regularExpression), text)

        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let response = try await server.get("/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30", token: token)
        await server.stop()
        XCTAssertEqual(response.status, .ok)
    }

    func testTheTokenCommandRefusesABadTTLWithExit64() throws {
        let run = try CLI.run(["token", "--user", "1", "--jwt-secret-file", "/nonexistent", "--ttl", "soon"])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("--ttl"), run.stderr)
    }
}
