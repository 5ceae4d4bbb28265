import EZCore
import GRDB

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
    let db: Database
    let ledger: Ledger

    /// The live (not deleted) user `id`, or nil when there is none.
    package func account(_ id: Int64) throws -> LedgerAccount? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT role FROM users WHERE id = ? AND deleted_at IS NULL"),
                                         arguments: [id]) else { return nil }
        return LedgerAccount(id: id, isAdmin: (row[0] as String?) == "admin")
    }

    /// True when `parent` is a parent, and `child` a live child, of the same family.
    package func isParent(_ parent: Int64, of child: Int64) throws -> Bool {
        let sql = """
            SELECT 1 FROM family_members p
            JOIN family_members c ON c.family_id = p.family_id
            JOIN users u ON u.id = c.user_id
            WHERE p.user_id = ? AND p.role = 'parent' AND c.user_id = ? AND c.role = 'child' AND u.deleted_at IS NULL
            """
        return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [parent, child]) != nil
    }

    /// Everything one user's report may draw on, through local date `through` (as ``Ledger/loadUser(id:through:)``).
    package func loadUser(id: Int64, through: CivilDate) throws -> UserLedger {
        var loader = UserLoader(db: db, rates: ledger.rates, features: ledger.features, through: through, path: ledger.path)
        return try loader.load(userId: id, withChildren: true).get()
    }

    /// User `id`'s own rows that can fall on local dates `from...through` in any time zone (a
    /// two-day margin each side): their transactions and group expenses, categories and
    /// balances, without budgets, savings goals, logins or children. Much less than
    /// ``loadUser(id:through:)`` reads for a long-standing user, and enough for a transaction
    /// list or statistics over the window (not for a statement's running balances).
    package func loadWindow(id: Int64, from: CivilDate, through: CivilDate) throws -> UserLedger {
        var loader = UserLoader(db: db, rates: ledger.rates, features: ledger.features, through: through, path: ledger.path)
        loader.lowerBound = from.adding(days: -2).description
        return try loader.loadWindow(userId: id).get()
    }

    /// Every user row, deleted ones included (as ``Ledger/allUsers()``), in this snapshot.
    package func allUsers() throws -> (users: [User], quarantined: [QuarantinedRow]) {
        try Ledger.allUsers(db, rates: ledger.rates, features: ledger.features)
    }

    /// The ledger's exchange rates (loaded when it was opened).
    package var rates: RateTable { ledger.rates }

    /// The ledger's path, as given.
    package var path: String { ledger.path }
}

extension Ledger {
    /// Runs `body` inside one read transaction (one consistent snapshot of the ledger).
    package func readTransaction<T>(_ body: (LedgerReadTransaction) throws -> T) throws -> T {
        do {
            return try queue.read { db in try body(LedgerReadTransaction(db: db, ledger: self)) }
        } catch let error as DatabaseError {
            throw Ledger.classify(error, path: path, busyTimeout: busyTimeout)
        }
    }

    /// Checks the open connection still reads the ledger and matches the contract (for readiness probes).
    package func checkReadable() throws(LedgerError) {
        try read { db in try Ledger.checkSchema(db, path: path) }
    }
}
