import EZCore
import EZTestSupport
import GRDB
import XCTest
@testable import EZLedger

/// A ledger file is not trusted to enforce its own NOT NULL: a transaction or a settle-up
/// payment whose `occurred_at` is NULL is quarantined, in the slices and in `check` alike, never
/// silently left out of the figures (a lost payment turns who owes whom around).
final class NullDateTests: XCTestCase {
    /// Rebuilds `table` without its NOT NULL constraints, as an app's hand-made file might be.
    private func loosen(_ ledger: TestLedger, _ table: String) throws {
        try DatabaseQueue(path: ledger.path).write { db in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])!
            try db.execute(sql: sql.replacingOccurrences(of: "NOT NULL", with: "")
                .replacingOccurrences(of: "CREATE TABLE \(table)", with: "CREATE TABLE \(table)_loose"))
            try db.execute(sql: "INSERT INTO \(table)_loose SELECT * FROM \(table)")
            try db.execute(sql: "DROP TABLE \(table)")
            try db.execute(sql: "ALTER TABLE \(table)_loose RENAME TO \(table)")
        }
    }

    func testATransactionWithANullDateIsQuarantinedNotDropped() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann")
        _ = try ledger.income(ann, 100_000, on: "2026-10-01T09:00:00Z")
        let lost = try ledger.expense(ann, 2_041, on: "2026-10-05T12:00:00Z")
        try loosen(ledger, "transactions")
        try ledger.execute("UPDATE transactions SET occurred_at = NULL WHERE id = ?", [lost])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: ann, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(slice.quarantined.map(\.id), [lost], "\(slice.quarantined)")
        XCTAssertEqual(try opened.health().quarantined.filter { $0.table == "transactions" }.map(\.id), [lost])
    }

    func testASettleUpPaymentWithANullDateIsQuarantinedNotDropped() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        let group = try ledger.group("Flat", owner: ann, members: [ann, bob])
        let lost = try ledger.groupPayment(group, from: bob, to: ann, 1_000, on: "2026-10-01T10:00:00Z")
        try loosen(ledger, "group_payments")
        try ledger.execute("UPDATE group_payments SET occurred_at = NULL WHERE id = ?", [lost])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: ann, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(slice.quarantined.filter { $0.table == "group_payments" }.map(\.id), [lost])
        XCTAssertEqual(try opened.health().quarantined.filter { $0.table == "group_payments" }.map(\.id), [lost])
    }
}
