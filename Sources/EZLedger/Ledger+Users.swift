import EZCore
import GRDB

// MARK: - Finding users

/// A user's id and whether they are live: enough to plan a batch without loading anyone.
package struct UserRef: Hashable, Sendable {
    package var id: Int64
    package var username: String
    package var deleted: Bool
}

extension Ledger {
    /// Every user, by id (deleted ones flagged), for planning a batch run.
    package func userRefs() throws(LedgerError) -> [UserRef] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, username, deleted_at IS NOT NULL FROM users ORDER BY id").map {
                UserRef(id: $0[0], username: $0[1] ?? "", deleted: $0[2])
            }
        }
    }

    /// Finds a live user by numeric id or by username.
    package func findUser(_ idOrName: String) throws(LedgerError) -> Int64 {
        let found: Int64? = try read { db in
            if let id = Int64(idOrName),
               let hit = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE id = ? AND deleted_at IS NULL", arguments: [id]) {
                return hit
            }
            return try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE username = ? AND deleted_at IS NULL", arguments: [idOrName])
        }
        guard let found else { throw .unknownUser(path: path, user: idOrName) }
        return found
    }

    /// Loads everything one user's report may draw on, through local date `through`, in one snapshot.
    ///
    /// Transactions are loaded from the beginning of the ledger (running balances need them);
    /// rows after `through` are left out. For a parent, each child's ledger is loaded too.
    ///
    /// - Throws: ``LedgerError/unknownUser(path:user:)`` when the user does not exist or was
    ///   deleted; ``UserQuarantined`` (wrapped as `.readFailed`) when the user's own row breaks the contract.
    package func loadUser(id: Int64, through: CivilDate) throws(LedgerError) -> UserLedger {
        let result: Result<UserLedger, LedgerError> = try read { db in
            var loader = UserLoader(db: db, rates: rates, features: features, through: through, path: path)
            return try loader.load(userId: id, withChildren: true)
        }
        return try result.get()
    }

    /// The bare user rows of every user, including deleted ones (for the admin report's counts).
    /// Users whose row breaks the contract are returned as quarantined rows instead.
    package func allUsers() throws(LedgerError) -> (users: [User], quarantined: [QuarantinedRow]) {
        let rates = self.rates, features = self.features
        return try read { db in try Ledger.allUsers(db, rates: rates, features: features) }
    }

    /// ``allUsers()`` inside an open read transaction.
    static func allUsers(_ db: Database, rates: RateTable, features: LedgerFeatures) throws -> (users: [User], quarantined: [QuarantinedRow]) {
        var validator = RowValidator(rates: rates, features: features)
        var users: [User] = []
        var bad: [QuarantinedRow] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT \(validator.userColumns) FROM users u ORDER BY u.id")
        while let row = try rows.next() {
            switch validator.user(row) {
            case .valid(let u): users.append(u)
            case .ignored: break
            case .quarantined(let why): bad.append(QuarantinedRow(table: "users", id: row[0], reason: why))
            }
        }
        return (users, bad)
    }
}

// MARK: - Loading one user

/// Reads one user's slice of the ledger inside an open read transaction.
struct UserLoader {
    let db: Database
    var validator: RowValidator
    let through: CivilDate
    let path: String
    /// `occurred_at < bound` keeps rows up to `through` in any zone (bare dates and timestamps
    /// both start with the date, so text order works with a two-day margin); rows whose text is
    /// not a date at all are kept so that they are quarantined, not silently dropped.
    let bound: String
    var quarantined: [QuarantinedRow] = []
    var userCurrency = Currency.eur
    /// Reads transaction rows in place and applies the contract's transaction rules.
    var decoder: TransactionDecoder
    /// When set (a window's load, see ``LedgerReadTransaction/loadWindow(id:from:through:)``),
    /// `occurred_at >= lowerBound` leaves out rows well before the window (the same two-day
    /// text margin as `bound`); nil loads from the ledger's beginning.
    var lowerBound: String? = nil

    init(db: Database, rates: RateTable, features: LedgerFeatures, through: CivilDate, path: String) {
        self.db = db
        self.validator = RowValidator(rates: rates, features: features)
        self.decoder = TransactionDecoder(db: db, rates: rates)
        self.through = through
        self.path = path
        self.bound = through.adding(days: 2).description
    }

    // MARK: Statements

    // Every query goes through the connection's statement cache: a user's load runs about a dozen
    // queries, and preparing them anew each time (SQLite's parser plus GRDB's authorizer, which
    // records the tables each statement reads) cost more than running them.

    func rows(sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func cursor(sql: String, arguments: StatementArguments = StatementArguments()) throws -> RowCursor {
        try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func row(sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func ids(sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    mutating func quarantine(_ table: String, _ id: Int64, _ reason: String) {
        quarantined.append(QuarantinedRow(table: table, id: id, reason: reason))
    }

    mutating func load(userId: Int64, withChildren: Bool) throws -> Result<UserLedger, LedgerError> {
        guard let row = try self.row(sql: "SELECT \(validator.userColumns) FROM users u WHERE u.id = ?", arguments: [userId]) else {
            return .failure(.unknownUser(path: path, user: String(userId)))
        }
        let user: User
        switch validator.user(row) {
        case .valid(let u): user = u
        case .ignored: return .failure(.unknownUser(path: path, user: String(userId)))
        case .quarantined(let why): return .failure(.readFailed(path: path, reason: "user \(userId) is quarantined: \(why)"))
        }
        if user.deletedAt != nil { return .failure(.unknownUser(path: path, user: String(userId))) }

        userCurrency = user.currency
        var ledger = UserLedger(user: user, rates: validator.rates)
        ledger.balances = try balances(userId)
        ledger.categories = try categories(userId)
        ledger.transactions = try transactions(where: "t.user_id = ?", userId)
        ledger.groups = try groups(userId)
        ledger.budgets = try budgets(userId)
        ledger.budgetTransfers = try budgetTransfers(userId)
        ledger.savingsGoals = try savingsGoals(userId)
        ledger.logins = try logins(userId)
        ledger.family = try family(userId)
        if withChildren, let family = ledger.family, family.role == .parent {
            let childIds = try self.ids(sql: """
                SELECT fm.user_id FROM family_members fm JOIN users u ON u.id = fm.user_id
                WHERE fm.family_id = ? AND fm.role = 'child' AND u.deleted_at IS NULL ORDER BY fm.user_id
                """, arguments: [family.familyId])
            for childId in childIds where childId != userId {
                var childLoader = UserLoader(db: db, rates: validator.rates, features: validator.features, through: through, path: path)
                if case .success(let child) = try childLoader.load(userId: childId, withChildren: false) {
                    ledger.children.append(child)
                }
                quarantined.append(contentsOf: childLoader.quarantined)
            }
        }
        ledger.quarantined = Array(Set(quarantined)).sorted()
        return .success(ledger)
    }

    /// The user's own rows for a window only: the user, their balances (for names), categories,
    /// transactions and group expenses between ``lowerBound`` and `through`; no budgets, savings,
    /// logins, family or children. Enough for a transaction list or statistics over the window,
    /// not for a statement (whose running balances need every row from the beginning).
    mutating func loadWindow(userId: Int64) throws -> Result<UserLedger, LedgerError> {
        guard let row = try self.row(sql: "SELECT \(validator.userColumns) FROM users u WHERE u.id = ?", arguments: [userId]) else {
            return .failure(.unknownUser(path: path, user: String(userId)))
        }
        let user: User
        switch validator.user(row) {
        case .valid(let u): user = u
        case .ignored: return .failure(.unknownUser(path: path, user: String(userId)))
        case .quarantined(let why): return .failure(.readFailed(path: path, reason: "user \(userId) is quarantined: \(why)"))
        }
        if user.deletedAt != nil { return .failure(.unknownUser(path: path, user: String(userId))) }
        userCurrency = user.currency
        var ledger = UserLedger(user: user, rates: validator.rates)
        ledger.balances = try balances(userId)
        ledger.categories = try categories(userId)
        ledger.transactions = try transactions(where: "t.user_id = ?", userId)
        ledger.groups = try groups(userId)
        ledger.quarantined = Array(Set(quarantined)).sorted()
        return .success(ledger)
    }

    // MARK: Tables

    mutating func balances(_ userId: Int64) throws -> [Balance] {
        var out: [Balance] = []
        for row in try self.rows(sql: """
            SELECT id, user_id, name, kind, currency, opening_minor, typeof(opening_minor), created_at
            FROM balances WHERE user_id = ? AND deleted_at IS NULL ORDER BY id
            """, arguments: [userId]) {
            let id: Int64 = row[0]
            guard let kind = Balance.Kind(rawValue: row[3] ?? "") else { quarantine("balances", id, "unknown kind '\(row[3] as String? ?? "NULL")'"); continue }
            guard let cur = validator.currency(row[4]) else { quarantine("balances", id, "invalid currency '\(row[4] as String? ?? "NULL")'"); continue }
            guard (row[6] as String) == "integer", let opening: Int64 = row[5] else { quarantine("balances", id, "opening_minor must be an integer"); continue }
            guard let created = (row[7] as String?).flatMap(LedgerTime.init(parsing:)) else {
                quarantine("balances", id, "created_at '\(row[7] as String? ?? "NULL")' is not an ISO-8601 timestamp"); continue
            }
            out.append(Balance(id: id, userId: userId, name: row[2] ?? "", kind: kind, currency: cur, openingMinor: opening, createdAt: created))
        }
        return out
    }

    mutating func categories(_ userId: Int64) throws -> [Category] {
        try self.rows(sql: """
            SELECT id, name, color, important, position FROM categories
            WHERE user_id = ? AND deleted_at IS NULL ORDER BY position, id
            """, arguments: [userId]).map { row in
            let color: String? = row[2]
            let valid = color.map { Self.isHexColor($0) } ?? false
            return Category(id: row[0], userId: userId, name: row[1] ?? "", color: valid ? color : nil,
                            important: (row[3] as Int64? ?? 0) != 0, position: row[4] ?? 0)
        }
    }

    static func isHexColor(_ s: String) -> Bool {
        let b = Array(s.utf8)
        return b.count == 7 && b[0] == 0x23 && b[1...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }

    mutating func transactions(where condition: String, _ argument: Int64) throws -> [Transaction] {
        var out: [Transaction] = []
        let window = lowerBound == nil ? "t.occurred_at < ?" : "t.occurred_at < ? AND t.occurred_at >= ?"
        let filter = """

            WHERE \(condition) AND t.deleted_at IS NULL
              AND ((\(window)) OR t.occurred_at NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')
            """
        let through = self.through
        let keep = { (t: Transaction) in t.occurredAt.localDate(in: ZoneRules.utc).adding(days: -1) <= through }
        var arguments: StatementArguments = [argument, bound]
        if let lowerBound { arguments += [lowerBound] }
        let rows = try RawRowCursor(db.cachedStatement(sql: TransactionDecoder.select + filter),
                                    arguments: arguments, in: db)
        while try rows.next() {
            switch try decoder.decode(rows) {
            case .valid(let t): if keep(t) { out.append(t) }
            case .ignored: break
            case .quarantined(let why): quarantine("transactions", rows.int64(0), why)
            }
        }
        out.sort { ($0.occurredAt.sortKey, $0.id) < ($1.occurredAt.sortKey, $1.id) }
        return out
    }

    mutating func groups(_ userId: Int64) throws -> [GroupLedger] {
        var out: [GroupLedger] = []
        let rows = try self.rows(sql: """
            SELECT g.id, g.name, g.owner_id, g.currency, g.created_at FROM groups g
            JOIN group_members gm ON gm.group_id = g.id
            WHERE gm.user_id = ? AND g.deleted_at IS NULL ORDER BY g.id
            """, arguments: [userId])
        for row in rows {
            let gid: Int64 = row[0]
            guard let cur = validator.currency(row[3]) else { quarantine("groups", gid, "invalid currency '\(row[3] as String? ?? "NULL")'"); continue }
            guard let created = (row[4] as String?).flatMap(LedgerTime.init(parsing:)) else {
                quarantine("groups", gid, "created_at '\(row[4] as String? ?? "NULL")' is not an ISO-8601 timestamp"); continue
            }
            let group = Group(id: gid, name: row[1] ?? "", ownerId: row[2] ?? 0, currency: cur, createdAt: created)
            var members: [GroupMember] = []
            var zones: [Int64: ZoneRules] = [:]
            for m in try self.rows(sql: """
                SELECT gm.user_id, gm.joined_at, gm.left_at, u.username, u.timezone, u.id
                FROM group_members gm LEFT JOIN users u ON u.id = gm.user_id
                WHERE gm.group_id = ? ORDER BY gm.user_id
                """, arguments: [gid]) {
                let uid: Int64 = m[0]
                guard !m.hasNull(atIndex: 5) else { quarantine("group_members", gid, "member user_id \(uid) does not exist"); continue }
                let zone = validator.zone(m[4] ?? "") ?? ZoneRules.utc
                guard let joined = (m[1] as String?).flatMap(LedgerTime.init(parsing:)) else {
                    quarantine("group_members", gid, "joined_at '\(m[1] as String? ?? "NULL")' of user \(uid) is not an ISO-8601 timestamp"); continue
                }
                var left: CivilDate?
                if let l: String = m[2] {
                    guard let t = LedgerTime(parsing: l) else {
                        quarantine("group_members", gid, "left_at '\(l)' of user \(uid) is not an ISO-8601 timestamp"); continue
                    }
                    left = t.localDate(in: zone)
                }
                members.append(GroupMember(groupId: gid, userId: uid, username: m[3] ?? "", joinedOn: joined.localDate(in: zone), leftOn: left))
                zones[uid] = zone
            }
            let candidates = try transactions(where: "t.group_id = ?", gid)
            // Explicit splits of those expenses, validated per transaction.
            var shares: [Int64: [(userId: Int64, share: Int64?, userExists: Bool)]] = [:]
            var splitArguments: StatementArguments = [gid]
            if let lowerBound { splitArguments += [lowerBound] }
            let splitRows = try self.cursor(sql: """
                SELECT s.transaction_id, s.user_id, s.share_minor, typeof(s.share_minor), u.id
                FROM splits s JOIN transactions t ON t.id = s.transaction_id LEFT JOIN users u ON u.id = s.user_id
                WHERE t.group_id = ? AND t.deleted_at IS NULL\(lowerBound == nil ? "" : " AND t.occurred_at >= ?")
                ORDER BY s.transaction_id, s.user_id
                """, arguments: splitArguments)
            while let s = try splitRows.next() {
                let isInt = (s[3] as String) == "integer"
                shares[s[0], default: []].append((s[1], isInt ? s[2] : nil, !s.hasNull(atIndex: 4)))
            }
            var expenses: [Transaction] = []
            var splits: [Int64: [Split]] = [:]
            for tx in candidates {
                if let explicit = shares[tx.id] {
                    switch validator.splits(explicit, of: tx) {
                    case .valid(let s): splits[tx.id] = s
                    case .ignored: continue
                    case .quarantined(let why): quarantine("transactions", tx.id, why); continue
                    }
                } else if !members.contains(where: { $0.isMember(on: tx.ownerDate) }) {
                    quarantine("transactions", tx.id, "no member of group \(gid) on \(tx.ownerDate) to share it"); continue
                }
                expenses.append(tx)
            }
            let payments = validator.features.groupPayments ? try groupPayments(of: group, zones: zones) : []
            out.append(GroupLedger(group: group, members: members, expenses: expenses, splits: splits, payments: payments))
        }
        return out
    }

    /// The group's live settle-up payments through the loaded window, each checked by
    /// ``RowValidator/groupPayment(_:group:zones:)``; `zones` holds each member's time zone.
    mutating func groupPayments(of group: Group, zones: [Int64: ZoneRules]) throws -> [GroupPayment] {
        var out: [GroupPayment] = []
        let through = self.through
        for row in try self.rows(sql: RowValidator.groupPaymentSelect + """

            WHERE p.group_id = ? AND p.deleted_at IS NULL
              AND (p.occurred_at < ? OR p.occurred_at NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')
            ORDER BY p.id
            """, arguments: [group.id, bound]) {
            switch validator.groupPayment(row, group: group, zones: zones) {
            case .valid(let p): if p.occurredAt.localDate(in: ZoneRules.utc).adding(days: -1) <= through { out.append(p) }
            case .ignored: break
            case .quarantined(let why): quarantine("group_payments", row[0], why)
            }
        }
        out.sort { ($0.occurredAt.sortKey, $0.id) < ($1.occurredAt.sortKey, $1.id) }
        return out
    }

    mutating func budgets(_ userId: Int64) throws -> [Budget] {
        var out: [Budget] = []
        for row in try self.rows(sql: """
            SELECT b.id, b.category_id, b.period, b.amount_minor, typeof(b.amount_minor), b.currency, b.starts_on, b.ends_on,
                   c.id, c.user_id, c.deleted_at
            FROM budgets b LEFT JOIN categories c ON c.id = b.category_id WHERE b.user_id = ? ORDER BY b.id
            """, arguments: [userId]) {
            let id: Int64 = row[0]
            let categoryId: Int64? = row[1]
            if let cid = categoryId {
                guard !row.hasNull(atIndex: 8) else { quarantine("budgets", id, "category_id \(cid) does not exist"); continue }
                guard (row[9] as Int64?) == userId else { quarantine("budgets", id, "category_id \(cid) belongs to another user"); continue }
                if !row.hasNull(atIndex: 10) { continue }    // a deleted category's budget is ignored with it
            }
            guard let period = Budget.Period(rawValue: row[2] ?? "") else { quarantine("budgets", id, "unknown period '\(row[2] as String? ?? "NULL")'"); continue }
            guard (row[4] as String) == "integer", let amount: Int64 = row[3], amount >= 0 else {
                quarantine("budgets", id, "amount_minor must be a non-negative integer"); continue
            }
            guard let cur = validator.currency(row[5]) else { quarantine("budgets", id, "invalid currency '\(row[5] as String? ?? "NULL")'"); continue }
            guard let starts = (row[6] as String?).flatMap({ CivilDate(iso: $0) }) else {
                quarantine("budgets", id, "starts_on '\(row[6] as String? ?? "NULL")' is not a date"); continue
            }
            var ends: CivilDate?
            if let e: String = row[7] {
                guard let d = CivilDate(iso: e), d >= starts else { quarantine("budgets", id, "ends_on '\(e)' is not a date on or after starts_on"); continue }
                ends = d
            }
            if cur != userCurrency, !validator.rates.hasPair(cur, userCurrency) {
                quarantine("budgets", id, "no exchange rate \(cur.code)→\(userCurrency.code)"); continue
            }
            out.append(Budget(id: id, userId: userId, categoryId: categoryId, period: period, amountMinor: amount,
                              currency: cur, startsOn: starts, endsOn: ends))
        }
        return out
    }

    mutating func budgetTransfers(_ userId: Int64) throws -> [BudgetTransfer] {
        var out: [BudgetTransfer] = []
        for row in try self.rows(sql: """
            SELECT bt.id, bt.from_category_id, bt.to_category_id, bt.amount_minor, typeof(bt.amount_minor), bt.period_start,
                   f.user_id, t.user_id
            FROM budget_transfers bt
            LEFT JOIN categories f ON f.id = bt.from_category_id LEFT JOIN categories t ON t.id = bt.to_category_id
            WHERE bt.user_id = ? ORDER BY bt.id
            """, arguments: [userId]) {
            let id: Int64 = row[0]
            guard (row[6] as Int64?) == userId else { quarantine("budget_transfers", id, "from_category_id \(row[1] as Int64? ?? 0) is not one of the user's categories"); continue }
            guard (row[7] as Int64?) == userId else { quarantine("budget_transfers", id, "to_category_id \(row[2] as Int64? ?? 0) is not one of the user's categories"); continue }
            guard (row[4] as String) == "integer", let amount: Int64 = row[3], amount > 0 else {
                quarantine("budget_transfers", id, "amount_minor must be a positive integer"); continue
            }
            guard let start = (row[5] as String?).flatMap({ CivilDate(iso: $0) }) else {
                quarantine("budget_transfers", id, "period_start '\(row[5] as String? ?? "NULL")' is not a date"); continue
            }
            out.append(BudgetTransfer(id: id, userId: userId, fromCategoryId: row[1], toCategoryId: row[2], amountMinor: amount, periodStart: start))
        }
        return out
    }

    mutating func savingsGoals(_ userId: Int64) throws -> [SavingsGoal] {
        var out: [SavingsGoal] = []
        for row in try self.rows(sql: """
            SELECT s.id, s.name, s.target_minor, typeof(s.target_minor), s.currency, s.balance_id, s.due_on, b.user_id
            FROM savings_goals s LEFT JOIN balances b ON b.id = s.balance_id WHERE s.user_id = ? ORDER BY s.id
            """, arguments: [userId]) {
            let id: Int64 = row[0]
            guard (row[3] as String) == "integer", let target: Int64 = row[2], target > 0 else {
                quarantine("savings_goals", id, "target_minor must be a positive integer"); continue
            }
            guard let cur = validator.currency(row[4]) else { quarantine("savings_goals", id, "invalid currency '\(row[4] as String? ?? "NULL")'"); continue }
            guard (row[7] as Int64?) == userId else { quarantine("savings_goals", id, "balance_id \(row[5] as Int64? ?? 0) is not one of the user's balances"); continue }
            var due: CivilDate?
            if let d: String = row[6] {
                guard let date = CivilDate(iso: d) else { quarantine("savings_goals", id, "due_on '\(d)' is not a date"); continue }
                due = date
            }
            out.append(SavingsGoal(id: id, userId: userId, name: row[1] ?? "", targetMinor: target, currency: cur, balanceId: row[5], dueOn: due))
        }
        return out
    }

    mutating func logins(_ userId: Int64) throws -> [LedgerTime] {
        var out: [LedgerTime] = []
        let sql = "SELECT rowid, at FROM logins WHERE user_id = ? ORDER BY rowid"
        let rows = try RawRowCursor(db.cachedStatement(sql: sql), arguments: [userId], in: db)
        while try rows.next() {
            guard rows.type(1) != .null, let t = rows.withText(1, LedgerTime.parse) else {
                let text = rows.type(1) == .null ? "NULL" : rows.withText(1) { TransactionDecoder.showingNul($0) }
                quarantine("logins", rows.int64(0), "at '\(text)' is not an ISO-8601 timestamp"); continue
            }
            out.append(t)
        }
        return out.sorted()
    }

    mutating func family(_ userId: Int64) throws -> FamilyMember? {
        guard let row = try self.row(sql: """
            SELECT fm.family_id, f.name, fm.role FROM family_members fm LEFT JOIN families f ON f.id = fm.family_id WHERE fm.user_id = ?
            """, arguments: [userId]) else { return nil }
        guard let role = FamilyMember.Role(rawValue: row[2] ?? "") else {
            quarantine("family_members", row[0], "unknown role '\(row[2] as String? ?? "NULL")' for user \(userId)"); return nil
        }
        return FamilyMember(familyId: row[0], familyName: row[1] ?? "", userId: userId, role: role)
    }
}
