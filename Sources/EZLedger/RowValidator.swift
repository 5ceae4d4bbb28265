import EZCore
import GRDB

/// The ledger contract's row rules for users, currencies, zones and splits, shared by the
/// per-user loader and the whole-ledger `check` scan so that both quarantine exactly the same
/// rows for the same reasons (transactions have theirs in ``TransactionDecoder``).
///
/// A rule returns the validated value, `.ignored` for rows the contract says to skip (soft-deleted
/// owners, deleted groups), or `.quarantined` with a one-line reason.
enum Verdict<Value> {
    case valid(Value)
    case ignored
    case quarantined(String)
}

/// Validates rows against the contract. Holds the rate table (for "a currency with no rate") and a
/// cache of time zones, so it is cheap to call per row.
struct RowValidator {
    let rates: RateTable
    /// The optional contract additions the ledger has (which columns ``userColumns`` can read).
    let features: LedgerFeatures
    private var zones: [String: ZoneRules?] = [:]
    private var currencies: [String: Currency] = [:]

    init(rates: RateTable, features: LedgerFeatures = .none) { self.rates = rates; self.features = features }

    mutating func zone(_ name: String) -> ZoneRules? {
        if let z = zones[name] { return z }
        let z = ZoneRules.named(name)
        zones[name] = .some(z)
        return z
    }

    mutating func currency(_ code: String?) -> Currency? {
        guard let code else { return nil }
        if let c = currencies[code] { return c }
        guard let c = try? Currency(code) else { return nil }
        currencies[code] = c
        return c
    }

    // MARK: - Users

    /// The columns ``user(_:)`` reads, in order (the optional `month_start_day` as NULL when the ledger lacks it).
    var userColumns: String {
        "u.id, u.username, u.email, u.role, u.currency, u.timezone, u.locale, u.book_name, "
            + "u.monthly_limit_minor, typeof(u.monthly_limit_minor), u.chart_style, u.created_at, u.deleted_at, "
            + (features.monthStartDay ? "u.month_start_day, typeof(u.month_start_day)" : "NULL, 'null'")
    }

    mutating func user(_ row: Row, at i: Int = 0) -> Verdict<User> {
        let id: Int64 = row[i]
        guard let username: String = row[i + 1], !username.isEmpty else { return .quarantined("username is empty") }
        guard let roleText: String = row[i + 3], let role = User.Role(rawValue: roleText) else {
            return .quarantined("unknown role '\(row[i + 3] as String? ?? "NULL")'")
        }
        guard let currency = currency(row[i + 4]) else { return .quarantined("invalid currency '\(row[i + 4] as String? ?? "NULL")'") }
        guard let tzName: String = row[i + 5], let zone = zone(tzName) else {
            return .quarantined("unknown time zone '\(row[i + 5] as String? ?? "NULL")'")
        }
        var limit: Int64?
        if !row.hasNull(atIndex: i + 8) {
            guard (row[i + 9] as String) == "integer", let v: Int64 = row[i + 8], v >= 0 else {
                return .quarantined("monthly_limit_minor must be a non-negative integer")
            }
            limit = v
        }
        let styleText: String = row[i + 10] ?? "pie"
        guard let style = User.ChartStyle(rawValue: styleText) else { return .quarantined("unknown chart_style '\(styleText)'") }
        guard let created = (row[i + 11] as String?).flatMap(LedgerTime.init(parsing:)) else {
            return .quarantined("created_at '\(row[i + 11] as String? ?? "NULL")' is not an ISO-8601 timestamp")
        }
        var deleted: LedgerTime?
        if let d: String = row[i + 12] {
            guard let t = LedgerTime(parsing: d) else { return .quarantined("deleted_at '\(d)' is not an ISO-8601 timestamp") }
            deleted = t
        }
        let startDay: Int
        switch Self.monthStartDay(row[i + 13], type: row[i + 14]) {
        case .valid(let d): startDay = d
        case .ignored: startDay = 1
        case .quarantined(let why): return .quarantined(why)
        }
        let book: String? = row[i + 7]
        return .valid(User(id: id, username: username, email: row[i + 2] ?? "", role: role, currency: currency, zone: zone,
                           locale: row[i + 6] ?? "en_US", bookName: (book?.isEmpty == false ? book! : "EZWallet"),
                           monthlyLimitMinor: limit, chartStyle: style, createdAt: created, deletedAt: deleted,
                           monthStartDay: startDay))
    }

    /// `users.month_start_day`: an INTEGER from 1 to 28, NULL (or no such column) meaning 1.
    static func monthStartDay(_ value: DatabaseValue, type: String) -> Verdict<Int> {
        let rule = "month_start_day must be an integer from 1 to 28"
        switch value.storage {
        case .null: return .valid(1)
        case .int64(let v) where type == "integer" && Period.monthStartDays.contains(Int(v)): return .valid(Int(v))
        case .int64(let v): return .quarantined("\(rule) (got \(v))")
        case .double(let v): return .quarantined("\(rule) (got \(v))")
        case .string(let s): return .quarantined("\(rule) (got '\(s)')")
        case .blob: return .quarantined("\(rule) (got a blob)")
        }
    }

    // MARK: - Splits

    /// Checks a group expense's explicit split rows: shares are non-negative integers of existing
    /// users and add up to the amount.
    func splits(_ shares: [(userId: Int64, share: Int64?, userExists: Bool)], of tx: Transaction) -> Verdict<[Split]> {
        var total: Int64 = 0
        var out: [Split] = []
        for s in shares {
            guard s.userExists else { return .quarantined("a split names user \(s.userId), who does not exist") }
            guard let share = s.share, share >= 0 else { return .quarantined("a split share for user \(s.userId) is not a non-negative integer") }
            let (t, o) = total.addingReportingOverflow(share)
            guard !o else { return .quarantined("split shares overflow") }
            total = t
            out.append(Split(transactionId: tx.id, userId: s.userId, shareMinor: share))
        }
        guard total == tx.amountMinor else {
            return .quarantined("splits add up to \(total), not the amount \(tx.amountMinor)")
        }
        return .valid(out.sorted { $0.userId < $1.userId })
    }
}
