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

    /// The reads of `reader`, whichever backend it belongs to.
    init<Reader: LedgerReading>(reader: Reader, rates: RateTable, path: String) {
        accountOf = { id in
            let row = try reader.rows(.account, [.integer(id)])
            guard try row.next() else { return nil }
            return LedgerAccount(id: id, isAdmin: row.string(0) == "admin")
        }
        parentOf = { parent, child in try reader.rows(.isParent, [.integer(parent), .integer(child)]).next() }
        load = { id, through in
            var loader = UserLoader(reader: reader, rates: rates, through: through, path: path)
            return try loader.load(userId: id, withChildren: true).get()
        }
    }

    /// The live (not deleted) user `id`, or nil when there is none.
    package func account(_ id: Int64) throws -> LedgerAccount? { try accountOf(id) }

    /// True when `parent` is a parent, and `child` a live child, of the same family.
    package func isParent(_ parent: Int64, of child: Int64) throws -> Bool { try parentOf(parent, child) }

    /// Everything one user's report may draw on, through local date `through` (as ``LedgerStore/loadUser(id:through:)``).
    package func loadUser(id: Int64, through: CivilDate) throws -> UserLedger { try load(id, through) }
}
