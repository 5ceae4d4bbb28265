import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// `ezreport` commands over a PostgreSQL ledger, run as a scheduler runs them, against the
/// throw-away cluster: the same reports as from the SQLite file, shards, failures and resumes.
final class PostgresCommandTests: XCTestCase {
    private var scratch: String!

    override func setUpWithError() throws {
        scratch = try PostgresFixture.shared().folder + "/" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: scratch)
    }

    private func monthly(_ db: String, out: String, _ extra: [String] = []) throws -> CLI.Outcome {
        let f = try PostgresFixture.shared()
        return try CLI.run(["monthly", "--db", db, "--period", f.period, "--as-of", f.asOf, "--out", out, "--quiet"] + extra)
    }

    /// scripts/compare-trees.py with provenance allowed to differ (the ledger's name and hash).
    private func assertSameReports(_ a: String, _ b: String, names: (String, String), file: StaticString = #filePath, line: UInt = #line) throws {
        let script = PostgresFixture.packageRoot.appendingPathComponent("scripts/compare-trees.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, a, b, "--provenance", names.0, names.1]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output, file: file, line: line)
        XCTAssertTrue(output.contains(" 0 differences"), output, file: file, line: line)
    }

    func testMonthlyOverPostgresWritesTheSameReportsAsOverSQLite() throws {
        let f = try PostgresFixture.shared()
        let fromFile = try monthly(f.sqlite, out: scratch + "/sqlite", ["--jobs", "2"])
        let fromServer = try monthly(f.url, out: scratch + "/postgres", ["--jobs", "2"])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssertEqual(fromServer.status, 0, fromServer.stderr)
        try assertSameReports(scratch + "/sqlite/" + f.period, scratch + "/postgres/" + f.period, names: (f.sqlite, f.url))
        let manifest = try OutputTree.manifest(scratch + "/postgres/" + f.period)
        XCTAssertEqual(manifest.ledgerPath, f.url)
        XCTAssertFalse(manifest.ledgerPath.contains(try PostgresCluster.shared().password))
        XCTAssertNil(manifest.snapshotSha256)
        XCTAssertNotNil(manifest.snapshotLsn)
        let sqliteManifest = try OutputTree.manifest(scratch + "/sqlite/" + f.period)
        XCTAssertEqual(manifest.totals.transactionCount, sqliteManifest.totals.transactionCount)
        XCTAssertEqual(manifest.users.map(\.netMinor), sqliteManifest.users.map(\.netMinor))
        // Nothing changed: the re-run reuses every user.
        let again = try monthly(f.url, out: scratch + "/postgres")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try OutputTree.manifest(scratch + "/postgres/" + f.period).users.map(\.fingerprint), manifest.users.map(\.fingerprint))
    }

    func testFourShardsMergedEqualOneRun() throws {
        let f = try PostgresFixture.shared()
        let whole = try monthly(f.url, out: scratch + "/whole", ["--formats", "csv,xlsx"])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let shards = try (0..<4).map { k -> Process in
            try CLI.start(["monthly", "--db", f.url, "--period", f.period, "--as-of", f.asOf, "--out", scratch + "/sharded",
                           "--formats", "csv,xlsx", "--quiet", "--jobs", "1", "--shard", "\(k)/4"],
                          stdoutFile: scratch + "/shard\(k).out", stderrFile: scratch + "/shard\(k).err")
        }
        for (k, p) in shards.enumerated() {
            p.waitUntilExit()
            XCTAssertEqual(p.terminationStatus, 0, (try? String(contentsOfFile: scratch + "/shard\(k).err", encoding: .utf8)) ?? "")
        }
        let folder = scratch + "/sharded/" + f.period
        let parts = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("manifest.shard-") }.sorted()
        XCTAssertEqual(parts.count, 4)
        let merge = try CLI.run(["manifest", "merge", "--out", folder + "/manifest.json"] + parts.map { folder + "/" + $0 })
        XCTAssertEqual(merge.status, 0, merge.stderr)
        let merged = try OutputTree.manifest(folder)
        let single = try OutputTree.manifest(scratch + "/whole/" + f.period)
        XCTAssertEqual(merged.users, single.users)
        XCTAssertEqual(merged.totals, single.totals)
        try assertSameReports(scratch + "/whole/" + f.period, folder, names: (f.url, f.url))
    }

    func testWrongPasswordUnreachableServerAndMissingTableAreOneLineErrors() throws {
        let f = try PostgresFixture.shared()
        let wrong = scratch + "/wrong-password"
        try Data("not-the-password\n".utf8).write(to: URL(fileURLWithPath: wrong))
        let closedPort = try PostgresCluster.freePort()
        let emptyDatabase = try f.database("empty\(UUID().uuidString.prefix(6).lowercased())", filled: false)
        let cases: [(args: [String], mentions: String)] = [
            (["check", "--db", f.url, "--db-password-file", wrong], "password authentication failed"),
            (["check", "--db", "postgres://ezadmin@127.0.0.1:\(closedPort)/wallet?sslmode=disable"], "connection refused"),
            (["check", "--db", emptyDatabase], "table 'users' is missing"),
            (["monthly", "--db", emptyDatabase, "--period", f.period, "--out", scratch + "/x"], "table 'users' is missing"),
            (["export", "--db", "postgres://ezadmin:secret@127.0.0.1:5432/wallet", "--user", "1", "--period", f.period],
             "give it in PGPASSWORD or --db-password-file"),
            (["check", "--db", f.url + "&sslmode=maybe"], "sslmode"),
        ]
        for c in cases {
            let run = try CLI.run(c.args)
            XCTAssertEqual(run.status, 1, "\(c.args): \(run.stderr)")
            let lines = run.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 1, "\(c.args): \(run.stderr)")
            XCTAssertTrue(run.stderr.lowercased().contains(c.mentions.lowercased()), "\(c.args): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains(try PostgresCluster.shared().password))
        }
    }

    /// A table or column the role may not read used to look absent: without SELECT on the optional
    /// group_payments every settle-up payment was left out of the amounts owed, exit 0, and a column
    /// grant without users.month_start_day turned payday months into calendar months. It is now an
    /// error naming what to grant; a column the engine never reads (password_hash) needs no grant.
    func testARoleThatMayNotReadWhatTheFiguresNeedIsRefusedAndPasswordHashIsNotNeeded() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let database = "privs\(suffix)"
        _ = try f.database(database, filled: true)
        let passwordFile = scratch + "/role-password"
        try Data("role-pw-\(suffix)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        let others = "balances, categories, transactions, splits, groups, group_members, families, family_members, "
            + "budgets, budget_transfers, savings_goals, exchange_rates, logins"
        let userColumns = "id, username, email, role, currency, timezone, locale, book_name, monthly_limit_minor, "
            + "chart_style, created_at, deleted_at, statement_email"
        let roles: [(name: String, grants: String, status: Int32, mentions: String?)] = [
            ("nopay\(suffix)", "GRANT SELECT ON users, \(others) TO %R;", 1, "table group_payments"),
            ("noday\(suffix)", "GRANT SELECT (\(userColumns)) ON users TO %R; GRANT SELECT ON group_payments, \(others) TO %R;",
             1, "column users.month_start_day"),
            ("nohash\(suffix)", "GRANT SELECT (\(userColumns), month_start_day) ON users TO %R; GRANT SELECT ON group_payments, \(others) TO %R;",
             0, nil),
        ]
        for role in roles {
            _ = try cluster.psql("CREATE ROLE \(role.name) LOGIN PASSWORD 'role-pw-\(suffix)'; GRANT CONNECT ON DATABASE \(database) TO \(role.name);")
            _ = try cluster.psql("GRANT USAGE ON SCHEMA public TO \(role.name); " + role.grants.replacingOccurrences(of: "%R", with: role.name),
                                 database: database)
            let url = cluster.url(database, user: role.name)
            let check = try CLI.run(["check", "--db", url, "--db-password-file", passwordFile])
            let export = try CLI.run(["export", "--db", url, "--db-password-file", passwordFile, "--user", "2", "--period", f.period,
                                      "--as-of", f.asOf, "--format", "csv", "--out", scratch + "/" + role.name])
            for run in [check, export] {
                if let mentions = role.mentions {
                    XCTAssertEqual(run.status, 1, "\(role.name): \(run.stderr)")
                    XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
                    XCTAssertTrue(run.stderr.contains("may not read \(mentions)"), "\(role.name): \(run.stderr)")
                    XCTAssertTrue(run.stderr.contains("grant it SELECT"), run.stderr)
                } else {
                    XCTAssertNotEqual(run.status, 1, "\(role.name): \(run.stderr)")
                }
            }
        }
    }

    /// A row-level security policy hid rows from the role: `check` counted fewer transactions and
    /// said "Clean", and a user's income read 0 (outside PostgreSQL test). Sessions set
    /// `row_security = off`, so a policy that would hide rows fails the read in one line.
    func testARowSecurityPolicyThatWouldHideRowsFailsTheReadInOneLine() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let database = "rls\(suffix)"
        _ = try f.database(database, filled: true)
        let role = "rls\(suffix)"
        let passwordFile = scratch + "/rls-password"
        try Data("rls-pw-\(suffix)\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        _ = try cluster.psql("CREATE ROLE \(role) LOGIN PASSWORD 'rls-pw-\(suffix)'; GRANT CONNECT ON DATABASE \(database) TO \(role);")
        _ = try cluster.psql("""
            GRANT USAGE ON SCHEMA public TO \(role);
            GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role);
            ALTER TABLE transactions ENABLE ROW LEVEL SECURITY;
            CREATE POLICY hide ON transactions FOR SELECT TO \(role) USING (user_id <> 2);
            """, database: database)
        let url = cluster.url(database, user: role)
        let check = try CLI.run(["check", "--db", url, "--db-password-file", passwordFile])
        let export = try CLI.run(["export", "--db", url, "--db-password-file", passwordFile, "--user", "2", "--period", f.period,
                                  "--as-of", f.asOf, "--format", "csv", "--out", scratch + "/rls"])
        for run in [check, export] {
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("row-level security"), run.stderr)
        }
        // With BYPASSRLS the role reads every row again.
        _ = try cluster.psql("ALTER ROLE \(role) BYPASSRLS")
        XCTAssertNotEqual(try CLI.run(["check", "--db", url, "--db-password-file", passwordFile]).status, 1)
    }

    /// A column of another type was read anyway: numeric amounts quarantined every row (empty
    /// statements, exit 3) and a timestamp without time zone shifted dates by the session's zone.
    /// Both are now refused at open, naming the column and the contract's type.
    func testAColumnOfAnotherTypeIsRefusedByName() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let database = "types\(UUID().uuidString.prefix(6).lowercased())"
        let url = try f.database(database, filled: true)
        let cases: [(alter: String, undo: String, mentions: String)] = [
            ("ALTER TABLE transactions ALTER COLUMN amount_minor TYPE numeric",
             "ALTER TABLE transactions ALTER COLUMN amount_minor TYPE bigint",
             "column transactions.amount_minor is numeric; the contract's type is bigint"),
            ("ALTER TABLE transactions ALTER COLUMN occurred_at TYPE timestamp USING occurred_at AT TIME ZONE 'UTC'",
             "ALTER TABLE transactions ALTER COLUMN occurred_at TYPE timestamptz USING occurred_at AT TIME ZONE 'UTC'",
             "column transactions.occurred_at is timestamp without time zone; the contract's type is timestamp with time zone"),
            // A float4 rate read as a double is not the decimal written: figures drifted by a cent.
            ("ALTER TABLE exchange_rates ALTER COLUMN rate TYPE real",
             "ALTER TABLE exchange_rates ALTER COLUMN rate TYPE double precision",
             "column exchange_rates.rate is real; the contract's type is double precision (or numeric)"),
        ]
        for c in cases {
            _ = try cluster.psql(c.alter, database: database)
            let run = try CLI.run(["check", "--db", url])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(c.mentions), run.stderr)
            _ = try cluster.psql(c.undo, database: database)
        }
        let accepted = try CLI.run(["check", "--db", url])
        XCTAssertTrue([0, 3].contains(accepted.status), "the schema as the contract has it is accepted: \(accepted.stderr)")
    }

    /// The optional group_payments, when present, must have every column, as in a SQLite ledger:
    /// one without `occurred_on` was accepted at open, then every user of a monthly run failed on
    /// the first query that named it (exit 2, a manifest of failures). It is refused at open.
    func testAnOptionalTableLackingAColumnIsRefusedAtOpen() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        for column in ["occurred_on", "created_at"] {
            let database = "optional\(UUID().uuidString.prefix(6).lowercased())"
            let url = try f.database(database, filled: true)
            _ = try cluster.psql("ALTER TABLE group_payments DROP COLUMN \(column) CASCADE", database: database)
            let out = scratch + "/" + column
            for args in [["check", "--db", url], ["monthly", "--db", url, "--period", f.period, "--as-of", f.asOf, "--out", out]] {
                let run = try CLI.run(args)
                XCTAssertEqual(run.status, 1, "\(args[0]): \(run.stderr)")
                XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
                XCTAssertTrue(run.stderr.contains("table 'group_payments' lacks column \(column)"), run.stderr)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/\(f.period)/manifest.json"), "no manifest")
        }
    }

    /// A table without the contract's key (here transactions' PRIMARY KEY) would let a repeated
    /// id count its rows twice: it is refused at open, naming the key; the schema with its keys
    /// is accepted again.
    func testATableWithoutItsKeyIsRefusedByName() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let database = "keys\(UUID().uuidString.prefix(6).lowercased())"
        let url = try f.database(database, filled: true)
        _ = try cluster.psql("ALTER TABLE splits DROP CONSTRAINT splits_pkey", database: database)
        let refused = try CLI.run(["check", "--db", url])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("(transaction_id, user_id) of splits are not declared PRIMARY KEY or UNIQUE"), refused.stderr)
        _ = try cluster.psql("ALTER TABLE splits ADD PRIMARY KEY (user_id, transaction_id)", database: database)
        let accepted = try CLI.run(["check", "--db", url])
        XCTAssertTrue([0, 3].contains(accepted.status), "a key in another column order is the same key: \(accepted.stderr)")
    }

    /// `verify-full` checks the chain and that the certificate names the host: by IP address
    /// (which used to fail on every connection: an IP was sent as SNI) and by name; a CA that did
    /// not sign the certificate is refused by `verify-ca` and `verify-full` alike.
    func testVerifyFullConnectsByAddressOrNameAndRefusesAnotherCA() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let ca = cluster.certificateAuthority
        let byAddress = f.url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=verify-full&sslrootcert=\(ca)")
        let byName = byAddress.replacingOccurrences(of: "@127.0.0.1:", with: "@localhost:")
        for url in [byAddress, byName, f.url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require"),
                    f.url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require&sslrootcert=\(ca)")] {
            let run = try CLI.run(["check", "--db", url])
            XCTAssertTrue([0, 3].contains(run.status), "\(url): \(run.stderr)")
        }
        let otherCA = scratch + "/other-ca.crt"
        _ = try CLI.tool("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", scratch + "/other.key",
                                              "-out", otherCA, "-days", "1", "-subj", "/CN=another CA"])
        // `require` with a root certificate file verifies the chain, as libpq does: it connected
        // to any certificate, the file ignored (outside PostgreSQL test).
        for mode in ["require", "verify-ca", "verify-full"] {
            let url = f.url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=\(mode)&sslrootcert=\(otherCA)")
            let run = try CLI.run(["check", "--db", url])
            XCTAssertEqual(run.status, 1, "\(mode) with another CA: \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
    }

    func testCheckAndExportReadTheServer() throws {
        let f = try PostgresFixture.shared()
        let fromFile = try CLI.run(["check", "--db", f.sqlite])
        let fromServer = try CLI.run(["check", "--db", f.url])
        XCTAssertEqual(fromServer.status, fromFile.status, fromServer.stderr)
        // Same counts and verdict; only the first line names the ledger.
        XCTAssertEqual(fromServer.text.split(separator: "\n").dropFirst(), fromFile.text.split(separator: "\n").dropFirst())
        let a = try CLI.run(["export", "--db", f.sqlite, "--user", "3", "--period", f.period, "--as-of", f.asOf, "--format", "csv",
                             "--out", scratch + "/export-sqlite"])
        let b = try CLI.run(["export", "--db", f.url, "--user", "3", "--period", f.period, "--as-of", f.asOf, "--format", "csv",
                             "--out", scratch + "/export-postgres"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertEqual(OutputTree.snapshot(scratch + "/export-postgres"), OutputTree.snapshot(scratch + "/export-sqlite"))
        XCTAssertFalse(OutputTree.snapshot(scratch + "/export-sqlite").isEmpty)
    }

    func testAWriterCommittingDuringARunDoesNotChangeItsFigures() throws {
        let f = try PostgresFixture.shared()
        let url = try f.database("busy\(UUID().uuidString.prefix(6).lowercased())", filled: true)
        let name = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let cluster = try PostgresCluster.shared()
        let users = try cluster.psql("SELECT id FROM users WHERE deleted_at IS NULL ORDER BY id", database: name)
            .split(separator: "\n").compactMap { Int64($0) }
        let (first, last) = (try XCTUnwrap(users.first), try XCTUnwrap(users.last))
        // The app commits, over and over, one expense for the first user the run reads and one for the
        // last, in one transaction each time: a run that read them at different moments would count
        // more new rows for the last user than for the first.
        let run = try CLI.start(["monthly", "--db", url, "--period", f.period, "--as-of", f.asOf, "--out", scratch + "/busy",
                                 "--formats", "pdf,csv", "--jobs", "1", "--quiet"],
                                stdoutFile: scratch + "/busy.out", stderrFile: scratch + "/busy.err")
        var commits = 0
        repeat {
            commits += 1
            try cluster.psql("""
                INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_on, created_at)
                SELECT \(995000 + 2 * commits) + (id = \(last))::int, id, 'expense', 777, currency, DATE '\(f.period)-20', now()
                FROM users WHERE id IN (\(first), \(last))
                """, database: name)
        } while run.isRunning
        run.waitUntilExit()
        XCTAssertEqual(run.terminationStatus, 0, (try? String(contentsOfFile: scratch + "/busy.err", encoding: .utf8)) ?? "")
        let quiet = try monthly(f.sqlite, out: scratch + "/quiet", ["--formats", "pdf,csv"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        let busy = try OutputTree.manifest(scratch + "/busy/" + f.period)
        let calm = try OutputTree.manifest(scratch + "/quiet/" + f.period)
        func seen(_ id: Int64) -> Int {
            (busy.users.first { $0.id == id }?.transactionCount ?? 0) - (calm.users.first { $0.id == id }?.transactionCount ?? 0)
        }
        XCTAssertEqual(seen(first), seen(last), "both users read in one snapshot (\(commits) commits during the run)")
        XCTAssertLessThan(seen(last), commits, "commits landed after the snapshot, and the run did not see them")
        // Every other user is untouched by the writer: their figures are the quiet run's.
        for (a, b) in zip(busy.users, calm.users) where a.id != first && a.id != last {
            XCTAssertEqual(a.netMinor, b.netMinor, "user \(a.id)")
        }
    }

    func testServerStoppedMidRunStopsTheRunInOneLineAndTheNextRunResumes() throws {
        let f = try PostgresFixture.shared()
        let cluster = try PostgresCluster.shared()
        let url = try f.database("stopping\(UUID().uuidString.prefix(6).lowercased())", filled: true)
        let out = scratch + "/stopping"
        let run = try CLI.start(["monthly", "--db", url, "--period", f.period, "--as-of", f.asOf, "--out", out, "--jobs", "1",
                                 "--log-format", "json"],
                                stdoutFile: scratch + "/stop.out", stderrFile: scratch + "/stop.err")
        // Stop the server once the run has written its first user's files.
        let deadline = Date().addingTimeInterval(120)
        while run.isRunning, Date() < deadline {
            let users = (try? FileManager.default.contentsOfDirectory(atPath: out + "/" + f.period + "/users")) ?? []
            if !users.isEmpty { break }
            usleep(50_000)
        }
        try cluster.stop()
        run.waitUntilExit()
        try cluster.start()
        let stderr = (try? String(contentsOfFile: scratch + "/stop.err", encoding: .utf8)) ?? ""
        // The server gone is the run's failure, not each remaining user's: it used to go on, log
        // a 'user failed' line per user and write a manifest calling them failed (exit 2), which
        // `deliver` then recorded as failed deliveries. It stops: exit 1, no manifest.
        XCTAssertEqual(run.terminationStatus, 1, stderr)
        let last = stderr.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(last.contains("lost during the run"), stderr)
        XCTAssertFalse(stderr.contains("user failed"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/" + f.period + "/manifest.json"), "an incomplete run writes no manifest")
        let resumed = try monthly(url, out: out)
        XCTAssertEqual(resumed.status, 0, resumed.stderr)
        let manifest = try OutputTree.manifest(out + "/" + f.period)
        XCTAssertEqual(manifest.totals.failed, 0)
        XCTAssertEqual(manifest.users.count, try OutputTree.manifest(out + "/" + f.period).users.count)
        XCTAssertGreaterThan(manifest.users.count, 5)
    }
}
