/// A column's storage class in the current row, as SQLite's `typeof()` names it (a PostgreSQL
/// reader maps its column types onto these: `bigint` → integer, `text` → text, and so on).
package enum ColumnType: Equatable, Sendable {
    case integer, real, text, blob, null
}

/// The rows of one ledger query, read one at a time with their columns by position: what the
/// contract's rules (``TransactionDecoder``, ``RowValidator``, the per-user loader) read, whichever
/// database the rows come from.
///
/// Each backend gives its own cursor: ``RawRowCursor`` reads SQLite's column bytes in place; the
/// PostgreSQL reader (EZPostgres) reads the cells PostgresNIO received. Both answer a column's
/// storage class and its value with SQLite's conversions (an integer read as text gives its digits),
/// so a rule written once behaves the same on both.
///
/// ```swift
/// let rows = try reader.rows(.balancesOfUser, [.integer(7)])
/// while try rows.next() { let id = rows.int64(0); let name = rows.string(2) }
/// ```
package protocol LedgerRows: AnyObject {
    /// Advances to the next row: true when there is one, false after the last.
    func next() throws -> Bool
    /// The storage class of column `i` in the current row.
    func type(_ i: Int32) -> ColumnType
    /// Column `i` as an integer (0 for NULL; other types converted as SQLite converts them).
    func int64(_ i: Int32) -> Int64
    /// Column `i` as a double (0 for NULL; other types converted as SQLite converts them).
    func double(_ i: Int32) -> Double
    /// Lends column `i`'s text as UTF-8 bytes (empty for NULL; an integer as its digits) to `body`.
    /// The bytes must not escape `body`.
    func withText<R>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R
}

extension LedgerRows {
    /// Whether column `i` is NULL.
    @inline(__always)
    package func isNull(_ i: Int32) -> Bool { type(i) == .null }

    /// Column `i` as text: nil for NULL, else its whole text form with each NUL byte shown as
    /// U+FFFD and invalid UTF-8 repaired, as the contract reads every text column: a username
    /// `a` + NUL + `b` is neither cut to `a` (the same as another user's) nor hidden.
    package func string(_ i: Int32) -> String? {
        guard type(i) != .null else { return nil }
        return withText(i) { bytes in
            bytes.firstIndex(of: 0) == nil ? String(decoding: bytes, as: UTF8.self) : TransactionRules.showingNul(bytes)
        }
    }

    /// Column `i` as its whole text with each NUL byte kept as itself (nil for NULL; invalid UTF-8
    /// repaired): for a value that is validated rather than shown, such as an e-mail address,
    /// whose check then names the NUL a control character (``string(_:)`` shows it as U+FFFD).
    package func wholeString(_ i: Int32) -> String? {
        guard type(i) != .null else { return nil }
        return withText(i) { String(decoding: $0, as: UTF8.self) }
    }

    /// Column `i` as an integer, or nil for NULL.
    package func optionalInt64(_ i: Int32) -> Int64? {
        type(i) == .null ? nil : int64(i)
    }

    /// Column `i` as text for a reason: its text form, or `NULL`.
    package func shown(_ i: Int32) -> String { string(i) ?? "NULL" }
}
