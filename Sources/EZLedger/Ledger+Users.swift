import EZCore

// MARK: - Finding users

/// A user's id and whether they are live: enough to plan a batch without loading anyone.
package struct UserRef: Hashable, Sendable {
    package var id: Int64
    package var username: String
    package var deleted: Bool
    /// The row's `created_at` (nil when it is not a contract timestamp) and `timezone` as the
    /// ledger holds it, neither checked here (the user's own load reports a bad one): enough to
    /// tell whether they had signed up by a period's end.
    package var createdAt: LedgerTime? = nil
    package var timezone: String? = nil

    /// True when the user signed up after local date `day` in their own time zone: a statement
    /// for a period that ended before they had an account has nothing of theirs to say. False
    /// when the row's sign-up time or zone cannot be read: their load reports that instead.
    package func signedUp(after day: CivilDate) -> Bool {
        guard let createdAt, let name = timezone, let zone = (try? ZoneRules.named(name)) ?? nil else { return false }
        return createdAt.localDate(in: zone) > day
    }
}

// MARK: - Loading one user

/// Reads one user's slice of the ledger inside an open read transaction, whichever backend
/// `reader` reads: the contract's per-table rules, written once.
struct UserLoader<Reader: LedgerReading> {
    let reader: Reader
    var validator: RowValidator
    let through: CivilDate
    let path: String
    /// Transactions are read up to this local date (`through` plus a two-day margin that covers
    /// every zone); the exact cut is made on each row's date in UTC below.
    let bound: String
    var quarantined: [QuarantinedRow] = []
    var userCurrency = Currency.eur
    /// The loaded user's `month_start_day` (their budgets' month windows start on it).
    var userMonthStartDay = 1
    /// Reads transaction rows in place and applies the contract's transaction rules.
    var decoder: TransactionDecoder<Reader>
    /// When set (a window's load, see ``LedgerReadTransaction/loadWindow(id:from:through:)``),
    /// rows well before the window are left out (the same two-day margin as `bound`); nil loads
    /// from the ledger's beginning.
    var lowerBound: String? = nil

    init(reader: Reader, rates: RateTable, features: LedgerFeatures, through: CivilDate, path: String) {
        self.reader = reader
        self.validator = RowValidator(rates: rates, features: features)
        self.decoder = TransactionDecoder(reader: reader, rates: rates)
        self.through = through
        self.path = path
        self.bound = through.adding(days: 2).description
    }

    mutating func quarantine(_ table: String, _ id: Int64, _ reason: String) {
        quarantined.append(QuarantinedRow(table: table, id: id, reason: reason))
    }

    /// Runs `query` for one id.
    func rows(_ query: LedgerQuery, _ id: Int64) throws -> Reader.Rows {
        try reader.rows(query, [.integer(id)])
    }

    /// The user's row, validated: a failure when it is missing, deleted, ignored by the contract
    /// (all "unknown user", so no caller can tell them apart) or quarantined.
    mutating func liveUser(_ userId: Int64) throws -> Result<User, LedgerError> {
        let row = try rows(validator.userRow, userId)
        guard try row.next() else { return .failure(.unknownUser(path: path, user: String(userId))) }
        switch try validator.user(row) {
        case .valid(let user) where user.deletedAt == nil: return .success(user)
        case .valid, .ignored: return .failure(.unknownUser(path: path, user: String(userId)))
        case .quarantined(let why): return .failure(.quarantinedUser(path: path, user: userId, reason: why))
        }
    }

    mutating func load(userId: Int64, withChildren: Bool) throws -> Result<UserLedger, LedgerError> {
        let user: User
        switch try liveUser(userId) {
        case .success(let u): user = u
        case .failure(let error): return .failure(error)
        }

        userCurrency = user.currency
        userMonthStartDay = user.monthStartDay
        var ledger = UserLedger(user: user, rates: validator.rates)
        ledger.balances = try balances(userId)
        ledger.categories = try categories(userId)
        ledger.transactions = try transactions(.transactionsOfUser, userId)
        ledger.groups = try groups(userId)
        ledger.transactions = withoutQuarantined(ledger.transactions)
        ledger.budgets = try budgets(userId)
        ledger.budgetTransfers = try budgetTransfers(userId)
        ledger.savingsGoals = try savingsGoals(userId)
        ledger.logins = try logins(userId)
        ledger.family = try family(userId)
        if withChildren, let family = ledger.family, family.role == .parent {
            var childIds: [Int64] = []
            let children = try rows(.familyChildren, family.familyId)
            while try children.next() { childIds.append(children.int64(0)) }
            for childId in childIds where childId != userId {
                var childLoader = UserLoader(reader: reader, rates: validator.rates, features: validator.features,
                                             through: through, path: path)
                switch try childLoader.load(userId: childId, withChildren: false) {
                case .success(let child): ledger.children.append(child)
                // The parent's family view leaves the child out: their list names the child's row,
                // as it names every other row it leaves out (it said nothing, exit 0).
                case .failure(.quarantinedUser(_, _, let why)):
                    quarantined.append(QuarantinedRow(table: "users", id: childId, reason: why))
                    ledger.childrenLeftOut += 1
                case .failure: break
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
        let user: User
        switch try liveUser(userId) {
        case .success(let u): user = u
        case .failure(let error): return .failure(error)
        }
        userCurrency = user.currency
        var ledger = UserLedger(user: user, rates: validator.rates)
        ledger.balances = try balances(userId)
        ledger.categories = try categories(userId)
        ledger.transactions = try transactions(.transactionsOfUser, userId)
        ledger.groups = try groups(userId)
        ledger.transactions = withoutQuarantined(ledger.transactions)
        ledger.quarantined = Array(Set(quarantined)).sorted()
        return .success(ledger)
    }

    /// `transactions` less the rows a later table's rule quarantined: a group expense whose splits
    /// break the contract, or whose group does, is read with the payer's own rows before the group
    /// is checked, and would otherwise still move the payer's balance (its running values, the
    /// balances chart, savings) while every other figure leaves it out.
    func withoutQuarantined(_ transactions: [Transaction]) -> [Transaction] {
        let dropped = Set(quarantined.lazy.filter { $0.table == "transactions" }.map(\.id))
        guard !dropped.isEmpty else { return transactions }
        return transactions.filter { !dropped.contains($0.id) }
    }

    // MARK: Tables

    mutating func balances(_ userId: Int64) throws -> [Balance] {
        var out: [Balance] = []
        let row = try rows(.balancesOfUser, userId)
        while try row.next() {
            let id = row.int64(0)
            if let d = row.string(7) { quarantine("balances", id, LedgerContract.unparsedDeletion(d)); continue }
            guard let kind = Balance.Kind(rawValue: row.string(3) ?? "") else { quarantine("balances", id, "unknown kind '\(row.shown(3))'"); continue }
            guard let cur = validator.currency(row.string(4)) else { quarantine("balances", id, "invalid currency '\(row.shown(4))'"); continue }
            guard row.type(5) == .integer else { quarantine("balances", id, "opening_minor must be an integer"); continue }
            if let beyond = LedgerContract.amountBeyondLimit(row.int64(5), "opening_minor") { quarantine("balances", id, beyond); continue }
            guard let created = row.string(6).flatMap(LedgerTime.init(parsing:)) else {
                quarantine("balances", id, "created_at '\(row.shown(6))' is not an ISO-8601 timestamp"); continue
            }
            out.append(Balance(id: id, userId: userId, name: row.string(2) ?? "", kind: kind, currency: cur,
                               openingMinor: row.int64(5), createdAt: created))
        }
        return out
    }

    mutating func categories(_ userId: Int64) throws -> [Category] {
        var out: [Category] = []
        let row = try rows(.categoriesOfUser, userId)
        while try row.next() {
            // Left out of the list, its rows counting under 'Others' as a deleted category's do.
            if let d = row.string(5) { quarantine("categories", row.int64(0), LedgerContract.unparsedDeletion(d)); continue }
            let color = row.string(2)
            let valid = color.map { Self.isHexColor($0) } ?? false
            out.append(Category(id: row.int64(0), userId: userId, name: row.string(1) ?? "", color: valid ? color : nil,
                                important: row.int64(3) != 0, position: Int(truncatingIfNeeded: row.int64(4))))
        }
        return out
    }

    static func isHexColor(_ s: String) -> Bool {
        let b = Array(s.utf8)
        return b.count == 7 && b[0] == 0x23 && b[1...].allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }
    }

    mutating func transactions(_ query: LedgerQuery, _ argument: Int64) throws -> [Transaction] {
        var out: [Transaction] = []
        let through = self.through
        let keep = { (t: Transaction) in t.occurredAt.localDate(in: ZoneRules.utc).adding(days: -1) <= through }
        // A window's load reads the window's variant of the query, with its lower bound.
        var query = query, arguments: [LedgerArgument] = [.integer(argument), .text(bound)]
        if let lowerBound {
            query = query == .transactionsOfUser ? .transactionsOfUserInWindow : .transactionsOfGroupInWindow
            arguments.append(.text(lowerBound))
        }
        let rows = try reader.rows(query, arguments)
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
        var found: [(id: Int64, name: String, ownerId: Int64, currency: String?, created: String?, deleted: String?)] = []
        let row = try rows(.groupsOfUser, userId)
        while try row.next() {
            found.append((row.int64(0), row.string(1) ?? "", row.int64(2), row.string(3), row.string(4), row.string(5)))
        }
        for g in found {
            let gid = g.id
            if let d = g.deleted { try quarantineGroup(gid, LedgerContract.unparsedDeletion(d)); continue }
            guard let cur = validator.currency(g.currency) else {
                try quarantineGroup(gid, "invalid currency '\(g.currency ?? "NULL")'"); continue
            }
            guard let created = g.created.flatMap(LedgerTime.init(parsing:)) else {
                try quarantineGroup(gid, "created_at '\(g.created ?? "NULL")' is not an ISO-8601 timestamp"); continue
            }
            let group = Group(id: gid, name: g.name, ownerId: g.ownerId, currency: cur, createdAt: created)
            var members: [GroupMember] = []
            var zones: [Int64: ZoneRules] = [:]
            var memberIds: Set<Int64> = []   // every membership row, valid or not
            let m = try rows(.groupMembers, gid)
            while try m.next() {
                let uid = m.int64(0)
                memberIds.insert(uid)
                guard !m.isNull(5) else { quarantine("group_members", gid, "member user_id \(uid) does not exist"); continue }
                let zone = try validator.zone(m.string(4) ?? "") ?? ZoneRules.utc
                guard let joined = m.string(1).flatMap(LedgerTime.init(parsing:)) else {
                    quarantine("group_members", gid, "joined_at '\(m.shown(1))' of user \(uid) is not an ISO-8601 timestamp"); continue
                }
                var left: CivilDate?
                if let l = m.string(2) {
                    guard let t = LedgerTime(parsing: l) else {
                        quarantine("group_members", gid, "left_at '\(l)' of user \(uid) is not an ISO-8601 timestamp"); continue
                    }
                    left = t.localDate(in: zone)
                }
                members.append(GroupMember(groupId: gid, userId: uid, username: m.string(3) ?? "", joinedOn: joined.localDate(in: zone), leftOn: left))
                zones[uid] = zone
            }
            let candidates = try transactions(.transactionsOfGroup, gid)
            // Explicit splits of those expenses, validated per transaction.
            var shares: [Int64: [(userId: Int64, share: Int64?, userExists: Bool)]] = [:]
            let s = try lowerBound.map { try reader.rows(.groupSplitsInWindow, [.integer(gid), .text($0)]) } ?? rows(.groupSplits, gid)
            while try s.next() {
                let isInt = s.type(2) == .integer
                shares[s.int64(0), default: []].append((s.int64(1), isInt ? s.int64(2) : nil, !s.isNull(3)))
            }
            var expenses: [Transaction] = []
            var splits: [Int64: [Split]] = [:]
            for tx in candidates {
                if let explicit = shares[tx.id] {
                    switch validator.splits(explicit, of: tx, memberIds: memberIds) {
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

    /// Quarantines a group row and, with it, the expenses of the group that it leaves out: they
    /// used to vanish from their payer's and members' figures with nothing listed but the group.
    private mutating func quarantineGroup(_ gid: Int64, _ reason: String) throws {
        quarantine("groups", gid, reason)
        for tx in try transactions(.transactionsOfGroup, gid) {
            quarantine("transactions", tx.id, "its group \(gid) breaks the contract: \(reason)")
        }
        // Its settle-up payments are left out with it (they move money between the members'
        // balances), so they are listed with it as its expenses are, not dropped unsaid.
        guard validator.features.groupPayments else { return }
        let payments = try reader.rows(.groupPayments, [.integer(gid), .text(bound)])
        while try payments.next() {
            quarantine("group_payments", payments.int64(0), "its group \(gid) breaks the contract: \(reason)")
        }
    }

    /// The group's live settle-up payments through the loaded window, each checked by
    /// ``RowValidator/groupPayment(_:group:zones:)``; `zones` holds each member's time zone.
    mutating func groupPayments(of group: Group, zones: [Int64: ZoneRules]) throws -> [GroupPayment] {
        var out: [GroupPayment] = []
        let through = self.through
        let row = try reader.rows(.groupPayments, [.integer(group.id), .text(bound)])
        while try row.next() {
            switch validator.groupPayment(row, group: group, zones: zones) {
            case .valid(let p): if p.occurredAt.localDate(in: ZoneRules.utc).adding(days: -1) <= through { out.append(p) }
            case .ignored: break
            case .quarantined(let why): quarantine("group_payments", row.int64(0), why)
            }
        }
        out.sort { ($0.occurredAt.sortKey, $0.id) < ($1.occurredAt.sortKey, $1.id) }
        return out
    }

    mutating func budgets(_ userId: Int64) throws -> [Budget] {
        var out: [Budget] = []
        let row = try rows(.budgetsOfUser, userId)
        while try row.next() {
            let id = row.int64(0)
            let categoryId = row.optionalInt64(1)
            if let cid = categoryId {
                guard !row.isNull(7) else { quarantine("budgets", id, "category_id \(cid) does not exist"); continue }
                guard row.optionalInt64(8) == userId else { quarantine("budgets", id, "category_id \(cid) belongs to another user"); continue }
                if !row.isNull(9) { continue }    // a deleted category's budget is ignored with it
            }
            guard let period = Budget.Period(rawValue: row.string(2) ?? "") else { quarantine("budgets", id, "unknown period '\(row.shown(2))'"); continue }
            guard row.type(3) == .integer, row.int64(3) >= 0 else {
                quarantine("budgets", id, "amount_minor must be a non-negative integer"); continue
            }
            let amount = row.int64(3)
            if let beyond = LedgerContract.amountBeyondLimit(amount, "amount_minor") { quarantine("budgets", id, beyond); continue }
            guard let cur = validator.currency(row.string(4)) else { quarantine("budgets", id, "invalid currency '\(row.shown(4))'"); continue }
            guard let starts = row.string(5).flatMap({ CivilDate(iso: $0) }) else {
                quarantine("budgets", id, "starts_on '\(row.shown(5))' is not a date"); continue
            }
            var ends: CivilDate?
            if let e = row.string(6) {
                guard let d = CivilDate(iso: e), d >= starts else { quarantine("budgets", id, "ends_on '\(e)' is not a date on or after starts_on"); continue }
                ends = d
            }
            let budget = Budget(id: id, userId: userId, categoryId: categoryId, period: period, amountMinor: amount,
                                currency: cur, startsOn: starts, endsOn: ends)
            // Each window is converted at its first day's rate: without one for the first window, the
            // user's whole statement failed while `check` called the ledger clean (outside audit).
            let first = budget.firstWindowStart(monthStartDay: userMonthStartDay)
            if cur != userCurrency, validator.rates.rate(from: cur, to: userCurrency, on: first) == nil {
                quarantine("budgets", id, "no exchange rate \(cur.code)→\(userCurrency.code) on or before \(first), its first window's first day")
                continue
            }
            out.append(budget)
        }
        return out
    }

    mutating func budgetTransfers(_ userId: Int64) throws -> [BudgetTransfer] {
        var out: [BudgetTransfer] = []
        let row = try rows(.budgetTransfersOfUser, userId)
        while try row.next() {
            let id = row.int64(0)
            guard row.optionalInt64(5) == userId else { quarantine("budget_transfers", id, "from_category_id \(row.int64(1)) is not one of the user's categories"); continue }
            guard row.optionalInt64(6) == userId else { quarantine("budget_transfers", id, "to_category_id \(row.int64(2)) is not one of the user's categories"); continue }
            guard row.type(3) == .integer, row.int64(3) > 0 else {
                quarantine("budget_transfers", id, "amount_minor must be a positive integer"); continue
            }
            if let beyond = LedgerContract.amountBeyondLimit(row.int64(3), "amount_minor") { quarantine("budget_transfers", id, beyond); continue }
            guard let start = row.string(4).flatMap({ CivilDate(iso: $0) }) else {
                quarantine("budget_transfers", id, "period_start '\(row.shown(4))' is not a date"); continue
            }
            out.append(BudgetTransfer(id: id, userId: userId, fromCategoryId: row.int64(1), toCategoryId: row.int64(2),
                                      amountMinor: row.int64(3), periodStart: start))
        }
        return out
    }

    mutating func savingsGoals(_ userId: Int64) throws -> [SavingsGoal] {
        var out: [SavingsGoal] = []
        let row = try rows(.savingsGoalsOfUser, userId)
        while try row.next() {
            let id = row.int64(0)
            guard row.type(2) == .integer, row.int64(2) > 0 else {
                quarantine("savings_goals", id, "target_minor must be a positive integer"); continue
            }
            let target = row.int64(2)
            if let beyond = LedgerContract.amountBeyondLimit(target, "target_minor") { quarantine("savings_goals", id, beyond); continue }
            guard let cur = validator.currency(row.string(3)) else { quarantine("savings_goals", id, "invalid currency '\(row.shown(3))'"); continue }
            guard row.optionalInt64(6) == userId else { quarantine("savings_goals", id, "balance_id \(row.int64(4)) is not one of the user's balances"); continue }
            // A goal in another currency than its balance is converted at the period's end: the pair must have rates.
            if let balanceCurrency = validator.currency(row.string(7)), balanceCurrency != cur, !validator.rates.hasPair(cur, balanceCurrency) {
                quarantine("savings_goals", id, "no exchange rate \(cur.code)→\(balanceCurrency.code) (the currency of balance #\(row.int64(4)))"); continue
            }
            var due: CivilDate?
            if let d = row.string(5) {
                guard let date = CivilDate(iso: d) else { quarantine("savings_goals", id, "due_on '\(d)' is not a date"); continue }
                due = date
            }
            out.append(SavingsGoal(id: id, userId: userId, name: row.string(1) ?? "", targetMinor: target, currency: cur,
                                   balanceId: row.int64(4), dueOn: due))
        }
        return out
    }

    mutating func logins(_ userId: Int64) throws -> [LedgerTime] {
        var out: [LedgerTime] = []
        let rows = try rows(.loginsOfUser, userId)
        while try rows.next() {
            guard rows.type(1) != .null, let t = rows.withText(1, LedgerTime.parse) else {
                let text = rows.type(1) == .null ? "NULL" : rows.withText(1) { TransactionRules.showingNul($0) }
                quarantine("logins", rows.int64(0), "at '\(text)' is not an ISO-8601 timestamp"); continue
            }
            out.append(t)
        }
        return out.sorted()
    }

    mutating func family(_ userId: Int64) throws -> FamilyMember? {
        let row = try rows(.familyOfUser, userId)
        guard try row.next() else { return nil }
        // A membership of a family that no longer exists (its `families` row deleted, its members'
        // rows left behind) is no family: a parent must not go on seeing a child through it.
        guard row.int64(3) != 0 else {
            quarantine("family_members", row.int64(0), "family \(row.int64(0)) does not exist (user \(userId))"); return nil
        }
        guard let role = FamilyMember.Role(rawValue: row.string(2) ?? "") else {
            quarantine("family_members", row.int64(0), "unknown role '\(row.shown(2))' for user \(userId)"); return nil
        }
        return FamilyMember(familyId: row.int64(0), familyName: row.string(1) ?? "", userId: userId, role: role)
    }
}
