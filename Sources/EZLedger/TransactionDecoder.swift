import EZCore
import Glibc

/// The ledger contract's transaction rules, in their one definition, applied to rows read
/// straight from SQLite's column bytes.
///
/// Every transaction a report, a batch or `check` reads goes through ``decode(_:)``: it answers
/// the valid `Transaction`, `.ignored` for a row the contract skips (a deleted owner or group),
/// or `.quarantined` with the reason, so the reports and `check` agree by construction.
///
/// Columns are read in place (no `Row`, no `String` per column for ordinary rows). A column of
/// an unexpected storage class is read as SQLite converts it (an integer description reads as
/// its digits, a real amount is refused and its value named in the reason). The rows the joins
/// used to bring (the owner, balances, category, group) are read once per id through cached
/// queries (an owner's balances and categories all at once) and kept for the life of the decoder
/// (one user's load, inside one read transaction). A reference stored as anything but an
/// integer matches no row, as it would in a join on the rowid.
struct TransactionDecoder<Reader: LedgerReading> {
    typealias Rows = Reader.Rows

    /// A user as the rules need them: deleted or not, and their zone and currency when valid.
    private struct Owner { var deleted: Bool; var zone: ZoneRules?; var currency: Currency?; var code: UInt32 }
    private struct BalanceRef { var userId: Int64?; var currency: Currency?; var code: UInt32 }
    private struct CategoryRef { var userId: Int64?; var name: String?; var deleted: Bool }
    private struct GroupRef { var currency: Currency?; var code: UInt32; var deleted: Bool }

    private let reader: Reader
    private let rates: RateTable
    /// Currency and zone rules, as every other table's rules make them.
    private var validator: RowValidator
    // Rows by id: an index into the array beside, or -1 when the id has no row. Fields are
    // read in place (copying a whole entry out retains its references for every row).
    private var ownerIndex = IdTable<Int32>(), owners: [Owner] = []
    private var balanceIndex = IdTable<Int32>(), balances: [BalanceRef] = []
    private var categoryIndex = IdTable<Int32>(), categories: [CategoryRef] = []
    private var groupIndex = IdTable<Int32>(), groups: [GroupRef] = []
    /// Owners whose balances and categories have all been read (values unused).
    private var balancesRead = IdTable<Int32>(), categoriesRead = IdTable<Int32>()
    /// Currencies seen, by packed code (a handful per load: a list beats hashing).
    private var currencies: [(code: UInt32, currency: Currency)] = []
    /// Whether a rate exists from one currency to another on a day (key: codes and day number).
    private var rateFound: [UInt64: Bool] = [:]
    private var texts = TextInterner()

    init(reader: Reader, rates: RateTable) {
        self.reader = reader
        self.rates = rates
        self.validator = RowValidator(rates: rates)
    }

    // MARK: - The rules

    /// The transaction in the cursor's current row (columns as in ``select``), checked against
    /// every rule of the contract, in a fixed order (the first rule broken names the reason).
    ///
    /// Long on purpose: it is the contract's transaction rules read top to bottom, one guard per
    /// rule in the order docs/ledger-schema.md gives them, and it runs once per row of every load.
    mutating func decode(_ row: Rows) throws -> Verdict<Transaction> {
        let id = row.int64(0)
        let userId = row.int64(1)
        guard let o = try owner(userId) else { return .quarantined(TransactionRules.missingUser(userId)) }
        if owners[o].deleted { return .ignored }
        // Only a `deleted_at` that cannot be a timestamp reaches here (the query leaves deleted rows out).
        if row.type(14) != .null { return .quarantined(LedgerContract.unparsedDeletion(text(row, 14) ?? "")) }
        guard let kind = row.withText(5, TransactionRules.kind) else { return .quarantined("unknown kind '\(text(row, 5) ?? "NULL")'") }
        guard row.type(7) == .integer, row.int64(7) > 0 else {
            return .quarantined("amount_minor must be a positive integer (got \(Self.describe(row, 7)))")
        }
        let amount = row.int64(7)
        if let beyond = LedgerContract.amountBeyondLimit(amount, "amount_minor") { return .quarantined(beyond) }
        guard row.type(8) != .null, let currencyCode = row.withText(8, Currency.packedCode), let currency = currency(currencyCode) else {
            return .quarantined("invalid currency '\(text(row, 8) ?? "NULL")'")
        }
        guard row.type(9) != .null, let occurred = row.withText(9, LedgerTime.parse) else {
            return .quarantined("occurred_at '\(text(row, 9) ?? "NULL")' is not an ISO-8601 timestamp")
        }
        guard row.type(13) != .null, let created = row.withText(13, LedgerTime.parse) else {
            return .quarantined("created_at '\(text(row, 13) ?? "NULL")' is not an ISO-8601 timestamp")
        }
        guard let ownerZone = owners[o].zone, let ownerCurrency = owners[o].currency else {
            return .quarantined("its owner \(userId) has an invalid time zone or currency")
        }
        let ownerDate = occurred.localDate(in: ownerZone)

        // References must exist and belong to the owner.
        let balanceId = reference(row, 2)
        if let balanceId {
            guard let b = try balance(row.type(2) == .integer ? balanceId : nil, owner: userId) else {
                return .quarantined("balance_id \(balanceId) does not exist")
            }
            guard balances[b].userId == userId else { return .quarantined("balance_id \(balanceId) belongs to another user") }
            // The balance's history counts the row in the balance's currency, on the row's date.
            if let balanceCurrency = balances[b].currency, balances[b].code != currencyCode,
               !rateExists(currencyCode, currency, balances[b].code, balanceCurrency, ownerDate) {
                return .quarantined("no exchange rate \(currency.code)→\(balanceCurrency.code) on or before \(ownerDate)")
            }
        }
        let toBalanceId = reference(row, 6)
        if kind == .transfer {
            guard balanceId != nil else { return .quarantined("a transfer needs a balance_id") }
            guard let to = toBalanceId else { return .quarantined("a transfer needs a to_balance_id") }
            guard let b = try balance(row.type(6) == .integer ? to : nil, owner: userId) else {
                return .quarantined("to_balance_id \(to) does not exist")
            }
            guard balances[b].userId == userId else { return .quarantined("to_balance_id \(to) belongs to another user") }
            if let toCurrency = balances[b].currency, balances[b].code != currencyCode,
               !rateExists(currencyCode, currency, balances[b].code, toCurrency, ownerDate) {
                return .quarantined("no exchange rate \(currency.code)→\(toCurrency.code) on or before \(ownerDate)")
            }
        } else if let to = toBalanceId {
            return .quarantined("to_balance_id \(to) is set on an \(kind.rawValue)")
        }

        var categoryId = reference(row, 3)
        var categoryName = Category.othersName
        if let cid = categoryId {
            guard let c = try category(row.type(3) == .integer ? cid : nil, owner: userId) else {
                return .quarantined("category_id \(cid) does not exist")
            }
            guard categories[c].userId == userId else { return .quarantined("category_id \(cid) belongs to another user") }
            if categories[c].deleted { categoryId = nil } else { categoryName = categories[c].name ?? Category.othersName }
        }

        let groupId = reference(row, 4)
        if let gid = groupId {
            guard let g = try group(row.type(4) == .integer ? gid : nil) else { return .quarantined("group_id \(gid) does not exist") }
            if groups[g].deleted { return .ignored }
            guard kind == .expense else { return .quarantined("a group row must be an expense, not \(kind.rawValue)") }
            if let groupCurrency = groups[g].currency, groups[g].code != currencyCode,
               !rateExists(currencyCode, currency, groups[g].code, groupCurrency, ownerDate) {
                return .quarantined("no exchange rate \(currency.code)→\(groupCurrency.code) on or before \(ownerDate)")
            }
        }
        if owners[o].code != currencyCode, !rateExists(currencyCode, currency, owners[o].code, ownerCurrency, ownerDate) {
            return .quarantined("no exchange rate \(currency.code)→\(ownerCurrency.code) on or before \(ownerDate)")
        }

        var recurrence: Int?
        if row.type(12) != .null {
            guard row.type(12) == .integer, row.int64(12) > 0, let r = Int(exactly: row.int64(12)) else {
                return .quarantined("recurrence_days must be a positive integer (got \(Self.describe(row, 12)))")
            }
            recurrence = r
        }
        return .valid(Transaction(
            id: id, userId: userId, balanceId: balanceId, categoryId: categoryId, categoryName: categoryName,
            groupId: groupId, kind: kind, toBalanceId: toBalanceId, amountMinor: amount, currency: currency,
            occurredAt: occurred, ownerDate: ownerDate, method: text(row, 10), description: text(row, 11),
            recurrenceDays: recurrence, createdAt: created))
    }

    // MARK: - Columns

    /// A text column: nil for NULL, else SQLite's text form of the value (an integer reads as its
    /// digits) with invalid UTF-8 repaired and every NUL byte shown as U+FFFD, so that no text is
    /// cut short or hides a control character.
    private mutating func text(_ row: Rows, _ i: Int32) -> String? {
        guard row.type(i) != .null else { return nil }
        return row.withText(i) { bytes in
            guard bytes.contains(0) else { return texts.string(bytes) }
            return Self.showingNul(bytes)
        }
    }

    /// `bytes` as text with each NUL byte replaced by U+FFFD.
    static func showingNul(_ bytes: UnsafeBufferPointer<UInt8>) -> String { TransactionRules.showingNul(bytes) }

    /// A reference column: nil for NULL, else its value as an integer (SQLite's conversion, 0 for
    /// text that is not a number); only an integer-stored reference can match a row.
    private func reference(_ row: Rows, _ i: Int32) -> Int64? {
        row.type(i) == .null ? nil : row.int64(i)
    }

    /// A value as a reason names it: `NULL`, `12`, `12.5`, `'text'` or `a blob`.
    private static func describe(_ row: Rows, _ i: Int32) -> String {
        switch row.type(i) {
        case .null: return "NULL"
        case .integer: return String(row.int64(i))
        case .real: return String(row.double(i))
        case .text: return "'" + row.withText(i) { showingNul($0) } + "'"
        case .blob: return "a blob"
        }
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

    /// A packed code (``Currency/packedCode``) as a number below 26³.
    private static func letters(_ code: UInt32) -> UInt32 {
        ((code >> 16 &- 65) * 26 + (code >> 8 & 0xFF &- 65)) * 26 + (code & 0xFF &- 65)
    }

    // MARK: - Referenced rows (read once per id)

    /// The user `id`, or nil when there is none (its row read once, then remembered).
    private mutating func owner(_ id: Int64) throws -> Int? {
        if let hit = ownerIndex[id] { return hit < 0 ? nil : Int(hit) }
        let row = try reader.rows(.owner, [.integer(id)])
        guard try row.next() else { ownerIndex.set(id, -1); return nil }
        let currency = validator.currency(row.string(1))
        owners.append(Owner(deleted: !row.isNull(2), zone: try validator.zone(row.string(0) ?? ""), currency: currency,
                            code: currency?.packedCode ?? 0))
        ownerIndex.set(id, Int32(owners.count - 1))
        return owners.count - 1
    }

    /// The balance `id` (nil: a reference that matches no row) of a row owned by `owner`. The
    /// first time an owner's row refers to a balance not yet known, all of the owner's balances
    /// are read at once (one indexed query instead of one per balance); any other id is read alone.
    private mutating func balance(_ id: Int64?, owner: Int64) throws -> Int? {
        guard let id else { return nil }
        if let hit = balanceIndex[id] { return hit < 0 ? nil : Int(hit) }
        if balancesRead[owner] == nil {
            balancesRead.set(owner, 0)
            try readBalances(.balancesOfOwner, owner)
            if let hit = balanceIndex[id] { return Int(hit) }
        }
        try readBalances(.balanceById, id)
        if balanceIndex[id] == nil { balanceIndex.set(id, -1) }
        return balanceIndex[id].flatMap { $0 < 0 ? nil : Int($0) }
    }

    private mutating func readBalances(_ query: LedgerQuery, _ argument: Int64) throws {
        let row = try reader.rows(query, [.integer(argument)])
        while try row.next() {
            let id = row.int64(0)
            guard balanceIndex[id] == nil else { continue }
            let currency = validator.currency(row.string(2))
            balances.append(BalanceRef(userId: row.optionalInt64(1), currency: currency, code: currency?.packedCode ?? 0))
            balanceIndex.set(id, Int32(balances.count - 1))
        }
    }

    /// The category `id` (nil: matches no row) of a row owned by `owner`, read like ``balance(_:owner:)``.
    private mutating func category(_ id: Int64?, owner: Int64) throws -> Int? {
        guard let id else { return nil }
        if let hit = categoryIndex[id] { return hit < 0 ? nil : Int(hit) }
        if categoriesRead[owner] == nil {
            categoriesRead.set(owner, 0)
            try readCategories(.categoriesOfOwner, owner)
            if let hit = categoryIndex[id] { return Int(hit) }
        }
        try readCategories(.categoryById, id)
        if categoryIndex[id] == nil { categoryIndex.set(id, -1) }
        return categoryIndex[id].flatMap { $0 < 0 ? nil : Int($0) }
    }

    private mutating func readCategories(_ query: LedgerQuery, _ argument: Int64) throws {
        let row = try reader.rows(query, [.integer(argument)])
        while try row.next() {
            let id = row.int64(0)
            guard categoryIndex[id] == nil else { continue }
            categories.append(CategoryRef(userId: row.optionalInt64(1), name: row.string(2), deleted: !row.isNull(3)))
            categoryIndex.set(id, Int32(categories.count - 1))
        }
    }

    /// The group `id` (nil: matches no row), read once, then remembered.
    private mutating func group(_ id: Int64?) throws -> Int? {
        guard let id else { return nil }
        if let hit = groupIndex[id] { return hit < 0 ? nil : Int(hit) }
        let row = try reader.rows(.groupById, [.integer(id)])
        guard try row.next() else { groupIndex.set(id, -1); return nil }
        let currency = validator.currency(row.string(0))
        groups.append(GroupRef(currency: currency, code: currency?.packedCode ?? 0, deleted: row.int64(1) != 0))
        groupIndex.set(id, Int32(groups.count - 1))
        return groups.count - 1
    }
}

/// What the transaction rules share with the queries and with `check`, outside the generic decoder.
enum TransactionRules {
    /// The columns ``TransactionDecoder/decode(_:)`` reads, in order (SQLite's text; PostgreSQL's
    /// reader selects the same columns, its typed times as contract text).
    static let select = """
        SELECT t.id, t.user_id, t.balance_id, t.category_id, t.group_id, t.kind, t.to_balance_id,
               t.amount_minor, t.currency, t.occurred_at, t.method, t.description, t.recurrence_days, t.created_at,
               t.deleted_at
        FROM transactions t
        """

    /// The kind named by `b` exactly, or nil. (Here, not in the generic decoder, so that passing it
    /// as a closure captures no generic metatype.)
    static func kind(_ b: UnsafeBufferPointer<UInt8>) -> Transaction.Kind? {
        if b.isExactly("expense") { return .expense }
        if b.isExactly("income") { return .income }
        if b.isExactly("transfer") { return .transfer }
        return nil
    }

    /// The reason for a row whose `user_id` names no user (also used by `check`'s orphan scan).
    static func missingUser(_ userId: Int64) -> String { "user_id \(userId) does not exist" }

    /// `bytes` as text with each NUL byte replaced by U+FFFD.
    static func showingNul(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly `text`'s UTF-8 bytes.
    @inline(__always)
    func isExactly(_ text: StaticString) -> Bool {
        count == text.utf8CodeUnitCount && (count == 0 || memcmp(baseAddress!, text.utf8Start, count) == 0)
    }
}
