import GRDB
import GRDBSQLite

/// A column's storage class in the current row, as SQLite's `typeof()` names it.
enum ColumnType: Equatable {
    case integer, real, text, blob, null
}

/// Steps one of GRDB's prepared statements with SQLite's C API and reads the current row's
/// columns in place: integers as `Int64`, text as the bytes SQLite holds, with no `Row`, no
/// `DatabaseValue` and no `String` per column.
///
/// GRDB owns the statement (it comes from the connection's statement cache and is finalised by
/// GRDB); this cursor keeps a strong reference to it while it is used and never hands the C
/// pointer out. Text bytes are lent to a closure and are valid only inside it, until the next
/// ``next()``. Use it only inside the database access that made the statement, for read-only
/// `SELECT`s.
///
/// ```swift
/// var rows = try RawRowCursor(db.cachedStatement(sql: "SELECT id, name FROM t WHERE x = ?"), arguments: [1], in: db)
/// while try rows.next() { let id = rows.int64(0); rows.withText(1) { bytes in ... } }
/// ```
struct RawRowCursor {
    private let statement: Statement
    private let handle: SQLiteStatement
    private let connection: SQLiteConnection?

    /// Binds `arguments` (resetting the statement first) and readies the first ``next()``.
    ///
    /// - Throws: GRDB's `DatabaseError` when the arguments do not fit the statement.
    init(_ statement: Statement, arguments: StatementArguments, in db: Database) throws {
        try statement.setArguments(arguments)
        self.statement = statement
        self.handle = statement.sqliteStatement
        self.connection = db.sqliteConnection
    }

    /// Advances to the next row: true when there is one, false after the last.
    ///
    /// - Throws: a `DatabaseError` with SQLite's result code and message and the statement's SQL.
    func next() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = connection.map { String(cString: sqlite3_errmsg($0)) }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message, sql: statement.sql)
        }
    }

    /// The storage class of column `i` in the current row. Ask before reading the column: reading
    /// it as another type converts the value in place.
    @inline(__always)
    func type(_ i: Int32) -> ColumnType {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer
        case SQLITE_FLOAT: return .real
        case SQLITE_TEXT: return .text
        case SQLITE_BLOB: return .blob
        default: return .null
        }
    }

    /// Column `i` as an integer (SQLite's conversion rules apply to other types).
    @inline(__always)
    func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(handle, i) }

    /// Lends column `i`'s text as UTF-8 bytes (not NUL-terminated; empty for NULL) to `body`.
    /// The bytes must not escape `body`.
    @inline(__always)
    func withText<R>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard let text = sqlite3_column_text(handle, i) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        let count = Int(sqlite3_column_bytes(handle, i))
        return try body(UnsafeBufferPointer(start: text, count: count))
    }
}
