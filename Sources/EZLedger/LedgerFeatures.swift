
/// The optional additions to the ledger contract a ledger has.
///
/// Contract 1 grows by addition only: a column or table added after it was first published is
/// optional, and a ledger written before it (which lacks it) reads exactly as it always did.
/// The engine detects them once when it opens the ledger (``LedgerContract/optionalColumns``,
/// ``LedgerContract/optionalTables``). `users.statement_email`, only read by `deliver`, is
/// detected where it is read.
package struct LedgerFeatures: Hashable, Sendable {
    /// The ledger has `users.month_start_day` (months that start on payday).
    package var monthStartDay: Bool
    /// The ledger has the `group_payments` table (members settling up).
    package var groupPayments: Bool

    package init(monthStartDay: Bool, groupPayments: Bool) {
        self.monthStartDay = monthStartDay
        self.groupPayments = groupPayments
    }

    /// A ledger with none of the optional additions.
    package static let none = LedgerFeatures(monthStartDay: false, groupPayments: false)

    /// The additions present in the ledger `reader` reads, whichever backend holds it.
    package static func detect<Reader: LedgerReading>(_ reader: Reader) throws -> LedgerFeatures {
        LedgerFeatures(monthStartDay: try reader.hasColumn("users", "month_start_day"),
                       groupPayments: try reader.hasTable("group_payments"))
    }
}
