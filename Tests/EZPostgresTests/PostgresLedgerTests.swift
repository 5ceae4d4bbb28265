import EZBatch
import EZCore
import EZLedger
@testable import EZPostgres
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// The PostgreSQL reader gives the rules exactly the rows the SQLite reader gives them.
final class PostgresLedgerTests: XCTestCase {
    private func open(_ url: String) throws -> PostgresLedger {
        try PostgresLedger(location: PostgresLocation(url: url, password: PostgresCluster.shared().password))
    }

    func testSchemaFileIsTheEmbeddedSchema() throws {
        let file = PostgresFixture.packageRoot.appendingPathComponent("samples/schema.postgres.sql")
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), PostgresSchema.createSQL)
    }

    func testEveryUserLoadsTheSameRowsFromBothBackends() throws {
        let fixture = try PostgresFixture.shared()
        let sqlite = try Ledger(path: fixture.sqlite)
        let postgres = try open(fixture.url)
        XCTAssertEqual(try postgres.userRefs(), try sqlite.userRefs())
        XCTAssertEqual(postgres.quarantinedRates, sqlite.quarantinedRates)
        let through = CivilDate(year: 2026, month: 10, day: 1)
        var compared = 0
        for ref in try sqlite.userRefs() where !ref.deleted {
            let a = try sqlite.loadUser(id: ref.id, through: through)
            let b = try postgres.loadUser(id: ref.id, through: through)
            // The fingerprint hashes every row the report reads (user, balances, categories,
            // transactions, groups and their members and splits, budgets, goals, logins, children).
            XCTAssertEqual(InputFingerprint.of(b, settings: "", ratesDigest: ""), InputFingerprint.of(a, settings: "", ratesDigest: ""),
                           "user \(ref.id)")
            XCTAssertEqual(b.quarantined, a.quarantined)
            XCTAssertGreaterThan(a.transactions.count, 0)
            // The count a batch sizes a job by, before reading its rows.
            XCTAssertEqual(try postgres.transactionCount(user: ref.id), try sqlite.transactionCount(user: ref.id), "user \(ref.id)")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 10)
        let (usersA, badA) = try sqlite.allUsers()
        let (usersB, badB) = try postgres.allUsers()
        XCTAssertEqual(usersB.map(\.id), usersA.map(\.id))
        XCTAssertEqual(usersB.map(\.deletedAt), usersA.map(\.deletedAt))
        XCTAssertEqual(badB, badA)
        XCTAssertEqual(try postgres.deliveryContacts(), try sqlite.deliveryContacts())
    }

    func testExchangeRatesAreTheSameTable() throws {
        let fixture = try PostgresFixture.shared()
        let sqlite = try Ledger(path: fixture.sqlite)
        let postgres = try open(fixture.url)
        let day = CivilDate(year: 2026, month: 3, day: 14)
        for (from, to) in [("EUR", "USD"), ("USD", "JPY"), ("GBP", "CHF")] {
            let a = sqlite.rates.rate(from: try Currency(from), to: try Currency(to), on: day)
            let b = postgres.rates.rate(from: try Currency(from), to: try Currency(to), on: day)
            XCTAssertNotNil(a)
            XCTAssertEqual(a.map { "\($0)" }, b.map { "\($0)" }, "\(from)→\(to)")
        }
    }

    func testEverySessionIsReadOnly() throws {
        let fixture = try PostgresFixture.shared()
        let session = try PostgresSession(PostgresLocation(url: fixture.url, password: PostgresCluster.shared().password))
        let rows = try session.rows("SHOW default_transaction_read_only")
        XCTAssertTrue(try rows.next())
        XCTAssertEqual(rows.string(0), "on")
        XCTAssertThrowsError(try session.execute("DELETE FROM logins")) { error in
            XCTAssertTrue(PostgresFailure.describe(error).contains("read-only transaction"), PostgresFailure.describe(error))
        }
    }

    /// A frozen server (its backend stopped: the connection stays open, TCP notices nothing) fails
    /// the query after the answer time-out, as a lost ledger, instead of hanging the run for ever.
    func testAFrozenServerFailsTheQueryAfterTheAnswerTimeOut() throws {
        let fixture = try PostgresFixture.shared()
        var location = try PostgresLocation(url: fixture.url, password: PostgresCluster.shared().password)
        location.answerTimeoutSeconds = 2
        let session = try PostgresSession(location)
        let rows = try session.rows("SELECT pg_backend_pid()")
        XCTAssertTrue(try rows.next())
        let backend = pid_t(rows.int64(0))
        XCTAssertEqual(kill(backend, SIGSTOP), 0)
        defer { kill(backend, SIGCONT) }
        let started = Date()
        XCTAssertThrowsError(try session.rows("SELECT count(*) FROM transactions")) { error in
            let lost = PostgresLedger.classify(error, location: location)
            guard case .cannotOpen(_, let reason, _) = lost else { return XCTFail("\(lost)") }
            XCTAssertEqual(reason, "the server did not answer a query within 2 s (frozen or unreachable)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 6)
        XCTAssertThrowsError(try session.rows("SELECT 1"), "the given-up session is closed, never reused")
    }

    /// A password rotated in its file reaches the next connection: `serve` opens sessions for as
    /// long as it runs, and kept the start's password, so every new session failed after a rotation.
    func testANewConnectionReadsThePasswordFileAgain() throws {
        let fixture = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let role = "rotated" + UUID().uuidString.prefix(6).lowercased()
        _ = try cluster.psql("CREATE ROLE \(role) LOGIN PASSWORD 'first-pw'; GRANT CONNECT ON DATABASE wallet TO \(role);")
        let file = PostgresFixture.root + "/\(role).pw"
        try Data("first-pw\n".utf8).write(to: URL(fileURLWithPath: file))
        var location = try PostgresLocation(url: cluster.url("wallet", user: role), password: PostgresLocation.password(file: file))
        location.passwordFile = file
        XCTAssertNoThrow(try PostgresSession(location))
        _ = try cluster.psql("ALTER ROLE \(role) PASSWORD 'second-pw'")
        try Data("second-pw\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertNoThrow(try PostgresSession(location), "the file's new password is used")
        try FileManager.default.removeItem(atPath: file)
        XCTAssertThrowsError(try PostgresSession(location)) { error in
            XCTAssertTrue("\(error)".contains("cannot read the password file"), "\(error)")
        }
    }

    func testASnapshotDoesNotSeeLaterCommits() throws {
        let fixture = try PostgresFixture.shared()
        let url = try fixture.database("snapshotted", filled: true)
        let ledger = try open(url)
        let snapshot = try ledger.snapshot(connections: 2, scratch: "")
        guard case .walLSN(let lsn) = snapshot.identity else { return XCTFail("a PostgreSQL snapshot is named by its WAL position") }
        XCTAssertTrue(lsn.contains("/"), lsn)
        let user = try XCTUnwrap(try ledger.userRefs().first { !$0.deleted })
        let through = CivilDate(year: 2026, month: 10, day: 1)
        let before = try snapshot.connections[1].loadUser(id: user.id, through: through).transactions.count
        // The app commits a new expense after the snapshot was taken.
        try fixture.cluster.psql("""
            INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_on, created_at)
            SELECT 990001, \(user.id), 'expense', 1234, currency, DATE '2026-09-15', now() FROM users WHERE id = \(user.id)
            """, database: "snapshotted")
        for reader in snapshot.connections {
            XCTAssertEqual(try reader.loadUser(id: user.id, through: through).transactions.count, before)
        }
        XCTAssertEqual(try open(url).loadUser(id: user.id, through: through).transactions.count, before + 1)
    }

    func testCheckFindsTheSameBadRowsInBothBackends() throws {
        let fixture = try PostgresFixture.shared()
        let url = try fixture.database("broken", filled: true)
        let copy = fixture.folder + "/broken.sqlite"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: fixture.sqlite, toPath: copy)
        // Rows that break the contract but that PostgreSQL's types and keys allow; the same rows in both.
        let user = try XCTUnwrap(try Ledger(path: copy).userRefs().first { !$0.deleted }).id
        let other = try XCTUnwrap(try Ledger(path: copy).userRefs().last { !$0.deleted && $0.id != user }).id
        let bad: [(sqlite: String, postgres: String)] = [
            ("INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_at, created_at) VALUES (990101, \(user), 'refund', 100, 'EUR', '2026-09-02', '2026-09-02T10:00:00Z')",
             "INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_on, created_at) VALUES (990101, \(user), 'refund', 100, 'EUR', '2026-09-02', '2026-09-02T10:00:00Z')"),
            ("INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_at, created_at) VALUES (990102, \(user), 'expense', -5, 'EUR', '2026-09-02T08:00:00+02:00', '2026-09-02T10:00:00Z')",
             "INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_at, created_at) VALUES (990102, \(user), 'expense', -5, 'EUR', '2026-09-02T08:00:00+02:00', '2026-09-02T10:00:00Z')"),
            ("INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_at, created_at) VALUES (990103, \(user), 'expense', 5, 'eur', '2026-09-03', '2026-09-03T10:00:00Z')",
             "INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_on, created_at) VALUES (990103, \(user), 'expense', 5, 'eur', '2026-09-03', '2026-09-03T10:00:00Z')"),
            ("INSERT INTO transactions (id, user_id, balance_id, kind, amount_minor, currency, occurred_at, created_at) SELECT 990104, \(user), id, 'expense', 5, 'EUR', '2026-09-03', '2026-09-03T10:00:00Z' FROM balances WHERE user_id = \(other) LIMIT 1",
             "INSERT INTO transactions (id, user_id, balance_id, kind, amount_minor, currency, occurred_on, created_at) SELECT 990104, \(user), id, 'expense', 5, 'EUR', '2026-09-03', '2026-09-03T10:00:00Z' FROM balances WHERE user_id = \(other) LIMIT 1"),
            ("UPDATE users SET timezone = 'Mars/Olympus' WHERE id = \(other)", "UPDATE users SET timezone = 'Mars/Olympus' WHERE id = \(other)"),
            ("INSERT INTO budgets (id, user_id, period, amount_minor, currency, starts_on) VALUES (990201, \(user), 'fortnight', 100, 'EUR', '2026-01-01')",
             "INSERT INTO budgets (id, user_id, period, amount_minor, currency, starts_on) VALUES (990201, \(user), 'fortnight', 100, 'EUR', '2026-01-01')"),
            ("UPDATE users SET statement_email = 7 WHERE id = \(user)", "SELECT 1"),   // a boolean cannot hold 7
        ]
        let sqliteDB = try DatabaseQueue(path: copy)
        for statement in bad {
            try sqliteDB.write { try $0.execute(sql: statement.sqlite) }
            try fixture.cluster.psql(statement.postgres, database: "broken")
        }
        let a = try Ledger(path: copy).health()
        let b = try open(url).health()
        XCTAssertEqual(b.rowCounts.map(\.rows), a.rowCounts.map(\.rows))
        let onlySQLite = a.quarantined.filter { $0.table == "users" && $0.reason.hasPrefix("statement_email") }
        XCTAssertEqual(onlySQLite.count, 1, "the one bad row PostgreSQL's boolean type cannot hold")
        XCTAssertEqual(b.quarantined, a.quarantined.filter { !onlySQLite.contains($0) })
        XCTAssertGreaterThanOrEqual(b.quarantined.count, 6)
        XCTAssertTrue(b.quarantined.contains { $0.id == 990101 && $0.reason == "unknown kind 'refund'" }, "\(b.quarantined)")
    }
    /// A timestamptz or date PostgreSQL holds but the contract's text cannot (±infinity, a year
    /// before 1 or after 9999) is quarantined, as the same value in a SQLite file is: `infinity`
    /// lay past every period's bound and was never read (an expense lost without a word), and a BC
    /// date was printed as its year AD.
    func testATimeOutsideTheContractsYearsIsQuarantinedNotLost() throws {
        let fixture = try PostgresFixture.shared()
        let database = "years\(UUID().uuidString.prefix(6).lowercased())"
        let url = try fixture.database(database, filled: true)
        let user = try XCTUnwrap(try open(url).userRefs().first { !$0.deleted }).id
        let values: [(id: Int64, column: String, value: String)] = [
            (990301, "occurred_at", "infinity"), (990302, "occurred_at", "-infinity"),
            (990303, "occurred_at", "12026-10-10T10:00:00Z"), (990304, "occurred_at", "0044-03-15 10:00:00+00 BC"),
            (990305, "occurred_on", "infinity"), (990306, "occurred_on", "0044-03-15 BC"),
        ]
        for v in values {
            try fixture.cluster.psql("""
                INSERT INTO transactions (id, user_id, kind, amount_minor, currency, \(v.column), created_at)
                VALUES (\(v.id), \(user), 'expense', 808, 'EUR', '\(v.value)', '2026-10-10T10:00:00Z')
                """, database: database)
        }
        let ids = Set(values.map(\.id))
        let health = try open(url).health()
        let quarantined = health.quarantined.filter { $0.table == "transactions" && ids.contains($0.id) }
        XCTAssertEqual(Set(quarantined.map(\.id)), ids, "\(health.quarantined)")
        for row in quarantined { XCTAssertTrue(row.reason.contains("occurred_at"), row.reason) }
        // A statement's read (bounded by the period) quarantines them too.
        let loaded = try open(url).loadUser(id: user, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(Set(loaded.quarantined.filter { $0.table == "transactions" }.map(\.id)).intersection(ids), ids)
        XCTAssertFalse(loaded.transactions.contains { ids.contains($0.id) })
    }

    /// A `deleted_at` PostgreSQL holds but the contract's text cannot (±infinity, a BC date, a year
    /// after 9999) read as a deletion: the row was left out with `check` saying "Clean", a group
    /// vanished from its members' statements (outside PostgreSQL test). In SQLite such a value is
    /// not a timestamp and its row is quarantined; so it is here.
    func testADeletionTimeOutsideTheContractsYearsIsQuarantinedNotADeletion() throws {
        let fixture = try PostgresFixture.shared()
        let database = "deleted\(UUID().uuidString.prefix(6).lowercased())"
        let url = try fixture.database(database, filled: true)
        func first(_ sql: String) throws -> Int64 { try XCTUnwrap(Int64(try fixture.cluster.psql(sql, database: database))) }
        let transaction = try first("SELECT id FROM transactions WHERE deleted_at IS NULL AND group_id IS NULL ORDER BY id LIMIT 1")
        let category = try first("SELECT id FROM categories WHERE deleted_at IS NULL ORDER BY id LIMIT 1")
        let balance = try first("SELECT id FROM balances WHERE deleted_at IS NULL ORDER BY id LIMIT 1")
        let group = try first("SELECT id FROM groups WHERE deleted_at IS NULL ORDER BY id LIMIT 1")
        let payment = try first("SELECT id FROM group_payments WHERE deleted_at IS NULL AND group_id <> \(group) ORDER BY id LIMIT 1")
        let changes: [(table: String, id: Int64, value: String)] = [
            ("transactions", transaction, "-infinity"), ("categories", category, "infinity"),
            ("balances", balance, "0044-03-15 10:00:00+00 BC"), ("groups", group, "12026-01-01T00:00:00Z"),
            ("group_payments", payment, "-infinity"),
        ]
        for c in changes {
            try fixture.cluster.psql("UPDATE \(c.table) SET deleted_at = '\(c.value)' WHERE id = \(c.id)", database: database)
        }
        let health = try open(url).health()
        for c in changes {
            let row = health.quarantined.first { $0.table == c.table && $0.id == c.id }
            XCTAssertNotNil(row, "\(c.table) #\(c.id) with deleted_at \(c.value) is quarantined: \(health.quarantined)")
            if let row { XCTAssertTrue(row.reason.contains("deleted_at"), row.reason) }
        }
        // The live ones are read as they were: a NULL deleted_at is still no deletion.
        XCTAssertLessThan(health.quarantined.count, 40, "\(health.quarantined)")
    }
}
