import EZBatch
import EZSample
import Foundation
import GRDB
import Synchronization
import XCTest

/// One generated sample ledger shared by every test in this target (generated once per test
/// process), with a unique marker planted in one user's own transaction descriptions, and one
/// clean, uninterrupted all-format run of it that other tests compare against.
package final class SampleFixture: Sendable {
    /// Everything lives under this folder, removed when the test process exits.
    package static let root: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-batchtests-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SampleFixture.root) }
        return path
    }()

    /// The fixture, built on first use.
    package static func shared() throws -> SampleFixture {
        try made.withLock { made in
            if let made { return made }
            let f = try SampleFixture()
            made = f
            return f
        }
    }
    private static let made = Mutex<SampleFixture?>(nil)

    /// The ledger file (never written to after set-up).
    package let ledger: String
    package let period = "2026-09"
    package let asOf = "2026-10-01"
    /// A string found nowhere in the sample, planted in `markedUser`'s own descriptions.
    package let marker = SampleFixture.markerText
    package static let markerText = "QZXMARKER4471"
    package let markedUser: Int64
    /// How many of the marked user's rows in the period carry the marker.
    package let markedRows: Int

    private init() throws {
        ledger = Self.root + "/ledger.sqlite"
        _ = try SampleGenerator.generate(to: ledger, options: SampleOptions(users: 24, months: 13, endYear: 2026, endMonth: 9, seed: 5))
        // The marker goes to a live user in no family (whose rows a parent could see) and only on
        // their own rows outside groups (group members see group expenses by design).
        let db = try DatabaseQueue(path: ledger)
        let marker = Self.markerText
        (markedUser, markedRows) = try db.write { db -> (Int64, Int) in
            let user = try Int64.fetchOne(db, sql: """
                SELECT u.id FROM users u
                WHERE u.deleted_at IS NULL AND u.role = 'user'
                  AND u.id NOT IN (SELECT user_id FROM family_members)
                  AND (SELECT COUNT(*) FROM transactions t WHERE t.user_id = u.id AND t.group_id IS NULL
                       AND t.occurred_at >= '2026-09-03' AND t.occurred_at < '2026-09-28' AND t.deleted_at IS NULL) >= 3
                ORDER BY u.id LIMIT 1
                """)!
            try db.execute(sql: """
                UPDATE transactions SET description = COALESCE(description, '') || ' \(marker)'
                WHERE user_id = ? AND group_id IS NULL AND deleted_at IS NULL
                  AND occurred_at >= '2026-09-03' AND occurred_at < '2026-09-28'
                """, arguments: [user])
            return (user, db.changesCount)
        }
        try db.close()
    }

    // MARK: - The clean reference run

    /// `monthly` with every format and two jobs into `<root>/clean`, run once.
    package func cleanRun() throws -> (outcome: CLI.Outcome, folder: String) {
        try clean.withLock { clean in
            if let clean { return clean }
            let out = Self.root + "/clean"
            let outcome = try CLI.run(["monthly", "--db", ledger, "--period", period, "--as-of", asOf,
                                       "--out", out, "--jobs", "2", "--quiet"])
            clean = (outcome, out + "/" + period)
            return clean!
        }
    }
    private let clean = Mutex<(outcome: CLI.Outcome, folder: String)?>(nil)

    /// The arguments of a monthly run of this ledger into `out`, plus `extra`.
    package func monthly(out: String, _ extra: [String] = []) -> [String] {
        ["monthly", "--db", ledger, "--period", period, "--as-of", asOf, "--out", out] + extra
    }

    /// A fresh, empty folder under the fixture's root.
    package static func scratch(_ name: String) -> String {
        let path = root + "/" + name + "-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A byte copy of the ledger (for tests that change rows).
    package func copyOfLedger(_ name: String) throws -> String {
        let path = Self.scratch(name) + "/ledger.sqlite"
        try FileManager.default.copyItem(atPath: ledger, toPath: path)
        return path
    }

    /// Adds 100 minor units to one of `markedUser`'s own September expenses in the ledger at
    /// `path` (a copy): a change to that user's inputs alone (the marked user is in no family, so
    /// no parent's report draws on their rows).
    /// Runs `sql` on the ledger copy at `path` (as the app would write to it between runs).
    package static func execute(_ sql: String, _ arguments: StatementArguments = [], in path: String) throws {
        try DatabaseQueue(path: path).write { try $0.execute(sql: sql, arguments: arguments) }
    }

    /// The first row `sql` selects from the ledger at `path`, as text columns (nil when it selects none).
    package static func firstRow(_ sql: String, in path: String) throws -> [String]? {
        try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: sql).map { row in row.databaseValues.map { String(describing: $0.storage.value ?? "") } }
        }
    }

    package func nudgeMarkedUsersExpense(in path: String) throws {
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                UPDATE transactions SET amount_minor = amount_minor + 100 WHERE id = (
                  SELECT id FROM transactions WHERE user_id = ? AND kind = 'expense' AND group_id IS NULL AND deleted_at IS NULL
                    AND occurred_at >= '2026-09-05' AND occurred_at < '2026-09-25' ORDER BY id LIMIT 1)
                """, arguments: [markedUser])
            XCTAssertEqual(db.changesCount, 1)
        }
    }
}
