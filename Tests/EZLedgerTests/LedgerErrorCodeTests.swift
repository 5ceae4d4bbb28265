@testable import EZLedger
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// Errors that come from SQLite keep its result code, so callers classify them by code, not by message.
final class LedgerErrorCodeTests: XCTestCase {
    func testAHotJournalIsAnUnfinishedWriteCarryingSQLiteReadonlyRollback() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        for day in 1...28 {
            for n in 0..<60 {
                try ledger.expense(alice, Int64(100 + n), on: String(format: "2026-09-%02dT10:00:00+02:00", day),
                                   description: String(repeating: "x", count: 200))
            }
        }
        let crashed = ledger.folder.appendingPathComponent("crashed.sqlite").path
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = 10") }
        let app = try DatabaseQueue(path: ledger.path, configuration: config)
        try app.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE transactions SET description = description || 'y'")
            try FileManager.default.copyItem(atPath: ledger.path, toPath: crashed)
            try FileManager.default.copyItem(atPath: ledger.path + "-journal", toPath: crashed + "-journal")
            try db.execute(sql: "ROLLBACK")
        }
        try app.close()
        XCTAssertThrowsError(try Ledger(path: crashed)) { error in
            guard case .unfinishedWrite(let path, _)? = error as? LedgerError else { return XCTFail("got \(error)") }
            XCTAssertEqual(path, crashed)
            XCTAssertEqual((error as? LedgerError)?.sqliteResultCode, 8, "SQLITE_READONLY")
            XCTAssertEqual((error as? LedgerError)?.sqliteCode, 776, "SQLITE_READONLY_ROLLBACK")
        }
    }

    /// A ledger truncated while it was being read failed with SQLITE_CORRUPT and the connection's
    /// stale message, "not an error", so the one line read "'l.sqlite' is not a usable SQLite
    /// ledger: not an error" (outside faults test). The code's own text stands in for it.
    func testAStaleNotAnErrorMessageGivesWayToTheResultCodesText() {
        let stale = DatabaseError(resultCode: .SQLITE_CORRUPT, message: "not an error")
        let error = Ledger.classify(stale, path: "l.sqlite", busyTimeout: 10)
        XCTAssertEqual("\(error)", "'l.sqlite' is not a usable SQLite ledger: database disk image is malformed")
        let io = Ledger.classify(DatabaseError(resultCode: .SQLITE_IOERR, message: "not an error"), path: "l.sqlite", busyTimeout: 10)
        XCTAssertFalse("\(io)".contains("not an error"), "\(io)")
        let said = Ledger.classify(DatabaseError(resultCode: .SQLITE_NOTADB, message: "file is not a database"), path: "l.sqlite", busyTimeout: 10)
        XCTAssertEqual("\(said)", "'l.sqlite' is not a usable SQLite ledger: file is not a database")
    }

    func testErrorsNotFromSQLiteCarryNoCode() {
        XCTAssertNil(LedgerError.cannotOpen(path: "x", reason: "it is a directory").sqliteCode)
        XCTAssertNil(LedgerError.schemaMismatch(path: "x", problem: "p").sqliteResultCode)
    }
}
