import EZCore

// MARK: - Entries

/// What one entry adds to a viewer's figures.
enum EntryKind: UInt8 {
    case income
    case expense
    case transfer
    /// A group expense the viewer paid but has no share of: listed, adds nothing.
    case zeroShare
}

/// One row (or one share of a group expense) as a viewer counts it: 24 bytes, no references.
struct Entry {
    /// The local date in the viewer's zone.
    var day: Int32
    var kind: EntryKind
    /// Made by a recurring rule (recurrence_days set).
    var recurring: Bool
    /// Index into the viewer's ``CategoryIndex``.
    var category: Int32
    /// What it adds to income or expenses, in the view's currency (0 for transfers).
    var counted: Int64
}

// MARK: - Categories

/// A viewer's category names mapped once to small integers, so the hot loops index arrays
/// instead of hashing strings.
struct CategoryIndex {
    /// Unique names in the viewer's order (position, then id); 'Others' is always present.
    private(set) var names: [String] = []
    private(set) var ledgerColors: [String?] = []
    private var byName: [String: Int32] = [:]
    private var byId: [Int64: Int32] = [:]
    /// The index of 'Others'.
    private(set) var others: Int32 = 0

    init(_ categories: [Category]) {
        for c in categories {
            if let i = byName[c.name] {
                byId[c.id] = i
                if ledgerColors[Int(i)] == nil { ledgerColors[Int(i)] = c.color }
            } else {
                let i = Int32(names.count)
                names.append(c.name); ledgerColors.append(c.color)
                byName[c.name] = i; byId[c.id] = i
            }
        }
        if let o = byName[Category.othersName] {
            others = o
        } else {
            others = Int32(names.count)
            names.append(Category.othersName); ledgerColors.append(nil)
            byName[Category.othersName] = others
        }
    }

    var count: Int { names.count }

    /// The index for one of the viewer's own rows.
    @inline(__always)
    func index(ownCategoryId id: Int64?) -> Int32 {
        guard let id else { return others }
        return byId[id] ?? others
    }

    /// The index for a category name matched exactly to a live category, else 'Others'.
    @inline(__always)
    func index(name: String) -> Int32 { byName[name] ?? others }

    /// The index of a live category id, nil when the category is not live.
    func liveIndex(categoryId id: Int64) -> Int32? { byId[id] }

    /// The colour: the ledger's, else the palette's.
    func color(_ i: Int32) -> String { ledgerColors[Int(i)] ?? CategoryPalette.color(for: names[Int(i)]) }
}

// MARK: - Group shares

enum GroupShares {
    /// `user`'s share of a group expense in the expense's currency: the split row when the
    /// expense has splits, else the equal split among the members on its date (remainder units to
    /// the lowest user ids). `members` must be sorted by user id. An expense with no members on
    /// its date stays with whoever paid it.
    @inline(__always)
    static func share(of user: Int64, in tx: Transaction, members: [GroupMember], splits: [Int64: [Split]]) -> Int64 {
        if let rows = splits[tx.id], !rows.isEmpty {
            for r in rows where r.userId == user { return r.shareMinor }
            return 0
        }
        var n: Int64 = 0
        var rank: Int64 = -1
        for m in members where m.isMember(on: tx.ownerDate) {
            if m.userId == user { rank = n }
            n += 1
        }
        if n == 0 { return tx.userId == user ? tx.amountMinor : 0 }
        guard rank >= 0 else { return 0 }
        return tx.amountMinor / n + (rank < tx.amountMinor % n ? 1 : 0)
    }

    /// Shares `amount` (the expense converted whole into the group's currency) in proportion to
    /// `weights` (the split rows in the expense's own currency, or one each for an equal split;
    /// adding up to `whole`), by the largest
    /// remainder, ties to the lowest of `userIds`: so the parts add up to exactly `amount`. The
    /// result goes to `alloc`; `remainders` is a scratch buffer (both reused, no allocation per row).
    /// When nothing was converted (`amount == whole`), the parts are the weights themselves.
    static func allocate(_ amount: Int64, whole: Int64, weights: [Int64], userIds: [Int64],
                         into alloc: inout [Int64], remainders: inout [Int128]) {
        alloc.removeAll(keepingCapacity: true)
        if amount == whole || whole == 0 { alloc.append(contentsOf: weights); return }
        remainders.removeAll(keepingCapacity: true)
        var assigned: Int64 = 0
        for w in weights {
            let p = Int128(w) * Int128(amount)
            alloc.append(Int64(p / Int128(whole))); remainders.append(p % Int128(whole)); assigned += Int64(p / Int128(whole))
        }
        var left = amount - assigned
        while left > 0 {      // one unit each to the largest remainders, ties to the lowest user id
            var best = 0
            for k in 1..<remainders.count where remainders[k] > remainders[best]
                || (remainders[k] == remainders[best] && userIds[k] < userIds[best]) { best = k }
            alloc[best] += 1; remainders[best] = -1; left -= 1
        }
    }

    /// Whether `user` takes part in sharing the expense: a split row above zero when it has
    /// splits, else membership on its date (or, with no member then, having paid it). Only a
    /// user who takes part can be allocated a unit of its amount, in any currency.
    static func takesPart(_ user: Int64, in tx: Transaction, members: [GroupMember], splits: [Int64: [Split]]) -> Bool {
        if let rows = splits[tx.id], !rows.isEmpty { return rows.contains { $0.userId == user && $0.shareMinor > 0 } }
        var anyone = false
        for m in members where m.isMember(on: tx.ownerDate) {
            if m.userId == user { return true }
            anyone = true
        }
        return !anyone && tx.userId == user
    }

    /// `user`'s share of a group expense in the group's currency, as the group's books count it
    /// (``GroupAnalytics``): the expense converted whole, then shared by ``allocate``. Only an
    /// expense in another currency than its group's needs this; otherwise the share is
    /// ``share(of:in:members:splits:)`` itself.
    static func shareInGroupCurrency(of user: Int64, in tx: Transaction, amount: Int64, members: [GroupMember],
                                     splits: [Int64: [Split]]) -> Int64 {
        var ids: [Int64] = [], weights: [Int64] = []
        var whole = tx.amountMinor
        if let rows = splits[tx.id], !rows.isEmpty {
            for r in rows where r.shareMinor > 0 { ids.append(r.userId); weights.append(r.shareMinor) }
        } else {
            // An equal split shares the converted amount equally: one weight each (see GroupAnalytics).
            for m in members where m.isMember(on: tx.ownerDate) { ids.append(m.userId); weights.append(1) }
            if !ids.isEmpty { whole = Int64(ids.count) }
        }
        if ids.isEmpty { ids = [tx.userId]; weights = [tx.amountMinor]; whole = tx.amountMinor }   // nothing to share: stays with the payer
        guard let k = ids.firstIndex(of: user) else { return 0 }
        var alloc: [Int64] = [], remainders: [Int128] = []
        allocate(amount, whole: whole, weights: weights, userIds: ids, into: &alloc, remainders: &remainders)
        return alloc[k]
    }
}

// MARK: - The view

/// One viewer's rows and group shares as flat ``Entry`` values in one currency and zone, for the
/// local dates `from...through`; optionally the statement rows of one period.
///
/// Money semantics (ledger contract): income is the viewer's own income rows; expenses are their
/// own expense rows outside any group plus their share of every group expense (whoever paid),
/// each row or share converted on its own date (the owner's local date) and then summed;
/// transfers count as neither. Expenses of groups not in the ledger (deleted groups) are ignored.
struct LedgerView {
    let userId: Int64
    let zone: ZoneRules
    let currency: Currency
    let categories: CategoryIndex
    let from: CivilDate
    let through: CivilDate
    /// Every entry dated `from...through`, in no particular order.
    private(set) var entries: [Entry] = []
    /// The statement rows of `rowsPeriod`, unsorted.
    private(set) var rows: [StatementRow] = []
    /// Whether the viewer has any row or group expense at all (before `from` too).
    private(set) var hasData = false
    /// The local day (in `zone`) of each of the ledger's own transactions, by index: computed once
    /// and shared by the balance and recurring-rule passes.
    private(set) var ownDays: [Int32] = []

    init(ledger: UserLedger, zone: ZoneRules, currency: Currency, from: CivilDate, through: CivilDate,
         rowsPeriod: Period? = nil) throws(AnalyticsError) {
        self.userId = ledger.user.id
        self.zone = zone
        self.currency = currency
        self.categories = CategoryIndex(ledger.categories)
        self.from = from
        self.through = through
        hasData = !ledger.transactions.isEmpty || ledger.groups.contains { !$0.expenses.isEmpty }
        var balanceNames: [Int64: String] = [:]
        if rowsPeriod != nil { for b in ledger.balances { balanceNames[b.id] = b.name } }

        reserveSpace(for: ledger, rowsPeriod: rowsPeriod)
        try addOwnTransactions(of: ledger, rowsPeriod: rowsPeriod, balanceNames: balanceNames)
        for g in ledger.groups {
            try addGroupExpenses(of: g, in: ledger, rowsPeriod: rowsPeriod, balanceNames: balanceNames)
        }
        try checkBound()
    }

    /// Finds the local day of each of the viewer's own transactions (``ownDays``), and reserves
    /// exactly the entries and rows they and the group expenses can need: grown by doubling, a
    /// 100,000-row statement's rows kept ~30,000 empty slots (~5 MB) for as long as its figures.
    private mutating func reserveSpace(for ledger: UserLedger, rowsPeriod: Period?) {
        let lo = from.dayNumber, hi = through.dayNumber
        let txs = ledger.transactions
        ownDays = [Int32](repeating: 0, count: txs.count)
        var ownEntries = 0, ownRows = 0
        for i in txs.indices {
            let day = txs[i].occurredAt.localDate(in: zone)
            ownDays[i] = day.dayNumber
            // Index access reads fields in place; copying a Transaction would retain its strings.
            if txs[i].kind == .expense, txs[i].groupId != nil { continue }   // counted from its group
            guard day.dayNumber >= lo, day.dayNumber <= hi else { continue }
            ownEntries += 1
            if let p = rowsPeriod, p.contains(day) { ownRows += 1 }
        }
        // A bound for the group expenses (their shares are found later): every one loaded.
        let groupExpenses = ledger.groups.reduce(0) { $0 + $1.expenses.count }
        entries.reserveCapacity(ownEntries + groupExpenses)
        if rowsPeriod != nil { rows.reserveCapacity(ownRows + groupExpenses) }
    }

    /// The viewer's own income, expenses outside any group and transfers dated `from...through`,
    /// each converted on its own date; their statement rows when in `rowsPeriod`.
    private mutating func addOwnTransactions(of ledger: UserLedger, rowsPeriod: Period?,
                                             balanceNames: [Int64: String]) throws(AnalyticsError) {
        let lo = from.dayNumber, hi = through.dayNumber
        let txs = ledger.transactions
        for i in txs.indices {
            let day = CivilDate(dayNumber: ownDays[i])
            if txs[i].kind == .expense, txs[i].groupId != nil { continue }
            guard day.dayNumber >= lo, day.dayNumber <= hi else { continue }
            let tx = txs[i]
            let cat = categories.index(ownCategoryId: tx.categoryId)
            var counted: Int64 = 0
            let kind: EntryKind
            switch tx.kind {
            case .income: kind = .income
            case .expense: kind = .expense
            case .transfer: kind = .transfer
            }
            if kind != .transfer {
                counted = try ledger.rates.convert(tx.amountMinor, from: tx.currency, to: currency, on: tx.ownerDate,
                                                   user: userId, transaction: tx.id)
            }
            entries.append(Entry(day: day.dayNumber, kind: kind, recurring: tx.recurrenceDays != nil,
                                 category: cat, counted: counted))
            if let p = rowsPeriod, p.contains(day) {
                rows.append(Self.row(tx, day: day, category: categories.names[Int(cat)],
                                     balance: tx.balanceId.flatMap { balanceNames[$0] } ?? "",
                                     counted: counted, group: "", paidBy: ""))
            }
        }
    }

    /// The viewer's share of each of `g`'s expenses dated `from...through` (whoever paid), and the
    /// ones they paid with no share (``EntryKind/zeroShare``); their statement rows when in `rowsPeriod`.
    private mutating func addGroupExpenses(of g: GroupLedger, in ledger: UserLedger, rowsPeriod: Period?,
                                           balanceNames: [Int64: String]) throws(AnalyticsError) {
        let lo = from.dayNumber, hi = through.dayNumber
        let user = userId
        let rates = ledger.rates
        let members = g.members.sorted { $0.userId < $1.userId }
        let expenses = g.expenses
        for i in expenses.indices where expenses[i].kind == .expense {
            let day = expenses[i].occurredAt.localDate(in: zone)
            guard day.dayNumber >= lo, day.dayNumber <= hi else { continue }
            let tx = expenses[i]
            let paid = tx.userId == user
            // The group's books convert the expense whole into the group's currency, then share
            // it: the viewer's share is that one, so that it is the same as the share in
            // groups.csv (and the members' expenses add up to the group's total). Whether the
            // viewer has a share at all is decided on it too: split first in the expense's own
            // currency, 5 fils among four had a share of 1 where the group's 2 yen gave none.
            var owed: Int64 = 0, owedCurrency = tx.currency
            if tx.currency == g.group.currency {
                owed = GroupShares.share(of: user, in: tx, members: members, splits: g.splits)
            } else if GroupShares.takesPart(user, in: tx, members: members, splits: g.splits) {
                let whole = try rates.convert(tx.amountMinor, from: tx.currency, to: g.group.currency, on: tx.ownerDate,
                                              user: user, transaction: tx.id, group: g.group.id)
                owed = GroupShares.shareInGroupCurrency(of: user, in: tx, amount: whole, members: members, splits: g.splits)
                owedCurrency = g.group.currency
            }
            guard owed > 0 || paid else { continue }
            let cat = categories.index(name: tx.categoryName)
            var counted: Int64 = 0
            if owed > 0 {
                counted = try rates.convert(owed, from: owedCurrency, to: currency, on: tx.ownerDate,
                                            user: user, transaction: tx.id, group: g.group.id)
            }
            entries.append(Entry(day: day.dayNumber, kind: owed > 0 ? .expense : .zeroShare,
                                 recurring: false, category: cat, counted: counted))
            if let p = rowsPeriod, p.contains(day) {
                let payer = members.first { $0.userId == tx.userId }?.username ?? (paid ? ledger.user.username : "")
                rows.append(Self.row(tx, day: day, category: categories.names[Int(cat)],
                                     balance: paid ? (tx.balanceId.flatMap { balanceNames[$0] } ?? "") : "",
                                     counted: counted, group: g.group.name, paidBy: payer, paidByReader: paid))
            }
        }
    }

    /// Checks that the sum of every entry's counted amount fits in 64 bits. Every figure built
    /// from the view sums a subset of these non-negative amounts (or subtracts one such sum from
    /// another), so once this holds those sums cannot overflow and may use plain `&+`/`&-` in hot
    /// loops; without it, a row with an absurd amount would wrap silently instead of failing.
    private func checkBound() throws(AnalyticsError) {
        var total: Int64 = 0
        for e in entries { total = try checkedAdd(total, e.counted, user: userId) }
    }

    private static func row(_ tx: Transaction, day: CivilDate, category: String, balance: String, counted: Int64,
                            group: String, paidBy: String, paidByReader: Bool = false) -> StatementRow {
        StatementRow(id: tx.id, date: day, time: tx.occurredAt, kind: tx.kind, category: category, balance: balance,
                     method: tx.method ?? "", description: tx.description ?? "", amount: tx.amountMinor,
                     currency: tx.currency, counted: counted, group: group, paidBy: paidBy, paidByReader: paidByReader)
    }

    /// The statement rows sorted by `order`, moved out of the view (which keeps none): sorted in
    /// place, so that a long statement's rows (100,000 of a shop's sales) are never held twice.
    mutating func takeRows(sortedBy order: (StatementRow, StatementRow) -> Bool) -> [StatementRow] {
        rows.sort(by: order)
        defer { rows = [] }
        return rows
    }

    /// Income and expenses over `from...through` (which must lie inside the view).
    func totals(from: CivilDate, through: CivilDate) throws(AnalyticsError) -> (income: Int64, expenses: Int64) {
        var income: Int64 = 0, expenses: Int64 = 0
        let lo = from.dayNumber, hi = through.dayNumber
        for e in entries where e.day >= lo && e.day <= hi {
            switch e.kind {
            case .income: income = try checkedAdd(income, e.counted, user: userId)
            case .expense: expenses = try checkedAdd(expenses, e.counted, user: userId)
            case .transfer, .zeroShare: break
            }
        }
        return (income, expenses)
    }
}
