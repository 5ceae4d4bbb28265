import EZCore
import EZServer
import EZTestSupport
import Foundation
import HTTPTypes
import XCTest

/// `--log-format json`: one JSON object per request, with what an operator needs and nothing
/// a caller sent as a secret.
final class JSONLogTests: XCTestCase {
    func testJSONLogsHaveOneLinePerRequestWithItsFieldsAndNoSecrets() async throws {
        let fixture = try ServerFixture()
        let server = try await ServeProcess(fixture: fixture, extra: ["--log-format", "json"])
        let token = try await fixture.token(fixture.alice)
        let adminToken = try await fixture.token(fixture.root)
        // A query value that must not be logged, and a token in the query string, as a careless client might send it.
        let secretText = "PIZZA-SECRET-QUERY"
        let requests: [(path: String, token: String?, status: Int, route: String, user: String)] = [
            ("/healthz", nil, 200, "/healthz", "-"),
            ("/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30&q=\(secretText)&access_token=\(token)", token, 200,
             "/v1/users/{id}/statistics", "\(fixture.alice)"),
            ("/v1/users/\(fixture.alice)/transactions.csv?from=2026-09-01&to=2026-09-30", token, 200,
             "/v1/users/{id}/transactions.csv", "\(fixture.alice)"),
            ("/v1/users/\(fixture.dave)/statistics", token, 404, "/v1/users/{id}/statistics", "\(fixture.alice)"),
            ("/v1/users/\(fixture.alice)/statistics", nil, 401, "/v1/users/{id}/statistics", "-"),
            ("/v1/admin/usage/2026-09.csv?as_of=2026-10-01", adminToken, 200, "/v1/admin/usage/{period}.csv", "\(fixture.root)"),
        ]
        var sizes: [Int] = []
        for r in requests {
            let response = try await TestClientRequest.get(port: server.port, r.path, token: r.token)
            XCTAssertEqual(Int(response.status.code), r.status, r.path)
            sizes.append(response.bytes.count)
        }
        let status = try await server.stop()
        XCTAssertEqual(status, 0)

        let log = server.stderr
        let objects = try log.split(separator: "\n").map { line -> [String: Any] in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return try XCTUnwrap(object, "not a JSON object: \(line)")
        }
        XCTAssertFalse(objects.isEmpty)
        let lines = objects.filter { $0["message"] as? String == "request" }
        XCTAssertEqual(lines.count, requests.count, log)
        for (line, (r, size)) in zip(lines, zip(requests, sizes)) {
            XCTAssertEqual(line["method"] as? String, "GET")
            XCTAssertEqual(line["route"] as? String, r.route, r.path)
            XCTAssertEqual(line["status"] as? String, String(r.status), r.path)
            XCTAssertEqual(line["bytes"] as? String, String(size), r.path)
            XCTAssertEqual(line["user"] as? String, r.user, r.path)
            let ms = try XCTUnwrap(Double(line["ms"] as? String ?? ""), "ms is not a number: \(line)")
            XCTAssertGreaterThanOrEqual(ms, 0)
            XCTAssertNotNil(line["ts"] as? String)
            XCTAssertEqual(line["level"] as? String, "info")
        }
        for secret in [token, adminToken, secretText, "Bearer", String(decoding: fixture.secret, as: UTF8.self)] {
            XCTAssertFalse(log.contains(secret), "'\(secret.prefix(12))…' reached the log")
        }
        XCTAssertFalse(log.contains("from=2026"), "a query string reached the log")
        // The route as api.md's example writes it, so that a grep copied from there finds it.
        XCTAssertTrue(log.contains(#""route":"/v1/users/{id}/statistics""#), log)
        XCTAssertFalse(log.contains(#"\/"#), "slashes escaped: \(log)")
    }

    /// A request the HTTP layer refuses before the router (the parser's 400s, a bad `Host`,
    /// `CONNECT`) gets its line and is counted on `/metrics`: they left no trace (outside server test).
    func testARequestRefusedBelowTheRouterIsLoggedAndCounted() async throws {
        let fixture = try ServerFixture()
        let server = try await ServeProcess(fixture: fixture, extra: ["--log-format", "json"])
        for request in ["FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "GET /healthz HTTP/1.1\r\n\r\n", "CONNECT a:1 HTTP/1.1\r\nHost: a:1\r\n\r\n"] {
            let connection = try RawConnection(port: server.port)
            try connection.send(request)
            _ = connection.readUntilClosed(timeout: .seconds(5))
        }
        let metrics = try await TestClientRequest.get(port: server.port, "/metrics").text
        XCTAssertTrue(metrics.contains("ezreport_requests_refused_total 3"), metrics)
        let status = try await server.stop()
        XCTAssertEqual(status, 0)
        let refused = try server.stderr.split(separator: "\n").compactMap { line -> [String: Any]? in
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
            return object["route"] as? String == "refused" ? object : nil
        }
        XCTAssertEqual(refused.map { $0["status"] as? String }, ["400", "400", "405"], server.stderr)
        XCTAssertEqual(refused.map { $0["method"] as? String }, ["-", "-", "CONNECT"], server.stderr)
        XCTAssertTrue((refused[1]["reason"] as? String)?.contains("needs a Host header") == true, server.stderr)
    }
}

/// The text log format (`--log-format text`, the default).
final class TextLogFormatTests: XCTestCase {
    /// swift-log's text layout, with the timestamp from the reentrant `localtime_r` (its own
    /// handler's `localtime` shared the C library's buffer with libxlsxwriter's `gmtime`).
    func testATextLineHasTheTimestampLevelLabelSortedMetadataSourceAndMessage() throws {
        let stamp = LogTimestamp.now()
        XCTAssertNotNil(stamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$"#, options: .regularExpression), stamp)
        let year = Calendar(identifier: .gregorian).component(.year, from: Date())
        XCTAssertTrue(stamp.hasPrefix(String(year)) || stamp.hasPrefix(String(year - 1)) || stamp.hasPrefix(String(year + 1)), stamp)
    }

    /// A value carrying a line break from ledger text (a quarantined user's time zone) was
    /// written raw and forged a whole access-log line; every control character is now escaped.
    func testAValueWithALineBreakCannotForgeALogLine() {
        let forged = "Europe/Rome\n2026-11-27T01:48:37+0000 info ezreport.serve: status=200 user=1 [EZServer] GET /v1/admin"
        let line = LogText.oneLine(forged)
        XCTAssertFalse(line.contains("\n") || line.contains("\r"))
        XCTAssertEqual(line, "Europe/Rome\\n2026-11-27T01:48:37+0000 info ezreport.serve: status=200 user=1 [EZServer] GET /v1/admin")
        XCTAssertEqual(LogText.oneLine("a\r\tb\u{1B}[31mc"), "a\\r\\tb\\u{1B}[31mc")
        XCTAssertEqual(LogText.oneLine("zoë · 山田"), "zoë · 山田", "printable text is unchanged")
    }

    func testAFailureThatEndsTheServerIsOneJSONLineWhenLogsAreJSONAndOneTextLineOtherwise() async throws {
        let fixture = try ServerFixture()
        let secretFile = fixture.ledger.folder.appendingPathComponent("secret.key").path
        XCTAssertTrue(FileManager.default.createFile(atPath: secretFile, contents: Data(fixture.secret + [0x0A])), "could not create \(secretFile)")
        let missing = fixture.ledger.folder.appendingPathComponent("no-such.key").path
        let running = try await ServeProcess(fixture: fixture)   // stopped when released
        // An unreadable secret, a port another server holds: each ends the server before it serves.
        let failures: [(args: [String], names: String)] = [
            (["--port", "0", "--jwt-secret-file", missing], missing),
            (["--port", "\(running.port)", "--jwt-secret-file", secretFile],
             "cannot listen on 127.0.0.1:\(running.port): Address already in use"),
        ]
        for failure in failures {
            let base = ["serve", "--db", fixture.ledger.path, "--host", "127.0.0.1"] + failure.args
            // The lines before it (the ledger opened) are the server's usual log lines.
            let json = try CLI.run(base + ["--log-format", "json"])
            XCTAssertEqual(json.status, 1, json.stderr)
            let objects = try json.stderr.split(separator: "\n").map { line in
                try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
            let last = try XCTUnwrap(objects.last, json.stderr)
            XCTAssertEqual(last["level"] as? String, "critical", json.stderr)
            XCTAssertNotNil(last["ts"] as? String)
            XCTAssertTrue((last["message"] as? String ?? "").contains(failure.names), json.stderr)
            XCTAssertEqual(objects.filter { $0["level"] as? String == "critical" }.count, 1, json.stderr)
            let text = try CLI.run(base)
            XCTAssertEqual(text.status, 1, text.stderr)
            let lastLine = String(text.stderr.split(separator: "\n").last ?? "")
            XCTAssertTrue(lastLine.hasPrefix("ezreport: ") && lastLine.contains(failure.names), text.stderr)
        }
        let status = try await running.stop()
        XCTAssertEqual(status, 0)
    }
}
