import Foundation
import GRDB

/// Builds small ledgers that follow the contract, in a fresh temporary folder, for tests.
///
/// Every helper fills the columns a test does not care about with valid defaults, so a test
/// states only what it is about:
///
/// ```swift
/// let ledger = try TestLedger()
/// let alice = try ledger.user("alice", currency: "EUR", timezone: "Europe/Rome")
/// let food = try ledger.category(alice, "Food")
/// try ledger.expense(alice, 1250, on: "2026-10-03T12:00:00+02:00", category: food)
/// ```
public final class TestLedger {
    /// The ledger file.
    public let path: String
    /// The temporary folder holding it (removed when this object goes away, or when the test
    /// process exits: XCTest keeps every test case, and the ledgers they hold, until then).
    public let folder: URL
    /// A writable connection for building; tests of the engine open `path` read-only themselves.
    public let db: DatabaseQueue
    private var nextId: Int64 = 1000

    /// A new ledger with the contract's schema and no rows.
    public init(schema: String? = nil) throws {
        folder = URL(fileURLWithPath: Self.root).appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("ledger.sqlite").path
        var config = Configuration()
        config.foreignKeysEnabled = false   // the app's rows may break references; tests make such rows on purpose
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = OFF") }   // test speed only
        db = try DatabaseQueue(path: path, configuration: config)
        let sql = try schema ?? String(contentsOf: Self.schemaURL, encoding: .utf8)
        try db.write { try $0.execute(sql: sql) }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// The folder every ledger of this test process is made in, removed when the process exits.
    private static let root: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-test-\(getpid())-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestLedger.root) }
        return path
    }()

    /// samples/schema.sql, located from this source file.
    public static var schemaURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/schema.sql")
    }

    /// Runs arbitrary SQL with arguments (for rows that break the contract on purpose).
    public func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try db.write { try $0.execute(sql: sql, arguments: arguments) }
    }

    /// A fresh id for a new row.
    public func newId() -> Int64 { nextId += 1; return nextId }

    /// Adds a user with a default balance and an 'Others' category; returns the user id.
    @discardableResult
    public func user(_ username: String, currency: String = "EUR", timezone: String = "Europe/Rome", locale: String = "it_IT",
                     role: String = "user", monthlyLimit: Int64? = nil, chartStyle: String = "pie", bookName: String? = nil,
                     createdAt: String = "2024-01-01T00:00:00Z", deletedAt: String? = nil, email: String? = nil) throws -> Int64 {
        let id = newId()
        try execute("""
            INSERT INTO users (id, username, email, password_hash, role, currency, timezone, locale, book_name,
                               monthly_limit_minor, chart_style, created_at, deleted_at)
            VALUES (?, ?, ?, 'secret-hash-\(id)', ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [id, username, email ?? "\(username)@example.com", role, currency, timezone, locale, bookName, monthlyLimit, chartStyle, createdAt, deletedAt])
        try execute("INSERT INTO balances (id, user_id, name, kind, currency, opening_minor, created_at) VALUES (?, ?, 'Wallet', 'default', ?, 0, ?)",
                    [id, id, currency, createdAt])
        try execute("INSERT INTO categories (id, user_id, name, color, position) VALUES (?, ?, 'Others', '#999999', 99)", [id, id])
        return id
    }

    /// The user's default balance id (created with the user).
    public func defaultBalance(_ user: Int64) -> Int64 { user }

    /// Adds a balance; returns its id.
    @discardableResult
    public func balance(_ user: Int64, _ name: String, kind: String = "card", currency: String = "EUR", opening: Int64 = 0) throws -> Int64 {
        let id = newId()
        try execute("INSERT INTO balances (id, user_id, name, kind, currency, opening_minor, created_at) VALUES (?, ?, ?, ?, ?, ?, '2024-01-01')",
                    [id, user, name, kind, currency, opening])
        return id
    }

    /// Adds a category; returns its id.
    @discardableResult
    public func category(_ user: Int64, _ name: String, color: String? = nil, position: Int = 0) throws -> Int64 {
        let id = newId()
        try execute("INSERT INTO categories (id, user_id, name, color, position) VALUES (?, ?, ?, ?, ?)", [id, user, name, color, position])
        return id
    }

    /// Adds a transaction; returns its id. `balance` defaults to the user's default balance.
    @discardableResult
    public func transaction(_ user: Int64, kind: String, _ amount: Int64, on occurredAt: String, currency: String = "EUR",
                            category: Int64? = nil, balance: Int64? = nil, toBalance: Int64? = nil, group: Int64? = nil,
                            method: String? = "card", description: String? = nil, recurrenceDays: Int? = nil,
                            deletedAt: String? = nil) throws -> Int64 {
        let id = newId()
        try execute("""
            INSERT INTO transactions (id, user_id, balance_id, category_id, group_id, kind, to_balance_id, amount_minor,
                                      currency, occurred_at, method, description, recurrence_days, created_at, deleted_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [id, user, balance ?? user, category, group, kind, toBalance, amount, currency, occurredAt, method, description,
                  recurrenceDays, occurredAt, deletedAt])
        return id
    }

    /// Adds an expense.
    @discardableResult
    public func expense(_ user: Int64, _ amount: Int64, on date: String, currency: String = "EUR", category: Int64? = nil,
                        group: Int64? = nil, description: String? = nil) throws -> Int64 {
        try transaction(user, kind: "expense", amount, on: date, currency: currency, category: category, group: group, description: description)
    }

    /// Adds an income.
    @discardableResult
    public func income(_ user: Int64, _ amount: Int64, on date: String, currency: String = "EUR", category: Int64? = nil) throws -> Int64 {
        try transaction(user, kind: "income", amount, on: date, currency: currency, category: category)
    }

    /// Adds a group with members (joined on `joined`); returns its id.
    @discardableResult
    public func group(_ name: String, owner: Int64, members: [Int64], currency: String = "EUR", joined: String = "2024-01-01") throws -> Int64 {
        let id = newId()
        try execute("INSERT INTO groups (id, name, owner_id, currency, created_at) VALUES (?, ?, ?, ?, '2024-01-01')", [id, name, owner, currency])
        for m in members {
            try execute("INSERT INTO group_members (group_id, user_id, joined_at) VALUES (?, ?, ?)", [id, m, joined])
        }
        return id
    }

    /// Adds explicit split rows for a group expense.
    public func splits(_ transaction: Int64, _ shares: [(Int64, Int64)]) throws {
        for (user, share) in shares {
            try execute("INSERT INTO splits (transaction_id, user_id, share_minor) VALUES (?, ?, ?)", [transaction, user, share])
        }
    }

    /// Adds a settle-up payment from one member of a group to another; returns its id.
    @discardableResult
    public func groupPayment(_ group: Int64, from: Int64, to: Int64, _ amount: Int64, on occurredAt: String,
                             currency: String = "EUR", fromBalance: Int64? = nil, toBalance: Int64? = nil,
                             createdAt: String = "2024-01-01T00:00:00Z") throws -> Int64 {
        let id = newId()
        try execute("""
            INSERT INTO group_payments (id, group_id, from_user_id, to_user_id, from_balance_id, to_balance_id,
                                        amount_minor, currency, occurred_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [id, group, from, to, fromBalance, toBalance, amount, currency, occurredAt, createdAt])
        return id
    }

    /// Adds a family; `members` are (user, role) pairs.
    @discardableResult
    public func family(_ name: String, _ members: [(Int64, String)]) throws -> Int64 {
        let id = newId()
        try execute("INSERT INTO families (id, name, created_at) VALUES (?, ?, '2024-01-01')", [id, name])
        for (u, role) in members {
            try execute("INSERT INTO family_members (family_id, user_id, role) VALUES (?, ?, ?)", [id, u, role])
        }
        return id
    }

    /// Adds a budget; returns its id.
    @discardableResult
    public func budget(_ user: Int64, category: Int64?, period: String = "month", amount: Int64, currency: String = "EUR",
                       startsOn: String = "2024-01-01", endsOn: String? = nil) throws -> Int64 {
        let id = newId()
        try execute("INSERT INTO budgets (id, user_id, category_id, period, amount_minor, currency, starts_on, ends_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [id, user, category, period, amount, currency, startsOn, endsOn])
        return id
    }

    /// Adds an exchange rate `1 base = rate quote` on `day`.
    public func rate(_ day: String, _ base: String, _ quote: String, _ rate: Double) throws {
        try execute("INSERT INTO exchange_rates (day, base, quote, rate) VALUES (?, ?, ?, ?)", [day, base, quote, rate])
    }

    /// Adds a sign-in.
    public func login(_ user: Int64, at: String) throws {
        try execute("INSERT INTO logins (user_id, at) VALUES (?, ?)", [user, at])
    }

    /// The file's bytes, for "the ledger is unchanged" assertions.
    public func bytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}
