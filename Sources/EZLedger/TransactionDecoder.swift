import EZCore
import GRDB
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Decodes ordinary transaction rows straight from SQLite's column bytes, without the joins of
/// ``RowValidator/transactionSelect`` and without a `Row` or a `String` per column.
///
/// It accepts a row only when every rule of ``RowValidator/transaction(_:)`` plainly holds, and
/// then builds the very `Transaction` that rule would; for anything else (a rule broken, a row
/// the contract ignores, any column of an unexpected storage class, text with a NUL in it) it
/// answers `nil`, and the caller runs the full rules on the joined row, which alone word the
/// quarantine reasons. So both paths keep and quarantine exactly the same rows.
///
/// The rows the joins used to bring (the owner, balances, category, group) are read once per id
/// through cached queries (an owner's balances and categories all at once) and kept for the life
/// of the decoder (one user's load, inside one read transaction). Only integer references are
/// looked up: a join on a rowid matches nothing else, and a text or real reference goes to the
/// full rules.
struct TransactionDecoder {
    /// The columns ``decode(_:)`` reads, in order.
    static let select = """
        SELECT t.id, t.user_id, t.balance_id, t.category_id, t.group_id, t.kind, t.to_balance_id,
               t.amount_minor, t.currency, t.occurred_at, t.method, t.description, t.recurrence_days, t.created_at
        FROM transactions t
        """

    private struct Owner { var zone: ZoneRules; var currency: Currency; var code: UInt32 }
    private struct BalanceRef { var userId: Int64?; var currency: Currency?; var code: UInt32 }
    private struct CategoryRef { var userId: Int64?; var name: String?; var deleted: Bool }
    private struct GroupRef { var currency: Currency?; var code: UInt32; var deleted: Bool }

    private let db: Database
    private let rates: RateTable
    /// Currency and zone rules exactly as the full rules make them.
    private var validator: RowValidator
    // Rows by id: an index into the array beside, or -1 when the id has no usable row. Fields are
    // read in place (copying a whole entry out retains its references for every row).
    private var ownerIndex = IdTable<Int32>(), owners: [Owner] = []
    private var balanceIndex = IdTable<Int32>(), balances: [BalanceRef] = []
    private var categoryIndex = IdTable<Int32>(), categories: [CategoryRef] = []
    private var groupIndex = IdTable<Int32>(), groups: [GroupRef] = []
    /// Owners whose balances and categories have all been read (values unused).
    private var balancesRead = IdTable<Int32>(), categoriesRead = IdTable<Int32>()
    /// Valid currencies seen, by packed code (a handful per load: a list beats hashing).
    private var currencies: [(code: UInt32, currency: Currency)] = []
    /// Whether a rate exists from one currency to another on a day (key: codes and day number).
    private var rateFound: [UInt64: Bool] = [:]
    private var texts = TextInterner()

    init(db: Database, rates: RateTable) {
        self.db = db
        self.rates = rates
        self.validator = RowValidator(rates: rates)
    }

    // MARK: - Rows

    /// The transaction in the cursor's current row (columns as in ``select``), or nil when the
    /// row needs the full rules.
    mutating func decode(_ row: RawRowCursor) throws -> Transaction? {
        guard row.type(0) == .integer, row.type(1) == .integer, row.type(5) == .text, row.type(7) == .integer,
              row.type(8) == .text, row.type(9) == .text, row.type(13) == .text else { return nil }
        let id = row.int64(0)
        let userId = row.int64(1)
        let amount = row.int64(7)
        guard amount > 0 else { return nil }
        guard let kind = row.withText(5, Self.kind) else { return nil }
        guard let currencyCode = row.withText(8, Self.code), let currency = currency(currencyCode) else { return nil }
        guard let occurred = row.withText(9, LedgerTime.parse), let created = row.withText(13, LedgerTime.parse) else {
            return nil
        }
        guard let o = try owner(userId) else { return nil }
        let ownerDate = occurred.localDate(in: owners[o].zone)

        var balanceId: Int64?
        switch row.type(2) {
        case .null: break
        case .integer:
            let bid = row.int64(2)
            guard let b = try balance(bid, owner: userId), balances[b].userId == userId else { return nil }
            balanceId = bid
        default: return nil
        }
        var toBalanceId: Int64?
        switch row.type(6) {
        case .null: break
        case .integer: toBalanceId = row.int64(6)
        default: return nil
        }
        if kind == .transfer {
            guard balanceId != nil, let to = toBalanceId, let b = try balance(to, owner: userId), balances[b].userId == userId else { return nil }
            if let toCurrency = balances[b].currency, balances[b].code != currencyCode,
               !rateExists(currencyCode, currency, balances[b].code, toCurrency, ownerDate) {
                return nil
            }
        } else if toBalanceId != nil {
            return nil
        }

        var categoryId: Int64?
        var categoryName = Category.othersName
        switch row.type(3) {
        case .null: break
        case .integer:
            let cid = row.int64(3)
            guard let c = try category(cid, owner: userId), categories[c].userId == userId else { return nil }
            if !categories[c].deleted {
                categoryId = cid
                categoryName = categories[c].name ?? Category.othersName
            }
        default: return nil
        }

        var groupId: Int64?
        switch row.type(4) {
        case .null: break
        case .integer:
            let gid = row.int64(4)
            guard let g = try group(gid), !groups[g].deleted, kind == .expense else { return nil }
            if let groupCurrency = groups[g].currency, groups[g].code != currencyCode,
               !rateExists(currencyCode, currency, groups[g].code, groupCurrency, ownerDate) {
                return nil
            }
            groupId = gid
        default: return nil
        }
        if owners[o].code != currencyCode, !rateExists(currencyCode, currency, owners[o].code, owners[o].currency, ownerDate) {
            return nil
        }

        var recurrence: Int?
        switch row.type(12) {
        case .null: break
        case .integer:
            let r = row.int64(12)
            guard r > 0 else { return nil }
            recurrence = Int(r)
        default: return nil
        }
        guard let method = text(row, 10), let description = text(row, 11) else { return nil }
        return Transaction(
            id: id, userId: userId, balanceId: balanceId, categoryId: categoryId, categoryName: categoryName,
            groupId: groupId, kind: kind, toBalanceId: toBalanceId, amountMinor: amount, currency: currency,
            occurredAt: occurred, ownerDate: ownerDate, method: method, description: description,
            recurrenceDays: recurrence, createdAt: created)
    }

    /// An optional free-text column: `.some(nil)` for NULL, `.some(text)` for text (NULs made
    /// visible by ``LedgerText``, as the full rules read them), nil (full rules) for any other storage class.
    private mutating func text(_ row: RawRowCursor, _ i: Int32) -> String?? {
        switch row.type(i) {
        case .null: return .some(nil)
        case .text:
            return row.withText(i) { bytes -> String?? in
                if bytes.contains(0) { return .some(LedgerText.withVisibleNULs(bytes)) }
                return .some(texts.string(bytes))
            }
        default: return nil
        }
    }

    private static func kind(_ b: UnsafeBufferPointer<UInt8>) -> Transaction.Kind? {
        if b.isExactly("expense") { return .expense }
        if b.isExactly("income") { return .income }
        if b.isExactly("transfer") { return .transfer }
        return nil
    }

    /// Three upper-case ASCII letters packed into one number, or nil for anything else (the
    /// contract's only valid currency codes).
    private static func code(_ b: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard b.count == 3 else { return nil }
        var key: UInt32 = 0
        for c in b {
            guard c >= 65, c <= 90 else { return nil }
            key = key << 8 | UInt32(c)
        }
        return key
    }

    private mutating func currency(_ code: UInt32) -> Currency? {
        for entry in currencies where entry.code == code { return entry.currency }
        let text = String(decoding: [UInt8(code >> 16), UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)], as: UTF8.self)
        guard let c = validator.currency(text) else { return nil }
        currencies.append((code, c))
        return c
    }

    private mutating func rateExists(_ fromCode: UInt32, _ from: Currency, _ toCode: UInt32, _ to: Currency, _ day: CivilDate) -> Bool {
        // Each code packs into 15 bits (three letters in base 26), the day into 32.
        let key = UInt64(Self.letters(fromCode)) << 47 | UInt64(Self.letters(toCode)) << 32 | UInt64(UInt32(bitPattern: day.dayNumber))
        if let hit = rateFound[key] { return hit }
        let found = rates.rate(from: from, to: to, on: day) != nil
        rateFound[key] = found
        return found
    }

    /// A packed code (see ``code(_:)``) as a number below 26³.
    private static func letters(_ code: UInt32) -> UInt32 {
        ((code >> 16 &- 65) * 26 + (code >> 8 & 0xFF &- 65)) * 26 + (code & 0xFF &- 65)
    }

    // MARK: - Referenced rows (read once per id, with the full rules' decoding)

    /// Looks `id` up in `index`, or reads its row once with `read` and remembers the answer.
    @inline(__always)
    private static func find<Ref>(_ id: Int64, _ index: inout IdTable<Int32>, _ refs: inout [Ref],
                                  _ read: (Int64) throws -> Ref?) rethrows -> Int? {
        if let hit = index[id] { return hit < 0 ? nil : Int(hit) }
        guard let ref = try read(id) else { index.set(id, -1); return nil }
        refs.append(ref)
        index.set(id, Int32(refs.count - 1))
        return refs.count - 1
    }

    private mutating func owner(_ id: Int64) throws -> Int? {
        try Self.find(id, &ownerIndex, &owners) { id in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT timezone, currency, deleted_at FROM users WHERE id = ?"),
                                           arguments: [id])
            guard let row = try rows.next(), row.hasNull(atIndex: 2),
                  let zone = validator.zone(row[0] ?? ""), let currency = validator.currency(row[1]),
                  let code = Self.code(currency) else { return nil }
            return Owner(zone: zone, currency: currency, code: code)
        }
    }

    /// The balance `id` of a row owned by `owner`. The first time an owner's row refers to a
    /// balance not yet known, all of the owner's balances are read at once (one indexed query
    /// instead of one per balance); any other id is read alone.
    private mutating func balance(_ id: Int64, owner: Int64) throws -> Int? {
        if let hit = balanceIndex[id] { return hit < 0 ? nil : Int(hit) }
        if balancesRead[owner] == nil {
            balancesRead.set(owner, 0)
            try readBalances(sql: "SELECT id, user_id, currency FROM balances WHERE user_id = ?", owner)
            if let hit = balanceIndex[id] { return Int(hit) }
        }
        try readBalances(sql: "SELECT id, user_id, currency FROM balances WHERE id = ?", id)
        if balanceIndex[id] == nil { balanceIndex.set(id, -1) }
        return balanceIndex[id].flatMap { $0 < 0 ? nil : Int($0) }
    }

    private mutating func readBalances(sql: String, _ argument: Int64) throws {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [argument])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            guard balanceIndex[id] == nil else { continue }
            let currency = validator.currency(row[2])
            balances.append(BalanceRef(userId: row[1], currency: currency, code: currency.flatMap(Self.code) ?? 0))
            balanceIndex.set(id, Int32(balances.count - 1))
        }
    }

    /// The category `id` of a row owned by `owner`, read like ``balance(_:owner:)``.
    private mutating func category(_ id: Int64, owner: Int64) throws -> Int? {
        if let hit = categoryIndex[id] { return hit < 0 ? nil : Int(hit) }
        if categoriesRead[owner] == nil {
            categoriesRead.set(owner, 0)
            try readCategories(sql: "SELECT id, user_id, name, deleted_at FROM categories WHERE user_id = ?", owner)
            if let hit = categoryIndex[id] { return Int(hit) }
        }
        try readCategories(sql: "SELECT id, user_id, name, deleted_at FROM categories WHERE id = ?", id)
        if categoryIndex[id] == nil { categoryIndex.set(id, -1) }
        return categoryIndex[id].flatMap { $0 < 0 ? nil : Int($0) }
    }

    private mutating func readCategories(sql: String, _ argument: Int64) throws {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [argument])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            guard categoryIndex[id] == nil else { continue }
            categories.append(CategoryRef(userId: row[1], name: row[2], deleted: !row.hasNull(atIndex: 3)))
            categoryIndex.set(id, Int32(categories.count - 1))
        }
    }

    private mutating func group(_ id: Int64) throws -> Int? {
        try Self.find(id, &groupIndex, &groups) { id in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT currency, deleted_at FROM groups WHERE id = ?"),
                                           arguments: [id])
            guard let row = try rows.next() else { return nil }
            let currency = validator.currency(row[0])
            return GroupRef(currency: currency, code: currency.flatMap(Self.code) ?? 0, deleted: !row.hasNull(atIndex: 1))
        }
    }

    private static func code(_ currency: Currency) -> UInt32? {
        var text = currency.code
        return text.withUTF8 { code($0) }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `text`'s UTF-8 bytes.
    @inline(__always)
    func isExactly(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}
