import EZCore

/// What the ledger says about a caller: enough to decide what they may see.
package struct LedgerAccount: Sendable, Equatable {
    /// The user's id.
    package var id: Int64
    /// `users.role` is `admin`.
    package var isAdmin: Bool
}

/// One read transaction on the ledger: every read through it sees the same snapshot, so a
/// request's authorization check and the rows it then renders cannot disagree.
package struct LedgerReadTransaction {
    private let accountOf: (Int64) throws -> LedgerAccount?
    private let parentOf: (Int64, Int64) throws -> Bool
    private let load: (Int64, CivilDate) throws -> UserLedger
    private let loadWindowOf: (Int64, CivilDate, CivilDate) throws -> UserLedger
    private let everyUser: () throws -> (users: [User], quarantined: [QuarantinedRow])
    private let outsideUsers: () throws -> [QuarantinedRow]
    /// The ledger's exchange rates (loaded when it was opened).
    package let rates: RateTable
    /// The ledger as errors name it (a path, or a URL without password).
    package let path: String

    /// The reads of `reader`, whichever backend it belongs to.
    init<Reader: LedgerReading>(reader: Reader, rates: RateTable, features: LedgerFeatures, path: String) {
        self.rates = rates
        self.path = path
        accountOf = { id in
            let row = try reader.rows(.account, [.integer(id)])
            guard try row.next() else { return nil }
            return LedgerAccount(id: id, isAdmin: row.string(0) == "admin")
        }
        parentOf = { parent, child in try reader.rows(.isParent, [.integer(parent), .integer(child)]).next() }
        load = { id, through in
            var loader = UserLoader(reader: reader, rates: rates, features: features, through: through, path: path)
            return try loader.load(userId: id, withChildren: true).get()
        }
        loadWindowOf = { id, from, through in
            var loader = UserLoader(reader: reader, rates: rates, features: features, through: through, path: path)
            loader.lowerBound = from.adding(days: -2).description
            return try loader.loadWindow(userId: id).get()
        }
        everyUser = { try readAllUsers(reader, rates: rates, features: features) }
        outsideUsers = { Set(rates.quarantined).union(try LedgerHealth.rowsOfNoUser(reader, features: features)).sorted() }
    }

    /// The live (not deleted) user `id`, or nil when there is none.
    package func account(_ id: Int64) throws -> LedgerAccount? { try accountOf(id) }

    /// True when `parent` is a parent, and `child` a live child, of the same family.
    package func isParent(_ parent: Int64, of child: Int64) throws -> Bool { try parentOf(parent, child) }

    /// Everything one user's report may draw on, through local date `through` (as ``LedgerStore/loadUser(id:through:)``).
    package func loadUser(id: Int64, through: CivilDate) throws -> UserLedger { try load(id, through) }

    /// User `id`'s own rows that can fall on local dates `from...through` in any time zone (a
    /// two-day margin each side): their transactions and group expenses, categories and
    /// balances, without budgets, savings goals, logins or children. Much less than
    /// ``loadUser(id:through:)`` reads for a long-standing user, and enough for a transaction
    /// list or statistics over the window (not for a statement's running balances).
    package func loadWindow(id: Int64, from: CivilDate, through: CivilDate) throws -> UserLedger {
        try loadWindowOf(id, from, through)
    }

    /// Every user row, deleted ones included (as ``LedgerStore/allUsers()``), in this snapshot.
    package func allUsers() throws -> (users: [User], quarantined: [QuarantinedRow]) { try everyUser() }

    /// Rows that break the contract and belong to no user's statement, in this snapshot: rate rows,
    /// and rows whose user, family member or group does not exist (as ``LedgerStore/quarantinedOutsideUsers()``).
    package func quarantinedOutsideUsers() throws -> [QuarantinedRow] { try outsideUsers() }
}
