import EZLedger
import PostgresNIO

/// The rows PostgresNIO received for one query, read as the contract's rules read rows (see
/// ``LedgerRows``): a column's PostgreSQL type gives its storage class (`bigint`, `integer`,
/// `smallint` and `boolean` are integers, `double precision`, `real` and `numeric` reals, `bytea`
/// a blob, anything else text) and values convert as SQLite converts them.
///
/// A per-user query's rows are all received before the first is read (one user's rows at most:
/// memory stays bounded by the largest user); a whole-table query (every user, every rate) is read
/// through a server-side cursor, a batch at a time (``init(cursor:)``). Either way other queries
/// may run on the one connection between two rows.
package final class PostgresRows: LedgerRows {
    private var rows: [PostgresRow]
    private var position = -1
    /// The current row's cells (binary format: integers big-endian, text as UTF-8).
    private var cells: [PostgresCell] = []
    /// Fetches the next batch of a cursor's rows (empty at the end); nil for a query received whole.
    private let fetch: (() throws -> [PostgresRow])?

    init(_ rows: [PostgresRow]) { self.rows = rows; self.fetch = nil }

    /// Rows read a batch at a time with `fetch`.
    init(cursor fetch: @escaping () throws -> [PostgresRow]) { self.rows = []; self.fetch = fetch }

    package func next() throws -> Bool {
        position += 1
        if position >= rows.count, let fetch {
            rows = try fetch()
            position = 0
        }
        guard position < rows.count else { cells = []; return false }
        cells = Array(rows[position])
        return true
    }

    package func type(_ i: Int32) -> ColumnType {
        let cell = cells[Int(i)]
        guard cell.bytes != nil else { return .null }
        return Self.storageClass(cell.dataType)
    }

    static func storageClass(_ type: PostgresDataType) -> ColumnType {
        switch type {
        case .int8, .int4, .int2, .bool: return .integer
        case .float8, .float4, .numeric: return .real
        case .bytea: return .blob
        default: return .text
        }
    }

    package func int64(_ i: Int32) -> Int64 {
        let cell = cells[Int(i)]
        guard let bytes = cell.bytes else { return 0 }
        if cell.format == .binary {
            let at = bytes.readerIndex
            switch cell.dataType {
            case .int8: return bytes.getInteger(at: at, as: Int64.self) ?? 0
            case .int4: return Int64(bytes.getInteger(at: at, as: Int32.self) ?? 0)
            case .int2: return Int64(bytes.getInteger(at: at, as: Int16.self) ?? 0)
            case .bool: return Int64(bytes.getInteger(at: at, as: UInt8.self) ?? 0)
            case .float8, .float4, .numeric: return Self.integer(fromReal: double(i))
            default: break
            }
        }
        return withText(i) { Self.integer(fromText: $0) }
    }

    package func double(_ i: Int32) -> Double {
        let cell = cells[Int(i)]
        guard cell.bytes != nil else { return 0 }
        switch cell.dataType {
        case .float8, .float4, .numeric: return (try? cell.decode(Double.self)) ?? 0
        case .int8, .int4, .int2, .bool: return Double(int64(i))
        default: return withText(i) { Double(String(decoding: $0, as: UTF8.self)) ?? 0 }
        }
    }

    package func withText<R>(_ i: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let cell = cells[Int(i)]
        guard let bytes = cell.bytes else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        switch (cell.format, Self.storageClass(cell.dataType)) {
        case (.binary, .integer):
            var text = String(int64(i))
            return try text.withUTF8(body)
        case (.binary, .real):
            var text = String(double(i))
            return try text.withUTF8(body)
        default:
            return try bytes.withUnsafeReadableBytes { raw in
                try body(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count))
            }
        }
    }

    /// SQLite's text-to-integer conversion: the leading decimal integer, 0 when there is none.
    private static func integer(fromText b: UnsafeBufferPointer<UInt8>) -> Int64 {
        var i = 0
        while i < b.count, b[i] == 0x20 { i += 1 }
        var negative = false
        if i < b.count, b[i] == 0x2D || b[i] == 0x2B { negative = b[i] == 0x2D; i += 1 }
        var value: Int64 = 0
        while i < b.count, b[i] &- 0x30 <= 9 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(Int64(b[i] &- 0x30))
            if o1 || o2 { return negative ? .min : .max }
            value = s
            i += 1
        }
        return negative ? -value : value
    }

    /// SQLite's real-to-integer conversion: truncation, clamped.
    private static func integer(fromReal v: Double) -> Int64 {
        guard v.isFinite else { return 0 }
        if v >= 9.2e18 { return .max }
        if v <= -9.2e18 { return .min }
        return Int64(v)
    }
}
