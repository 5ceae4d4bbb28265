import EZCore
import EZSample
import Foundation
import GRDB
import XCTest

/// The sample generator writes a clean, realistic, reproducible ledger that follows the contract.
final class SampleGeneratorTests: XCTestCase {
    /// 50 users × 3 months, generated once for the read-only checks.
    nonisolated(unsafe) private static var folder: URL!
    nonisolated(unsafe) private static var ledgerPath: String!
    nonisolated(unsafe) private static var summary: SampleSummary!
    private static let options = SampleOptions(users: 50, months: 3, endYear: 2026, endMonth: 3, seed: 7)

    override class func setUp() {
        super.setUp()
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ezsample-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        ledgerPath = folder.appendingPathComponent("ledger.sqlite").path
        summary = try! SampleGenerator.generate(to: ledgerPath, options: options)
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: Self.ledgerPath, configuration: configuration)
    }

    private func ints(_ sql: String) throws -> [Int64] {
        try open().read { try Int64.fetchAll($0, sql: sql) }
    }

    private func count(_ sql: String) throws -> Int {
        try open().read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    // MARK: - Contract and file

    func testCreateSQLIsTheContractFileByteForByte() throws {
        let schemaFile = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("samples/schema.sql")
        let bytes = try Data(contentsOf: schemaFile)
        XCTAssertEqual(Data(LedgerSchema.createSQL.utf8), bytes)
        XCTAssertEqual(LedgerSchema.tablesSQL + LedgerSchema.indexesSQL, LedgerSchema.createSQL)
        XCTAssertTrue(LedgerSchema.indexesSQL.hasPrefix("-- Indexes"))
    }

    func testLedgerStoresExactlyTheContractSchemaAndUserVersion() throws {
        let reference = try DatabaseQueue()
        try reference.write { try $0.execute(sql: LedgerSchema.createSQL) }
        let query = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        let expected = try reference.read { try Row.fetchAll($0, sql: query) }
        let actual = try open().read { try Row.fetchAll($0, sql: query) }
        XCTAssertEqual(actual, expected)
        XCTAssertEqual(expected.count, 15 + 11 + 5)   // tables (group_payments included), indexes, automatic PK/UNIQUE indexes
        XCTAssertEqual(try count("PRAGMA user_version"), LedgerSchema.userVersion)
        XCTAssertEqual(try open().read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }, "delete")
    }

    func testSameOptionsGiveByteIdenticalFiles() throws {
        let a = Self.folder.appendingPathComponent("a.sqlite").path
        let b = Self.folder.appendingPathComponent("b.sqlite").path
        let summaryA = try SampleGenerator.generate(to: a, options: Self.options)
        let summaryB = try SampleGenerator.generate(to: b, options: Self.options)
        XCTAssertEqual(summaryA, summaryB)
        XCTAssertEqual(summaryA, Self.summary)
        let bytesA = try Data(contentsOf: URL(fileURLWithPath: a))
        XCTAssertEqual(bytesA, try Data(contentsOf: URL(fileURLWithPath: b)))
        XCTAssertEqual(bytesA, try Data(contentsOf: URL(fileURLWithPath: Self.ledgerPath)))
    }

    func testAnotherSeedGivesAnotherLedger() throws {
        var options = Self.options
        options.seed = 8
        let other = Self.folder.appendingPathComponent("seed8.sqlite").path
        _ = try SampleGenerator.generate(to: other, options: options)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: other)),
                          try Data(contentsOf: URL(fileURLWithPath: Self.ledgerPath)))
    }

    func testRefusesToOverwriteAnExistingFileAndLeavesItUntouched() throws {
        let path = Self.folder.appendingPathComponent("existing.sqlite").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try SampleGenerator.generate(to: path, options: Self.options)) { error in
            XCTAssertEqual(error as? SampleError, .fileExists(path: path))
            XCTAssertTrue("\(error)".contains("remove it first"))
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("keep me".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".partial") }
        XCTAssertEqual(leftovers, [])
    }

    func testImpossibleOptionsAreRejectedWithTheReason() {
        for (options, word) in [(SampleOptions(users: 0, endYear: 2026, endMonth: 1), "users"),
                                (SampleOptions(months: 0, endYear: 2026, endMonth: 1), "months"),
                                (SampleOptions(endYear: 2026, endMonth: 13), "end")] {
            let path = Self.folder.appendingPathComponent("bad-\(word).sqlite").path
            XCTAssertThrowsError(try SampleGenerator.generate(to: path, options: options)) { error in
                guard case .invalidOptions(let why) = error as? SampleError else { return XCTFail("\(error)") }
                XCTAssertTrue(why.hasPrefix(word), why)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
    }

    func testSummaryCountsEveryTableRow() throws {
        let s = Self.summary!
        let tables: [(String, Int)] = [
            ("users", s.users), ("transactions", s.transactions), ("balances", s.balances), ("categories", s.categories),
            ("splits", s.splits), ("groups", s.groups), ("group_members", s.groupMembers), ("group_payments", s.groupPayments),
            ("families", s.families),
            ("family_members", s.familyMembers), ("budgets", s.budgets), ("budget_transfers", s.budgetTransfers),
            ("savings_goals", s.savingsGoals), ("exchange_rates", s.exchangeRates), ("logins", s.logins),
        ]
        for (table, expected) in tables {
            XCTAssertEqual(try count("SELECT COUNT(*) FROM \(table)"), expected, table)
            XCTAssertGreaterThan(expected, 0, table)
        }
        XCTAssertEqual(s.users, 50)
        // About 500 transactions per user over 24 months: 3 months give roughly 60 each.
        XCTAssertGreaterThan(s.transactions, 50 * 40)
        XCTAssertLessThan(s.transactions, 50 * 100)
    }

    // MARK: - Referential and value integrity

    func testEveryReferenceResolvesAndEveryKeyIsUnique() throws {
        try open().read { db in
            XCTAssertEqual(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check"), [])
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
        // A row's balance and category belong to the row's owner.
        XCTAssertEqual(try count("""
            SELECT COUNT(*) FROM transactions t LEFT JOIN balances b ON b.id = t.balance_id
            LEFT JOIN categories c ON c.id = t.category_id
            WHERE b.user_id <> t.user_id OR c.user_id <> t.user_id
               OR (t.to_balance_id IS NOT NULL AND (SELECT user_id FROM balances WHERE id = t.to_balance_id) <> t.user_id)
            """), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM budgets b JOIN categories c ON c.id = b.category_id WHERE c.user_id <> b.user_id"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM savings_goals g JOIN balances b ON b.id = g.balance_id WHERE b.kind <> 'savings' OR b.user_id <> g.user_id"), 0)
    }

    func testAmountsArePositiveIntegersAndKindsAreKnown() throws {
        XCTAssertEqual(try count("SELECT COUNT(*) FROM transactions WHERE typeof(amount_minor) <> 'integer' OR amount_minor <= 0"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM transactions WHERE kind NOT IN ('expense', 'income', 'transfer')"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM transactions WHERE (kind = 'transfer') <> (to_balance_id IS NOT NULL)"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM transactions WHERE group_id IS NOT NULL AND kind <> 'expense'"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM balances WHERE kind NOT IN ('default', 'allowance', 'cash', 'card', 'bank', 'savings')"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM budgets WHERE period NOT IN ('week', 'month', 'year') OR amount_minor < 0"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM budget_transfers WHERE amount_minor <= 0"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM splits WHERE share_minor < 0"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM users WHERE role NOT IN ('user', 'admin') OR chart_style NOT IN ('pie', 'doughnut')"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM exchange_rates WHERE typeof(rate) <> 'real' OR rate <= 0"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM family_members WHERE role NOT IN ('parent', 'child')"), 0)
        // JPY has no minor digits; the amounts are whole yen either way, and the currency list is the sample's.
        XCTAssertEqual(try count("SELECT COUNT(*) FROM transactions WHERE currency NOT IN ('EUR', 'USD', 'GBP', 'CHF', 'JPY')"), 0)
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM transactions WHERE currency = 'JPY'"), 0)
    }

    // MARK: - Realistic content

    func testEveryUserHasEightToFourteenColouredCategoriesIncludingOthers() throws {
        XCTAssertEqual(try count("SELECT COUNT(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.user_id = u.id AND c.name = 'Others' AND c.deleted_at IS NULL)"), 0)
        let perUser = try ints("SELECT COUNT(*) FROM categories WHERE deleted_at IS NULL GROUP BY user_id")
        XCTAssertEqual(perUser.count, 50)
        XCTAssertTrue(perUser.allSatisfy { (8...14).contains($0) }, "\(perUser)")
        let colours = try open().read { try String.fetchAll($0, sql: "SELECT color FROM categories WHERE color IS NOT NULL") }
        XCTAssertTrue(colours.allSatisfy { $0.utf8.count == 7 && $0.hasPrefix("#") && UInt32($0.dropFirst(), radix: 16) != nil })
    }

    func testUsersLiveInSeveralZonesLocalesAndCurrencies() throws {
        try open().read { db in
            let zones = try String.fetchAll(db, sql: "SELECT DISTINCT timezone FROM users")
            XCTAssertGreaterThanOrEqual(zones.count, 5)
            XCTAssertTrue(zones.allSatisfy { try! ZoneRules.named($0) != nil }, "\(zones)")
            XCTAssertGreaterThanOrEqual(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT locale) FROM users")!, 5)
            XCTAssertGreaterThanOrEqual(try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT currency) FROM users")!, 3)
        }
    }

    func testHostileAndNonASCIIUsernamesExistOnLiveAdults() throws {
        let names = try open().read { db in
            try String.fetchAll(db, sql: """
                SELECT username FROM users u WHERE deleted_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM family_members f WHERE f.user_id = u.id AND f.role = 'child')
                """)
        }
        for special in ["../../etc", "zoë", "josé.müller", "山田"] {
            XCTAssertTrue(names.contains(special), special)
        }
    }

    func testEveryExplicitSplitSetSumsToItsTransactionsAmount() throws {
        XCTAssertGreaterThan(try count("SELECT COUNT(DISTINCT transaction_id) FROM splits"), 0)
        XCTAssertEqual(try count("""
            SELECT COUNT(*) FROM (SELECT s.transaction_id FROM splits s JOIN transactions t ON t.id = s.transaction_id
            GROUP BY s.transaction_id HAVING SUM(s.share_minor) <> MAX(t.amount_minor))
            """), 0)
        // Uneven means uneven: some split sets have different shares.
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM (SELECT transaction_id FROM splits GROUP BY transaction_id HAVING MIN(share_minor) <> MAX(share_minor))"), 0)
        // Splits only on group expenses, and only for members of that group.
        XCTAssertEqual(try count("""
            SELECT COUNT(*) FROM splits s JOIN transactions t ON t.id = s.transaction_id
            WHERE t.group_id IS NULL OR NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = t.group_id AND m.user_id = s.user_id)
            """), 0)
    }

    func testGroupsHaveTwoToEightMembersAndExpensesPaidByDifferentMembers() throws {
        let sizes = try ints("SELECT COUNT(*) FROM group_members GROUP BY group_id")
        XCTAssertFalse(sizes.isEmpty)
        XCTAssertTrue(sizes.allSatisfy { (2...8).contains($0) }, "\(sizes)")
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM (SELECT group_id FROM transactions WHERE group_id IS NOT NULL GROUP BY group_id HAVING COUNT(DISTINCT user_id) > 1)"), 0)
    }

    func testGroupExpensesArePaidByMembersOnTheirDates() throws {
        let rows = try open().read { db in
            try Row.fetchAll(db, sql: """
                SELECT t.occurred_at, u.timezone, m.joined_at, m.left_at, mu.timezone AS member_zone
                FROM transactions t JOIN users u ON u.id = t.user_id
                JOIN group_members m ON m.group_id = t.group_id AND m.user_id = t.user_id
                JOIN users mu ON mu.id = m.user_id
                """)
        }
        let paid = try count("SELECT COUNT(*) FROM transactions WHERE group_id IS NOT NULL")
        XCTAssertEqual(rows.count, paid, "every group expense's payer is a member of the group")
        for row in rows {
            let zone = try! ZoneRules.named(row["timezone"])!
            let day = LedgerTime(parsing: row["occurred_at"])!.localDate(in: zone)
            let joined = LedgerTime(parsing: row["joined_at"])!.localDate(in: try! ZoneRules.named(row["member_zone"])!)
            XCTAssertGreaterThan(day, joined)
            if let left: String = row["left_at"] {
                XCTAssertLessThan(day, LedgerTime(parsing: left)!.localDate(in: zone))
            }
        }
    }

    func testExchangeRatesCoverEveryDayOfTheSpanForEveryPair() throws {
        let days = try open().read { try String.fetchAll($0, sql: "SELECT DISTINCT day FROM exchange_rates ORDER BY day") }
        let first = CivilDate(year: 2026, month: 1, day: 1), last = CivilDate(year: 2026, month: 3, day: 31)
        XCTAssertEqual(days, (first.dayNumber...last.dayNumber).map { CivilDate(dayNumber: $0).description })
        XCTAssertEqual(try count("SELECT COUNT(*) FROM exchange_rates"), days.count * 10)
        let usd = try open().read { try Double.fetchAll($0, sql: "SELECT rate FROM exchange_rates WHERE base = 'EUR' AND quote = 'USD'") }
        XCTAssertTrue(usd.allSatisfy { (0.95...1.2).contains($0) }, "EUR→USD stays near 1.08")
        XCTAssertEqual(Set(usd).count > 10, true, "the rate moves from day to day")
        // At most six significant digits: the stored REAL reads back as a short decimal.
        let all = try open().read { try Double.fetchAll($0, sql: "SELECT rate FROM exchange_rates") }
        for rate in all {
            let digits = "\(rate)".filter(\.isNumber).drop { $0 == "0" }
            XCTAssertLessThanOrEqual(digits.count, 6, "\(rate)")
        }
    }

    func testEveryForeignCurrencyTransactionHasARateOnOrBeforeItsDate() throws {
        var table = RateTable()
        let rows = try open().read { db in
            for row in try Row.fetchAll(db, sql: "SELECT day, base, quote, rate FROM exchange_rates") {
                table.add(day: CivilDate(iso: row["day"] as String)!, base: try Currency(row["base"]), quote: try Currency(row["quote"]),
                          rate: DecimalRate(row["rate"] as Double)!)
            }
            return try Row.fetchAll(db, sql: """
                SELECT t.id, t.currency, t.occurred_at, u.timezone, u.currency AS home FROM transactions t
                JOIN users u ON u.id = t.user_id WHERE t.currency <> u.currency
                """)
        }
        table.finish()
        XCTAssertGreaterThan(rows.count, 0, "some rows are in a foreign currency (travel, groups)")
        let currencies = try ["EUR", "USD", "GBP", "CHF", "JPY"].map { try Currency($0) }
        for row in rows {
            let day = LedgerTime(parsing: row["occurred_at"])!.localDate(in: try! ZoneRules.named(row["timezone"])!)
            let from = try Currency(row["currency"] as String)
            for to in currencies where to != from {
                XCTAssertNotNil(table.rate(from: from, to: to, on: day), "transaction \(row["id"] as Int64) \(from)→\(to) on \(day)")
            }
        }
    }

    func testTimestampsUseEveryContractFormWithTheZonesRealOffset() throws {
        let rows = try open().read { db in
            try Row.fetchAll(db, sql: "SELECT t.occurred_at, t.created_at, u.timezone FROM transactions t JOIN users u ON u.id = t.user_id")
        }
        var bare = 0, utc = 0, millis = 0, offset = 0
        for row in rows {
            let text: String = row["occurred_at"]
            let zone = try! ZoneRules.named(row["timezone"])!
            guard let time = LedgerTime(parsing: text) else { return XCTFail("unparsable \(text)") }
            XCTAssertNotNil(LedgerTime(parsing: row["created_at"] as String))
            if text.count == 10 { bare += 1; continue }
            if text.contains(".") { millis += 1 }
            if text.hasSuffix("Z") { utc += 1; continue }
            offset += 1
            // The written offset is the one the owner's zone has at that instant.
            guard case .instant(let ms) = time else { return XCTFail(text) }
            let sign = text.utf8.reversed().dropFirst(5).first == UInt8(ascii: "-") ? -1 : 1
            let hh = Int(text.suffix(5).prefix(2))!, mm = Int(text.suffix(2))!
            XCTAssertEqual(sign * (hh * 3600 + mm * 60), zone.offset(atUTCSeconds: ms / 1000), text)
        }
        XCTAssertGreaterThan(bare, 0)
        XCTAssertGreaterThan(utc, 0)
        XCTAssertGreaterThan(millis, 0)
        XCTAssertGreaterThan(offset, rows.count / 2)
        for sql in ["SELECT created_at FROM users", "SELECT at FROM logins", "SELECT joined_at FROM group_members",
                    "SELECT starts_on FROM budgets", "SELECT period_start FROM budget_transfers"] {
            let texts = try open().read { try String.fetchAll($0, sql: sql) }
            XCTAssertTrue(texts.allSatisfy { LedgerTime(parsing: $0) != nil }, sql)
        }
    }

    func testRecurringRowsUseThirtySevenAndThreeHundredSixtyFiveDays() throws {
        let kinds = Set(try ints("SELECT DISTINCT recurrence_days FROM transactions WHERE recurrence_days IS NOT NULL"))
        XCTAssertTrue(kinds.isSubset(of: [7, 30, 365]))
        XCTAssertTrue(kinds.isSuperset(of: [7, 30]))
    }

    func testEatingOutIsBusierOnWeekends() throws {
        // strftime('%w'): 0 = Sunday … 6 = Saturday; dates are close enough to local for this property.
        let byWeekday = try open().read { db in
            try Int.fetchAll(db, sql: """
                SELECT COUNT(*) FROM transactions t JOIN categories c ON c.id = t.category_id
                WHERE c.name IN ('Eating out', 'Ristoranti') AND t.group_id IS NULL
                GROUP BY strftime('%w', substr(t.occurred_at, 1, 10)) ORDER BY strftime('%w', substr(t.occurred_at, 1, 10))
                """)
        }
        XCTAssertEqual(byWeekday.count, 7)
        XCTAssertGreaterThan(byWeekday[6], byWeekday[1] * 2, "Saturdays vs Mondays: \(byWeekday)")
    }

    func testSoftDeletedRowsOfEachKindExist() throws {
        for table in ["users", "balances", "categories", "groups", "transactions"] {
            XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM \(table) WHERE deleted_at IS NOT NULL"), 0, table)
        }
        // A deleted user is in no group or family.
        XCTAssertEqual(try count("""
            SELECT COUNT(*) FROM users u WHERE deleted_at IS NOT NULL AND (
              EXISTS (SELECT 1 FROM group_members m WHERE m.user_id = u.id) OR EXISTS (SELECT 1 FROM family_members f WHERE f.user_id = u.id))
            """), 0)
    }

    func testFamiliesHaveTwoParentsAndChildrenLivingOnAllowances() throws {
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM families"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM (SELECT family_id FROM family_members GROUP BY family_id HAVING SUM(role = 'parent') <> 2 OR SUM(role = 'child') NOT BETWEEN 1 AND 3)"), 0)
        XCTAssertEqual(try count("""
            SELECT COUNT(*) FROM family_members f WHERE f.role = 'child' AND NOT EXISTS
            (SELECT 1 FROM balances b WHERE b.user_id = f.user_id AND b.kind = 'allowance')
            """), 0)
        XCTAssertGreaterThan(try count("""
            SELECT COUNT(*) FROM transactions t JOIN family_members f ON f.user_id = t.user_id AND f.role = 'child'
            JOIN balances b ON b.id = t.balance_id WHERE t.kind = 'income' AND b.kind = 'allowance'
            """), 0)
        // A family lives in one place.
        XCTAssertEqual(try count("SELECT COUNT(*) FROM (SELECT family_id FROM family_members f JOIN users u ON u.id = f.user_id GROUP BY family_id HAVING COUNT(DISTINCT u.timezone) > 1)"), 0)
    }

    func testBudgetsOfEveryShapeExist() throws {
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM budgets WHERE category_id IS NULL"), 0)
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM budgets WHERE category_id IS NOT NULL AND period = 'month'"), 0)
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM users WHERE monthly_limit_minor IS NOT NULL"), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM users u WHERE monthly_limit_minor IS NOT NULL AND EXISTS (SELECT 1 FROM budgets b WHERE b.user_id = u.id AND b.category_id IS NULL)"), 0)
        // A budget transfer changes a monthly window: it starts on the first of a month.
        XCTAssertEqual(try count("SELECT COUNT(*) FROM budget_transfers WHERE substr(period_start, 9, 2) <> '01'"), 0)
        XCTAssertGreaterThan(try count("SELECT COUNT(*) FROM savings_goals"), 0)
    }

    func testWeeklyAndYearlyBudgetsAppearInALargerSample() throws {
        let path = Self.folder.appendingPathComponent("larger.sqlite").path
        _ = try SampleGenerator.generate(to: path, options: SampleOptions(users: 300, months: 2, endYear: 2025, endMonth: 12))
        let db = try DatabaseQueue(path: path)
        try db.read { db in
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM budgets WHERE period = 'week'")!, 0)
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM budgets WHERE period = 'year'")!, 0)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM budgets WHERE period = 'week' AND strftime('%w', starts_on) <> '1'")!, 0)
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_members WHERE left_at IS NOT NULL")!, 0)
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM splits WHERE share_minor = 0")!, 0)
        }
    }

    func testGroupsSettleUpBetweenMembersAndSomeNeverDo() throws {
        let path = Self.folder.appendingPathComponent("settling.sqlite").path
        let summary = try SampleGenerator.generate(to: path, options: SampleOptions(users: 120, months: 24, endYear: 2026, endMonth: 10, seed: 3))
        let db = try DatabaseQueue(path: path)
        try db.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_payments"), summary.groupPayments)
            // Groups with shared expenses over more than two months: most settle, some never do.
            let longGroups = try Int64.fetchAll(db, sql: """
                SELECT group_id FROM transactions WHERE group_id IS NOT NULL GROUP BY group_id
                HAVING julianday(substr(MAX(occurred_at), 1, 10)) - julianday(substr(MIN(occurred_at), 1, 10)) > 62
                """)
            let settling = try Set(Int64.fetchAll(db, sql: "SELECT DISTINCT group_id FROM group_payments"))
            XCTAssertGreaterThan(longGroups.count, 4)
            XCTAssertGreaterThan(longGroups.filter(settling.contains).count * 2, longGroups.count, "most groups settle up")
            XCTAssertLessThan(longGroups.filter(settling.contains).count, longGroups.count, "some groups never do")
            // Every payment is between two different members of its group, positive, in the group's currency.
            XCTAssertEqual(try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM group_payments p JOIN groups g ON g.id = p.group_id
                WHERE p.from_user_id = p.to_user_id OR p.amount_minor <= 0 OR p.currency <> g.currency
                   OR NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = p.group_id AND m.user_id = p.from_user_id)
                   OR NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = p.group_id AND m.user_id = p.to_user_id)
                """), 0)
            // Named balances are the payer's and the payee's own.
            XCTAssertEqual(try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM group_payments p LEFT JOIN balances f ON f.id = p.from_balance_id LEFT JOIN balances t ON t.id = p.to_balance_id
                WHERE (p.from_balance_id IS NOT NULL AND f.user_id IS NOT p.from_user_id)
                   OR (p.to_balance_id IS NOT NULL AND t.user_id IS NOT p.to_user_id)
                """), 0)
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_payments WHERE from_balance_id IS NULL")!, 0)
            XCTAssertGreaterThan(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM group_payments WHERE from_balance_id IS NOT NULL")!, 0)
        }
    }
}
