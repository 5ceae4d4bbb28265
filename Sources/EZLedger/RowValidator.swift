import EZCore
import GRDB

/// The ledger contract's row rules, shared by the per-user loader and the whole-ledger `check`
/// scan so that both quarantine exactly the same rows for the same reasons.
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
    private var zones: [String: ZoneRules?] = [:]
    private var currencies: [String: Currency] = [:]

    init(rates: RateTable) { self.rates = rates }

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

    /// The columns ``user(_:)`` reads, in order.
    static let userColumns = "u.id, u.username, u.email, u.role, u.currency, u.timezone, u.locale, u.book_name, "
        + "u.monthly_limit_minor, typeof(u.monthly_limit_minor), u.chart_style, u.created_at, u.deleted_at"

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
        let book: String? = row[i + 7]
        return .valid(User(id: id, username: username, email: row[i + 2] ?? "", role: role, currency: currency, zone: zone,
                           locale: row[i + 6] ?? "en_US", bookName: (book?.isEmpty == false ? book! : "EZWallet"),
                           monthlyLimitMinor: limit, chartStyle: style, createdAt: created, deletedAt: deleted))
    }

    // MARK: - Transactions

    /// The joined columns ``transaction(_:)`` reads, in order; `FROM` must alias the tables as named.
    static let transactionSelect = """
        SELECT t.id, t.user_id, t.balance_id, t.category_id, t.group_id, t.kind, t.to_balance_id,
               t.amount_minor, typeof(t.amount_minor), t.currency, t.occurred_at, t.method, t.description,
               t.recurrence_days, typeof(t.recurrence_days), t.created_at,
               u.id, u.timezone, u.currency, u.deleted_at,
               b.id, b.user_id, tb.id, tb.user_id, tb.currency,
               c.id, c.user_id, c.name, c.deleted_at,
               g.id, g.currency, g.deleted_at
        FROM transactions t
        LEFT JOIN users u ON u.id = t.user_id
        LEFT JOIN balances b ON b.id = t.balance_id
        LEFT JOIN balances tb ON tb.id = t.to_balance_id
        LEFT JOIN categories c ON c.id = t.category_id
        LEFT JOIN groups g ON g.id = t.group_id
        """

    mutating func transaction(_ row: Row) -> Verdict<Transaction> {
        let id: Int64 = row[0]
        let userId: Int64 = row[1] ?? 0
        guard !row.hasNull(atIndex: 16) else { return .quarantined("user_id \(userId) does not exist") }
        if !row.hasNull(atIndex: 19) { return .ignored }            // the owner was deleted
        let kindText: String = row[5] ?? "NULL"
        guard let kind = Transaction.Kind(rawValue: kindText) else { return .quarantined("unknown kind '\(kindText)'") }
        guard (row[8] as String) == "integer", let amount: Int64 = row[7], amount > 0 else {
            return .quarantined("amount_minor must be a positive integer (got \(describe(row, 7)))")
        }
        guard let cur = currency(row[9]) else { return .quarantined("invalid currency '\(row[9] as String? ?? "NULL")'") }
        guard let occurredText: String = row[10], let occurred = LedgerTime(parsing: occurredText) else {
            return .quarantined("occurred_at '\(row[10] as String? ?? "NULL")' is not an ISO-8601 timestamp")
        }
        let created: LedgerTime
        if let c = (row[15] as String?).flatMap(LedgerTime.init(parsing:)) { created = c } else {
            return .quarantined("created_at '\(row[15] as String? ?? "NULL")' is not an ISO-8601 timestamp")
        }
        guard let ownerZone = zone(row[17] ?? ""), let ownerCurrency = currency(row[18]) else {
            return .quarantined("its owner \(userId) has an invalid time zone or currency")
        }
        let ownerDate = occurred.localDate(in: ownerZone)
        // References must exist and belong to the owner.
        let balanceId: Int64? = row[2]
        if let balanceId {
            guard !row.hasNull(atIndex: 20) else { return .quarantined("balance_id \(balanceId) does not exist") }
            guard (row[21] as Int64?) == userId else { return .quarantined("balance_id \(balanceId) belongs to another user") }
        }
        let toBalanceId: Int64? = row[6]
        if kind == .transfer {
            guard balanceId != nil else { return .quarantined("a transfer needs a balance_id") }
            guard let to = toBalanceId else { return .quarantined("a transfer needs a to_balance_id") }
            guard !row.hasNull(atIndex: 22) else { return .quarantined("to_balance_id \(to) does not exist") }
            guard (row[23] as Int64?) == userId else { return .quarantined("to_balance_id \(to) belongs to another user") }
            if let toCur = currency(row[24]), toCur != cur, rates.rate(from: cur, to: toCur, on: ownerDate) == nil {
                return .quarantined("no exchange rate \(cur.code)→\(toCur.code) on or before \(ownerDate)")
            }
        } else if let to = toBalanceId {
            return .quarantined("to_balance_id \(to) is set on a \(kind.rawValue)")
        }
        var categoryId: Int64? = row[3]
        var categoryName = Category.othersName
        if let cid = categoryId {
            guard !row.hasNull(atIndex: 25) else { return .quarantined("category_id \(cid) does not exist") }
            guard (row[26] as Int64?) == userId else { return .quarantined("category_id \(cid) belongs to another user") }
            if row.hasNull(atIndex: 28) { categoryName = row[27] ?? Category.othersName } else { categoryId = nil }
        }
        let groupId: Int64? = row[4]
        if let gid = groupId {
            guard !row.hasNull(atIndex: 29) else { return .quarantined("group_id \(gid) does not exist") }
            if !row.hasNull(atIndex: 31) { return .ignored }       // the group was deleted
            guard kind == .expense else { return .quarantined("a group row must be an expense, not \(kind.rawValue)") }
            if let gcur = currency(row[30]), gcur != cur, rates.rate(from: cur, to: gcur, on: ownerDate) == nil {
                return .quarantined("no exchange rate \(cur.code)→\(gcur.code) on or before \(ownerDate)")
            }
        }
        if cur != ownerCurrency, rates.rate(from: cur, to: ownerCurrency, on: ownerDate) == nil {
            return .quarantined("no exchange rate \(cur.code)→\(ownerCurrency.code) on or before \(ownerDate)")
        }
        var recurrence: Int?
        if !row.hasNull(atIndex: 13) {
            guard (row[14] as String) == "integer", let r: Int = row[13], r > 0 else {
                return .quarantined("recurrence_days must be a positive integer (got \(describe(row, 13)))")
            }
            recurrence = r
        }
        return .valid(Transaction(
            id: id, userId: userId, balanceId: balanceId, categoryId: categoryId, categoryName: categoryName,
            groupId: groupId, kind: kind, toBalanceId: toBalanceId, amountMinor: amount, currency: cur,
            occurredAt: occurred, ownerDate: ownerDate, method: LedgerText.column(row, 11), description: LedgerText.column(row, 12),
            recurrenceDays: recurrence, createdAt: created))
    }

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

    private func describe(_ row: Row, _ i: Int) -> String {
        let v = row[i] as DatabaseValue
        switch v.storage {
        case .null: return "NULL"
        case .int64(let x): return String(x)
        case .double(let x): return String(x)
        case .string(let s): return "'\(s)'"
        case .blob: return "a blob"
        }
    }
}
