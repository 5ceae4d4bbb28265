import EZCore

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

    /// The zone `name`, or nil when there is no such zone (the row is then quarantined).
    /// - Throws: ``ZoneDatabaseError`` when the tz database could not be read: no verdict on the row.
    mutating func zone(_ name: String) throws(ZoneDatabaseError) -> ZoneRules? {
        if let z = zones[name] { return z }
        let z = try ZoneRules.named(name)
        zones[name] = .some(z)
        return z
    }

    mutating func currency(_ code: String?) -> Currency? {
        guard let code else { return nil }
        if let c = currencies[code] { return c }
        guard ISO4217.isMoney(code), let c = try? Currency(code) else { return nil }
        currencies[code] = c
        return c
    }

    // MARK: - Users

    /// The columns ``user(_:)`` reads, in order (the optional `month_start_day` last, as NULL in the
    /// query for a ledger that lacks it, ``userRow`` / ``allUserRows``).
    static let userColumns = "u.id, u.username, u.email, u.role, u.currency, u.timezone, u.locale, u.book_name, "
        + "u.monthly_limit_minor, u.chart_style, u.created_at, u.deleted_at"

    /// The query of one user's row, with `month_start_day` when the ledger has it.
    var userRow: LedgerQuery { features.monthStartDay ? .userRowWithStartDay : .userRow }
    /// The query of every user's row, by id, with `month_start_day` when the ledger has it.
    var allUserRows: LedgerQuery { features.monthStartDay ? .allUserRowsWithStartDay : .allUserRows }

    /// The user in the current row of `row` (columns as in ``userColumns``).
    /// - Throws: ``ZoneDatabaseError`` when the tz database could not be read for the user's zone.
    mutating func user<Rows: LedgerRows>(_ row: Rows) throws(ZoneDatabaseError) -> Verdict<User> {
        let id = row.int64(0)
        guard let username = row.string(1), !username.isEmpty else { return .quarantined("username is empty") }
        guard let roleText = row.string(3), let role = User.Role(rawValue: roleText) else {
            return .quarantined("unknown role '\(row.shown(3))'")
        }
        guard let currency = currency(row.string(4)) else { return .quarantined("invalid currency '\(row.shown(4))'") }
        guard let tzName = row.string(5), let zone = try zone(tzName) else {
            return .quarantined("unknown time zone '\(row.shown(5))'")
        }
        var limit: Int64?
        if !row.isNull(8) {
            guard row.type(8) == .integer, row.int64(8) >= 0 else {
                return .quarantined("monthly_limit_minor must be a non-negative integer")
            }
            limit = row.int64(8)
        }
        let styleText = row.string(9) ?? "pie"
        guard let style = User.ChartStyle(rawValue: styleText) else { return .quarantined("unknown chart_style '\(styleText)'") }
        guard let created = row.string(10).flatMap(LedgerTime.init(parsing:)) else {
            return .quarantined("created_at '\(row.shown(10))' is not an ISO-8601 timestamp")
        }
        var deleted: LedgerTime?
        if let d = row.string(11) {
            guard let t = LedgerTime(parsing: d) else { return .quarantined(LedgerContract.unparsedDeletion(d)) }
            deleted = t
        }
        let startDay: Int
        switch Self.monthStartDay(row, 12) {
        case .valid(let d): startDay = d
        case .ignored: startDay = 1
        case .quarantined(let why): return .quarantined(why)
        }
        let book = row.string(7)
        return .valid(User(id: id, username: username, email: row.string(2) ?? "", role: role, currency: currency, zone: zone,
                           locale: row.string(6) ?? "en_US", bookName: (book?.isEmpty == false ? book! : "EZWallet"),
                           monthlyLimitMinor: limit, chartStyle: style, createdAt: created, deletedAt: deleted,
                           monthStartDay: startDay))
    }

    /// `users.month_start_day` in column `i`: an INTEGER from 1 to 28, NULL (or no such column) meaning 1.
    static func monthStartDay<Rows: LedgerRows>(_ row: Rows, _ i: Int32) -> Verdict<Int> {
        let rule = "month_start_day must be an integer from 1 to 28"
        switch row.type(i) {
        case .null: return .valid(1)
        case .integer:
            let v = row.int64(i)
            return Period.monthStartDays.contains(Int(truncatingIfNeeded: v)) ? .valid(Int(v)) : .quarantined("\(rule) (got \(v))")
        case .real: return .quarantined("\(rule) (got \(row.double(i)))")
        case .text: return .quarantined("\(rule) (got '\(row.string(i) ?? "")')")
        case .blob: return .quarantined("\(rule) (got a blob)")
        }
    }

    // MARK: - Splits

    /// Checks a group expense's explicit split rows: shares are non-negative integers of existing
    /// users who have a row in the group's `group_members` (`memberIds`), and add up to the amount.
    /// A share for someone never in the group showed as their debt in the group's figures while
    /// their own statement, which reads the groups they belong to, never saw it.
    func splits(_ shares: [(userId: Int64, share: Int64?, userExists: Bool)], of tx: Transaction,
                memberIds: Set<Int64>) -> Verdict<[Split]> {
        var total: Int64 = 0
        var out: [Split] = []
        for s in shares {
            guard s.userExists else { return .quarantined("a split names user \(s.userId), who does not exist") }
            guard let share = s.share, share >= 0 else { return .quarantined("a split share for user \(s.userId) is not a non-negative integer") }
            guard share == 0 || memberIds.contains(s.userId) else {
                return .quarantined("a split gives user \(s.userId) a share of group \(tx.groupId ?? 0), which they are not a member of")
            }
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
