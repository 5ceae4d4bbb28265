import EZLedger
import EZPostgres
import EZServer
import EZTestSupport
import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import XCTest

/// `ezreport serve --db postgres://…` answers exactly as it does over the SQLite file holding the
/// same rows: the same statuses, bytes and ETags for every kind of request and caller, and rates
/// the app writes to the server while serving are used without a restart. The PostgreSQL server
/// is a real throw-away cluster on 127.0.0.1 (``PostgresCluster``).
final class PostgresServeTests: XCTestCase {
    /// The fixture's rows copied into a new database of the cluster.
    ///
    /// The PostgreSQL schema keeps instants (`*_at`) and bare dates apart, so the fixture's bare
    /// dates in instant columns (midnight UTC to the engine) are first written out as instants,
    /// in the SQLite file too: both servers then read the same rows.
    private func postgresCopy(of fixture: ServerFixture) throws -> (url: String, location: PostgresLocation, cluster: PostgresCluster) {
        try fixture.ledger.db.write { db in
            let columns = try Row.fetchAll(db, sql: """
                SELECT m.name AS t, c.name AS c FROM sqlite_master m, pragma_table_info(m.name) c
                WHERE m.type = 'table' AND c.name LIKE '%\\_at' ESCAPE '\\'
                """)
            for row in columns {
                let table: String = row["t"], column: String = row["c"]
                try db.execute(sql: "UPDATE \(table) SET \(column) = \(column) || 'T00:00:00Z' WHERE length(\(column)) = 10")
            }
        }
        let cluster = try PostgresCluster.shared()
        let name = "serve_" + UUID().uuidString.prefix(8).lowercased()
        let url = try cluster.createDatabase(name)
        let location = try PostgresLocation(url: url, password: cluster.password)
        _ = try PostgresLedgerLoader.load(sqlite: fixture.ledger.path, into: location)
        return (url, location, cluster)
    }

    private func startPostgresServer(_ fixture: ServerFixture, _ copy: (url: String, location: PostgresLocation, cluster: PostgresCluster)) async throws -> LiveServer {
        let location = copy.location
        return try await LiveServer.start(ledger: copy.url, secret: fixture.secret) { configuration in
            configuration.openLedger = { try PostgresLedger(location: location) }
        }
    }

    func testTheSameRowsInPostgreSQLGiveTheSameResponsesAsTheSQLiteFile() async throws {
        let fixture = try ServerFixture()
        let copy = try postgresCopy(of: fixture)
        let sqlite = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let postgres = try await startPostgresServer(fixture, copy)
        let alice = try await fixture.token(fixture.alice)
        let bob = try await fixture.token(fixture.bob)
        let root = try await fixture.token(fixture.root)
        let erin = try await fixture.token(fixture.erin)
        let a = fixture.alice, c = fixture.carol, d = fixture.dave
        let requests: [(String, String?)] = [
            ("/v1/users/\(a)/statement/2026-09/transactions.csv?as_of=2026-10-01", alice),
            ("/v1/users/\(a)/statement/2026-09/categories.csv?as_of=2026-10-01", alice),
            ("/v1/users/\(a)/statement/2026-09/trends.csv?as_of=2026-10-01", alice),
            ("/v1/users/\(a)/statement/2026-09/budgets.csv?as_of=2026-10-01", alice),
            ("/v1/users/\(a)/statistics?from=2026-09-01&to=2026-09-30", alice),
            ("/v1/users/\(a)/statistics?from=2026-09-01&to=2026-09-30&min=10.00&category=Food", alice),
            ("/v1/users/\(a)/transactions.csv?from=2026-08-01&to=2026-10-31&q=pizza", alice),
            ("/v1/users/\(c)/statement/2026-09/transactions.csv?as_of=2026-10-01", bob),   // a parent sees a child
            ("/v1/users/\(d)/statistics?from=2026-09-01&to=2026-09-30", alice),              // someone else: 404
            ("/v1/users/\(a)/statistics?from=2026-09-01&to=2026-09-30", root),               // an admin: 404
            ("/v1/users/\(a)/statistics?from=2026-09-01&to=2026-09-30", erin),               // deleted: 401
            ("/v1/admin/usage/2026-09.csv", alice),                                           // not an admin: 403
            ("/v1/admin/usage/2026-09.json", root),
            ("/v1/users/\(a)/statement/2026-13/transactions.csv", alice),                    // a bad period: 400
        ]
        var answered: [(String, TestClient.Response, TestClient.Response)] = []
        for (path, token) in requests {
            answered.append((path, try await sqlite.get(path, token: token), try await postgres.get(path, token: token)))
        }
        let ready = try await postgres.get("/readyz")
        await sqlite.stop()
        await postgres.stop()

        XCTAssertEqual(ready.status, .ok)
        for (path, fromFile, fromServer) in answered {
            XCTAssertEqual(fromServer.status, fromFile.status, path)
            XCTAssertEqual(fromServer.text, fromFile.text, path)
            XCTAssertEqual(fromServer.headers[.eTag], fromFile.headers[.eTag], path)
        }
        XCTAssertEqual(answered.map { $0.2.status.code }, [200, 200, 200, 200, 200, 200, 200, 200, 404, 404, 401, 403, 200, 400])
        XCTAssertTrue(answered[0].2.text.contains("Pizza Margherita"))
    }

    func testARateWrittenToPostgreSQLWhileServingIsUsed() async throws {
        let fixture = try ServerFixture()
        try fixture.ledger.rate("2026-09-01", "USD", "EUR", 0.9)
        try fixture.ledger.expense(fixture.alice, 10_000, on: "2026-09-15T12:00:00+02:00", currency: "USD", description: "Dollar book")
        let copy = try postgresCopy(of: fixture)
        let server = try await startPostgresServer(fixture, copy)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statistics?from=2026-09-15&to=2026-09-15"
        let csv = "/v1/users/\(fixture.alice)/statement/2026-09/categories.csv?as_of=2026-10-01"
        let before = try await server.get(path, token: token).json()
        let csvBefore = try await server.get(csv, token: token)

        let database = String(copy.url.split(separator: "/").last!.split(separator: "?").first!)
        try copy.cluster.psql("INSERT INTO exchange_rates (day, base, quote, rate) VALUES ('2026-09-10', 'USD', 'EUR', 0.5)",
                              database: database)
        var after: [String: Any] = [:]
        for _ in 0..<20 {   // looked at again at most once per LiveRates.recheckInterval
            after = try await server.get(path, token: token).json()
            if after["expenses_minor"] as? Int != before["expenses_minor"] as? Int { break }
            try await Task.sleep(for: .milliseconds(250))
        }
        // The same rows with other rates are another answer: the old ETag is not answered with 304.
        var conditional = HTTPFields()
        conditional[.ifNoneMatch] = try XCTUnwrap(csvBefore.headers[.eTag])
        let csvAfter = try await server.get(csv, token: token, headers: conditional)
        await server.stop()
        XCTAssertEqual(before["expenses_minor"] as? Int, 9_000, "$100.00 at 0.9")
        XCTAssertEqual(after["expenses_minor"] as? Int, 5_000, "$100.00 at the newer 0.5, well before the 60 s reopen")
        XCTAssertEqual(csvAfter.status, .ok)
        XCTAssertNotEqual(csvAfter.headers[.eTag], csvBefore.headers[.eTag])
        XCTAssertNotEqual(csvAfter.text, csvBefore.text)
    }

    /// The server closing an idle session (`idle_session_timeout`, a terminated backend) made the
    /// next request answer 503: the pool handed out the closed session (outside PostgreSQL test).
    func testASessionTheServerClosedWhileIdleIsNotUsedAgain() async throws {
        let fixture = try ServerFixture()
        let copy = try postgresCopy(of: fixture)
        let database = String(copy.url.split(separator: "/").last!.split(separator: "?").first!)
        try copy.cluster.psql("ALTER DATABASE \(database) SET idle_session_timeout = '1s'")
        let server = try await startPostgresServer(fixture, copy)
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30"
        var statuses: [HTTPResponse.Status] = []
        for _ in 0..<3 {
            statuses.append(try await server.get(path, token: token).status)
            try await Task.sleep(for: .milliseconds(2_500))   // past the server's idle timeout
        }
        await server.stop()
        XCTAssertEqual(statuses, [.ok, .ok, .ok])
    }

    /// A table another session holds locked (a migration's `LOCK TABLE`, an `ALTER TABLE`) held
    /// each render for the whole 30 s request time, every slot soon waiting, and answered "took
    /// too long" with Retry-After 1 (outside PostgreSQL test). A read waits `lock_timeout` (10 s in
    /// `serve`; 2 s here), then answers 503 "the ledger cannot be read right now", Retry-After 5.
    func testATableLockedByAnotherSessionAnswers503AfterTheLockTimeout() async throws {
        let fixture = try ServerFixture()
        let copy = try postgresCopy(of: fixture)
        let database = String(copy.url.split(separator: "/").last!.split(separator: "?").first!)
        var location = copy.location
        location.lockTimeoutSeconds = 2
        let configured = location
        let server = try await LiveServer.start(ledger: copy.url, secret: fixture.secret) { configuration in
            configuration.openLedger = { try PostgresLedger(location: configured) }
        }
        let token = try await fixture.token(fixture.alice)
        let path = "/v1/users/\(fixture.alice)/statistics?from=2026-09-01&to=2026-09-30"
        let before = try await server.get(path, token: token)
        XCTAssertEqual(before.status, .ok)
        let cluster = copy.cluster
        let holder = Task.detached {
            try cluster.psql("BEGIN; LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(6); COMMIT;", database: database)
        }
        try await Task.sleep(for: .milliseconds(800))
        let started = ContinuousClock.now
        let locked = try await server.get(path, token: token)
        let waited = ContinuousClock.now - started
        _ = try await holder.value
        let after = try await server.get(path, token: token)
        await server.stop()
        XCTAssertEqual(locked.status, .serviceUnavailable)
        XCTAssertEqual(locked.headers[.retryAfter], "5")
        XCTAssertTrue(locked.text.contains("the ledger cannot be read right now"), locked.text)
        XCTAssertLessThan(waited, .seconds(5), "answered at the lock timeout, not the request's 30 s")
        XCTAssertEqual(after.status, .ok, "read again once the lock is gone")
    }
}
