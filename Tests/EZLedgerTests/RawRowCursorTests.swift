import GRDB
import XCTest
@testable import EZLedger

/// The C-level row cursor reports each column's storage class, lends text bytes as stored, and
/// turns a failed step into an error that names SQLite's message and the SQL.
final class RawRowCursorTests: XCTestCase {
    func testColumnsReportTheirStorageClassAndValues() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let rows = try RawRowCursor(db.cachedStatement(sql: "SELECT ?, 2.5, 'héllo', X'00FF', NULL"), arguments: [Int64.min], in: db)
            XCTAssertTrue(try rows.next())
            XCTAssertEqual((0..<5).map { rows.type(Int32($0)) }, [.integer, .real, .text, .blob, .null])
            XCTAssertEqual(rows.int64(0), Int64.min)
            XCTAssertEqual(rows.withText(2) { Array($0) }, Array("héllo".utf8))
            XCTAssertEqual(rows.withText(4) { $0.count }, 0, "NULL lends no bytes")
            XCTAssertFalse(try rows.next())
        }
    }

    func testTheStatementIsReboundAndRestartedForEachUse() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let sql = "SELECT value FROM json_each(?)"
            var seen: [[Int64]] = []
            for list in ["[1,2,3]", "[7]"] {
                let rows = try RawRowCursor(db.cachedStatement(sql: sql), arguments: [list], in: db)
                var values: [Int64] = []
                while try rows.next() { values.append(rows.int64(0)) }
                seen.append(values)
            }
            XCTAssertEqual(seen, [[1, 2, 3], [7]])
            // Left half-read, a cached statement still starts over on its next use.
            let first = try RawRowCursor(db.cachedStatement(sql: sql), arguments: ["[4,5]"], in: db)
            XCTAssertTrue(try first.next())
            let again = try RawRowCursor(db.cachedStatement(sql: sql), arguments: ["[4,5]"], in: db)
            XCTAssertTrue(try again.next())
            XCTAssertEqual(again.int64(0), 4)
        }
    }

    func testAFailedStepThrowsWithSQLitesMessageAndTheSQL() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let sql = "SELECT abs(?)"
            let rows = try RawRowCursor(db.cachedStatement(sql: sql), arguments: [Int64.min], in: db)
            XCTAssertThrowsError(try rows.next()) { error in
                let e = error as? DatabaseError
                XCTAssertEqual(e?.message, "integer overflow")
                XCTAssertEqual(e?.sql, sql)
            }
            // The failed statement was released and serves the next cursor.
            let again = try RawRowCursor(db.cachedStatement(sql: sql), arguments: [-5], in: db)
            XCTAssertTrue(try again.next())
            XCTAssertEqual(again.int64(0), 5)
        }
    }
}
