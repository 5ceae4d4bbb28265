import EZCore

// The reads every backend shares: the contract's rules, defined once, over any ``LedgerReading``.

extension LedgerBackend {
    package func userRefs() throws(LedgerError) -> [UserRef] {
        try withReader { reader in
            var refs: [UserRef] = []
            let rows = try reader.rows(.userRefs, [])
            while try rows.next() {
                refs.append(UserRef(id: rows.int64(0), username: rows.string(1) ?? "", deleted: rows.int64(2) != 0,
                                    createdAt: rows.string(3).flatMap(LedgerTime.init(parsing:)), timezone: rows.string(4)))
            }
            return refs
        }
    }

    package func findUser(_ idOrName: String) throws(LedgerError) -> Int64 {
        let found: Int64? = try withReader { reader in
            // An id only as ids are written ("2", not "02" or "+2"): a user may be named "02".
            if let id = Int64(idOrName), String(id) == idOrName {
                let rows = try reader.rows(.liveUserById, [.integer(id)])
                if try rows.next() { return rows.int64(0) }
            }
            let rows = try reader.rows(.liveUserByName, [.text(idOrName)])
            return try rows.next() ? rows.int64(0) : nil
        }
        guard let found else { throw .unknownUser(path: path, user: idOrName) }
        return found
    }

    package func loadUser(id: Int64, through: CivilDate) throws(LedgerError) -> UserLedger {
        let path = self.path, features = self.features
        let result: Result<UserLedger, LedgerError> = try withReader { reader in
            let rates = try self.rates(in: reader)
            var loader = UserLoader(reader: reader, rates: rates, features: features, through: through, path: path)
            return try loader.load(userId: id, withChildren: true)
        }
        return try result.get()
    }

    package func transactionCount(user id: Int64) throws(LedgerError) -> Int {
        try withReader { reader in
            let rows = try reader.rows(.transactionCount, [.integer(id)])
            return try rows.next() ? Int(rows.int64(0)) : 0
        }
    }

    package func allUsers() throws(LedgerError) -> (users: [User], quarantined: [QuarantinedRow]) {
        let features = self.features
        return try withReader { reader in try readAllUsers(reader, rates: self.rates(in: reader), features: features) }
    }

    package func exchangeRatesDigest() throws(LedgerError) -> String {
        let bytes: [UInt8] = try withReader { reader in
            var out: [UInt8] = []
            let rows = try reader.rows(.exchangeRatesText, [])
            while try rows.next() {
                for i: Int32 in 0..<4 { out.append(contentsOf: (rows.string(i) ?? "").utf8); out.append(0) }
            }
            return out
        }
        return FileDigest.sha256(bytes)
    }

    package func deliveryContacts() throws(LedgerError) -> [DeliveryContact] {
        try withReader { reader in
            let query: LedgerQuery = try reader.hasColumn("users", "statement_email") ? .deliveryContacts : .deliveryContactsWithoutOptIn
            var out: [DeliveryContact] = []
            let rows = try reader.rows(query, [])
            while try rows.next() {
                out.append(DeliveryContact(id: rows.int64(0), username: rows.string(1) ?? "", email: rows.wholeString(2) ?? "",
                                           locale: rows.string(3) ?? "en_US", deleted: rows.int64(4) != 0,
                                           statementEmail: RowValidator.statementEmail(rows, 5),
                                           createdAt: rows.type(6) == .null ? nil : rows.withText(6, LedgerTime.parse)))
            }
            return out
        }
    }

    /// Errors the body throws on its own (a server's "not found" answer) come out unchanged; the
    /// backend's errors as ``LedgerError``s.
    package func readTransaction<T>(_ body: (LedgerReadTransaction) throws -> T) throws -> T {
        let path = self.path, features = self.features
        var own: (any Error)?
        let value: T? = try withReader { reader -> T? in
            let rates = try self.rates(in: reader)
            do {
                return try body(LedgerReadTransaction(reader: reader, rates: rates, features: features, path: path))
            } catch {
                if error is LedgerError || classify(error) != nil { throw error }
                own = error
                return nil
            }
        }
        if let own { throw own }
        return value!
    }

    package func quarantinedOutsideUsers() throws(LedgerError) -> [QuarantinedRow] {
        let rates = quarantinedRates, features = self.features
        return try withReader { reader in
            Set(rates).union(try LedgerHealth.rowsOfNoUser(reader, features: features)).sorted()
        }
    }

    package func health() throws(LedgerError) -> LedgerHealth {
        let rates = self.rates, path = self.path, quarantinedRates = self.quarantinedRates, features = self.features
        return try withReader { reader in
            try LedgerHealth.scan(reader, rates: rates, features: features, path: path, quarantinedRates: quarantinedRates)
        }
    }
}

/// Every user row, deleted ones included, inside an open read transaction; rows that break the
/// contract are returned as quarantined rows instead.
func readAllUsers<Reader: LedgerReading>(_ reader: Reader, rates: RateTable,
                                         features: LedgerFeatures) throws -> (users: [User], quarantined: [QuarantinedRow]) {
    var validator = RowValidator(rates: rates, features: features)
    var users: [User] = []
    var bad: [QuarantinedRow] = []
    let rows = try reader.rows(validator.allUserRows, [])
    while try rows.next() {
        switch try validator.user(rows) {
        case .valid(let u): users.append(u)
        case .ignored: break
        case .quarantined(let why): bad.append(QuarantinedRow(table: "users", id: rows.int64(0), reason: why))
        }
    }
    return (users, bad)
}

// MARK: - Rates

/// The exchange_rates table read with the contract's rules: valid rows in the table, the others quarantined.
package func loadExchangeRates<Reader: LedgerReading>(_ reader: Reader) throws -> (RateTable, [QuarantinedRow]) {
    var table = RateTable()
    var bad: [QuarantinedRow] = []
    var money: [UInt32: Bool] = [:]
    /// Whether a packed code is ISO 4217 money, each code looked up once.
    func isMoney(_ packed: UInt32, _ known: inout [UInt32: Bool]) -> Bool {
        if let answer = known[packed] { return answer }
        let code = String(decoding: [UInt8(packed >> 16 & 0xFF), UInt8(packed >> 8 & 0xFF), UInt8(packed & 0xFF)], as: UTF8.self)
        let answer = ISO4217.isMoney(code)
        known[packed] = answer
        return answer
    }
    let rows = try reader.rows(.exchangeRates, [])
    // Every open reads all of a ledger's rates (thousands), so each column is read in place: no
    // string is made for a day or a currency code unless the row is quarantined.
    while try rows.next() {
        let id = rows.int64(0)
        guard let day = rows.withText(1, { CivilDate(iso: $0) }) else {
            bad.append(QuarantinedRow(table: "exchange_rates", id: id, reason: "day '\(rows.shown(1))' is not a date"))
            continue
        }
        guard let base = rows.withText(2, Currency.packedCode), let quote = rows.withText(3, Currency.packedCode) else {
            let base = rows.string(2), quote = rows.string(3)
            bad.append(QuarantinedRow(table: "exchange_rates", id: id, reason: "invalid currency pair '\(base ?? "NULL")'/'\(quote ?? "NULL")'"))
            continue
        }
        // The same rules as a row's currency (ISO 4217 money), and two different currencies: a
        // rate of EUR into EUR, or into XXQ or gold, converts nothing a report can count.
        guard base != quote, isMoney(base, &money), isMoney(quote, &money) else {
            let base = rows.string(2) ?? "", quote = rows.string(3) ?? ""
            let why = base == quote ? "the same currency twice" : "not an ISO 4217 currency money is kept in"
            bad.append(QuarantinedRow(table: "exchange_rates", id: id, reason: "invalid currency pair '\(base)'/'\(quote)' (\(why))"))
            continue
        }
        let type = rows.type(4)
        guard type == .real || type == .integer, let rate = DecimalRate(rows.double(4)) else {
            bad.append(QuarantinedRow(table: "exchange_rates", id: id, reason: "rate '\(rows.shown(4))' is not a positive number"))
            continue
        }
        table.add(day: day, packedBase: base, packedQuote: quote, rate: rate)
    }
    table.finish()
    table.quarantined = bad
    return (table, bad)
}
