import GRDB
import GRDBSQLite

/// Steps one of GRDB's prepared statements with SQLite's C API and reads the current row's
/// columns in place: integers as `Int64`, text as the bytes SQLite holds, with no `Row`, no
/// `DatabaseValue` and no `String` per column.
///
/// GRDB owns the statement (it comes from the connection's statement cache and is finalised by
/// GRDB); this cursor keeps a strong reference to it while it is used and never hands the C
/// pointer out. Text bytes are lent to a closure and are valid only inside it, until the next
/// ``next()``. Use it only inside the database access that made the statement, for read-only
/// `SELECT`s, and keep one cursor per statement at a time (making a cursor resets the statement).
///
/// ```swift
/// let rows = try RawRowCursor(db.cachedStatement(sql: "SELECT id, name FROM t WHERE x = ?"), arguments: [1], in: db)
/// while try rows.next() { let id = rows.int64(0); rows.withText(1) { bytes in ... } }
/// ```
package final class RawRowCursor: LedgerRows {
    private let statement: Statement
    private let handle: SQLiteStatement
    private let connection: SQLiteConnection?
    private let width: Int32
    /// The current row's column values (`sqlite3_column_value`), fetched once per step: each
    /// `sqlite3_column_*` call checks the statement and the connection's error state, and a row
    /// is read through some thirty of them. Valid until the next step; never handed out.
    private let values: UnsafeMutablePointer<OpaquePointer?>
    /// Whether the last step gave a row (the columns may be read).
    private var onRow = false

    /// Binds `arguments` (resetting the statement first) and readies the first ``next()``.
    ///
    /// - Throws: GRDB's `DatabaseError` when the arguments do not fit the statement.
    init(_ statement: Statement, arguments: StatementArguments, in db: Database) throws {
        try statement.setArguments(arguments)
        self.statement = statement
        self.handle = statement.sqliteStatement
        self.connection = db.sqliteConnection
        self.width = sqlite3_column_count(statement.sqliteStatement)
        self.values = .allocate(capacity: Int(max(width, 1)))
        values.initialize(repeating: nil, count: Int(max(width, 1)))
    }

    // No reset here: another cursor may already be using the cached statement. A statement read to
    // its end holds nothing; one that failed is reset by next(); the next cursor resets it anyway.
    deinit { values.deallocate() }

    /// Advances to the next row: true when there is one, false after the last.
    ///
    /// - Throws: a `DatabaseError` with SQLite's result code and message and the statement's SQL.
    package func next() throws -> Bool {
        let code = sqlite3_step(handle)
        onRow = code == SQLITE_ROW
        switch code {
        case SQLITE_ROW:
            for i in 0..<width { values[Int(i)] = sqlite3_column_value(handle, i) }
            return true
        case SQLITE_DONE: return false
        default:
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            sqlite3_reset(handle)   // release the statement; it repeats the error just read
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    /// The storage class of column `i` in the current row. Ask before reading the column: reading
    /// it as another type converts the value in place.
    @inline(__always)
    package func type(_ i: Int32) -> ColumnType {
        assert(onRow && i >= 0 && i < width, "column \(i) of \(width), on a row: \(onRow)")
        switch sqlite3_value_type(values[Int(i)]) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Column `i` as an integer (SQLite's conversion rules apply to other types).
    @inline(__always)
    package func int64(_ i: Int32) -> Int64 {
        assert(onRow && i >= 0 && i < width, "column \(i) of \(width), on a row: \(onRow)")
        return sqlite3_value_int64(values[Int(i)]) }

    /// Column `i` as a double (SQLite's conversion rules apply to other types).
    package func double(_ i: Int32) -> Double {
        assert(onRow && i >= 0 && i < width, "column \(i) of \(width), on a row: \(onRow)")
        return sqlite3_value_double(values[Int(i)])
    }

    /// Lends column `i`'s text as UTF-8 bytes (not NUL-terminated; empty for NULL) to `body`.
    /// The bytes must not escape `body`.
    @inline(__always)
    package func withText<R>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        assert(onRow && i >= 0 && i < width, "column \(i) of \(width), on a row: \(onRow)")
        let value = values[Int(i)]
        guard let text = sqlite3_value_text(value) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let count = Int(sqlite3_value_bytes(value))
        return try body(UnsafeBufferPointer(start: text, count: count))
    }
}
