import EZCore
import EZTestSupport
import Foundation
import GRDB
import XCTest
@testable import EZLedger

/// A file that cannot be used gives one clear error naming the file and the problem — never a crash.
final class LedgerOpeningTests: XCTestCase {
    private func tempFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-bad-\(UUID().uuidString).sqlite")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    func testMissingFileIsCannotOpen() {
        XCTAssertThrowsError(try Ledger(path: "/nonexistent/ledger.sqlite")) { error in
            XCTAssertEqual(error as? LedgerError, .cannotOpen(path: "/nonexistent/ledger.sqlite", reason: "no such file"))
            XCTAssertEqual("\(error)", "cannot open ledger '/nonexistent/ledger.sqlite': no such file")
        }
    }

    func testEmptyFileIsNotADatabase() throws {
        let path = try tempFile([])
        XCTAssertThrowsError(try Ledger(path: path)) { error in
            XCTAssertEqual(error as? LedgerError, .notADatabase(path: path, reason: "the file is empty"))
        }
    }

    func testTextFileIsNotADatabase() throws {
        let path = try tempFile(Array("this is not sqlite at all, just some text that is long enough".utf8))
        XCTAssertThrowsError(try Ledger(path: path)) { error in
            guard case .notADatabase(let p, _, _)? = error as? LedgerError else { return XCTFail("got \(error)") }
            XCTAssertEqual(p, path)
        }
    }

    func testTruncatedDatabaseIsReportedNotCrashed() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        for i in 0..<300 { try ledger.expense(alice, 100 + Int64(i), on: "2026-10-03", description: String(repeating: "x", count: 200)) }
        let bytes = try ledger.bytes()
        let path = try tempFile(Array(bytes.prefix(bytes.count / 3)))
        do {
            let opened = try Ledger(path: path)
            _ = try opened.health()
            XCTFail("a truncated ledger was read without an error")
        } catch {
            switch error {
            case .notADatabase, .readFailed: break
            default: XCTFail("unexpected \(error)")
            }
        }
    }

    func testWrongUserVersionIsASchemaMismatch() throws {
        let ledger = try TestLedger()
        try ledger.execute("PRAGMA user_version = 2")
        XCTAssertThrowsError(try Ledger(path: ledger.path)) { error in
            XCTAssertEqual("\(error)", "ledger '\(ledger.path)' does not match the ledger contract: PRAGMA user_version is 2, expected 1")
        }
    }

    func testMissingTableIsNamed() throws {
        let ledger = try TestLedger()
        try ledger.execute("DROP TABLE budget_transfers")
        XCTAssertThrowsError(try Ledger(path: ledger.path)) { error in
            XCTAssertEqual(error as? LedgerError, .schemaMismatch(path: ledger.path, problem: "table 'budget_transfers' is missing"))
        }
    }

    func testMissingColumnIsNamed() throws {
        let ledger = try TestLedger()
        try ledger.execute("DROP INDEX logins_by_user")
        try ledger.execute("ALTER TABLE logins DROP COLUMN at")
        XCTAssertThrowsError(try Ledger(path: ledger.path)) { error in
            XCTAssertEqual(error as? LedgerError, .schemaMismatch(path: ledger.path, problem: "table 'logins' lacks column at"))
        }
    }

    /// A ledger whose table lacks the contract's key (a table rebuilt without its PRIMARY KEY)
    /// counted a repeated transaction twice and gave one user two statements, `check` saying
    /// "Clean": it is refused at open, naming the key. A key declared by a unique index, or
    /// over the same columns in another order, is the same key.
    func testATableWithoutItsKeyIsRefusedByName() throws {
        let ledger = try TestLedger()
        try ledger.execute("PRAGMA foreign_keys = OFF")
        try ledger.execute("CREATE TABLE t2 AS SELECT * FROM transactions")
        try ledger.execute("DROP TABLE transactions")
        try ledger.execute("ALTER TABLE t2 RENAME TO transactions")
        XCTAssertThrowsError(try Ledger(path: ledger.path)) { error in
            XCTAssertEqual(error as? LedgerError, .schemaMismatch(
                path: ledger.path,
                problem: "transactions.id is not declared PRIMARY KEY or UNIQUE, as the contract requires (a repeated key would count its rows twice)"))
        }
        try ledger.execute("CREATE UNIQUE INDEX transactions_id ON transactions(id)")
        XCTAssertNoThrow(try Ledger(path: ledger.path))

        try ledger.execute("CREATE TABLE r2 AS SELECT * FROM exchange_rates")
        try ledger.execute("DROP TABLE exchange_rates")
        try ledger.execute("ALTER TABLE r2 RENAME TO exchange_rates")
        XCTAssertThrowsError(try Ledger(path: ledger.path)) { error in
            XCTAssertTrue("\(error)".contains("(day, base, quote) of exchange_rates are not declared PRIMARY KEY or UNIQUE"), "\(error)")
        }
        try ledger.execute("CREATE UNIQUE INDEX rates_key ON exchange_rates(quote, base, day)")
        XCTAssertNoThrow(try Ledger(path: ledger.path))
    }

    /// Two income rows with id 5 were both counted, `check` saying "Clean", when transactions.id
    /// was unique only under a partial index (`WHERE kind = 'expense'`), or declared TEXT ('5' and
    /// '05') or with no type (5 and '5'): each is unique to SQLite but one id to the engine.
    func testAPartialIndexOrAKeyKeptAsTextIsNotTheContractsKey() throws {
        func rebuilt(id declaration: String, index: String? = nil) throws -> TestLedger {
            let ledger = try TestLedger()
            let sql = try ledger.db.read { db in
                try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'transactions'")!
            }
            try ledger.execute("PRAGMA foreign_keys = OFF")
            try ledger.execute("DROP TABLE transactions")
            try ledger.execute(sql.replacingOccurrences(of: "id INTEGER PRIMARY KEY", with: declaration))
            if let index { try ledger.execute(index) }
            return ledger
        }
        let partial = try rebuilt(id: "id INTEGER", index: "CREATE UNIQUE INDEX tx_id ON transactions(id) WHERE kind = 'expense'")
        XCTAssertThrowsError(try Ledger(path: partial.path)) { error in
            XCTAssertTrue("\(error)".contains("transactions.id is not declared PRIMARY KEY or UNIQUE"), "\(error)")
        }
        let text = try rebuilt(id: "id TEXT PRIMARY KEY")
        XCTAssertThrowsError(try Ledger(path: text.path)) { error in
            XCTAssertEqual(error as? LedgerError, .schemaMismatch(
                path: text.path,
                problem: "transactions.id is declared TEXT, not INTEGER, as the contract requires "
                    + "(a key kept as text is unique as text: '5' and '05' would be one id read twice)"))
        }
        let untyped = try rebuilt(id: "id PRIMARY KEY")
        XCTAssertThrowsError(try Ledger(path: untyped.path)) { error in
            XCTAssertTrue("\(error)".contains("transactions.id is declared with no type, not INTEGER"), "\(error)")
        }
        let bigint = try rebuilt(id: "id BIGINT PRIMARY KEY")
        XCTAssertNoThrow(try Ledger(path: bigint.path), "any INTEGER-affinity type is the key")
    }

    func testOpeningAndCheckingNeverChangesTheFile() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.expense(alice, 1250, on: "2026-10-03T12:00:00+02:00")
        let before = try ledger.bytes()
        let attributesBefore = try FileManager.default.attributesOfItem(atPath: ledger.path)[.modificationDate] as? Date
        let opened = try Ledger(path: ledger.path)
        _ = try opened.health()
        _ = try opened.loadUser(id: alice, through: CivilDate(year: 2026, month: 10, day: 31))
        XCTAssertEqual(try ledger.bytes(), before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: ledger.path)[.modificationDate] as? Date, attributesBefore)
    }

    func testALockedLedgerIsWaitedForThenReportedAsBusy() throws {
        let ledger = try TestLedger()
        try ledger.user("alice")
        let started = Date()
        try ledger.db.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN EXCLUSIVE")
            defer { try? db.execute(sql: "ROLLBACK") }
            XCTAssertThrowsError(try Ledger(path: ledger.path, busyTimeout: 0.5)) { error in
                XCTAssertEqual(error as? LedgerError, .busy(path: ledger.path, seconds: 0.5, sqliteCode: 5))
                XCTAssertEqual((error as? LedgerError)?.sqliteResultCode, 5, "SQLITE_BUSY is kept for callers to classify")
                XCTAssertEqual("\(error)", "ledger '\(ledger.path)' stayed locked by another process for 0.5 s; try again later")
            }
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.5, "the lock was not waited for")
        XCTAssertNoThrow(try Ledger(path: ledger.path, busyTimeout: 0.5), "the ledger opens once the lock is gone")
    }

    func testConnectionRefusesWrites() throws {
        let ledger = try TestLedger()
        let opened = try Ledger(path: ledger.path)
        XCTAssertThrowsError(try opened.read { db in try db.execute(sql: "DELETE FROM users") })
    }
}

/// A WAL ledger on a read-only mount without its -shm (the app stopped, or a `.backup` copy).
final class ReadOnlyWALTests: XCTestCase {
    /// It used to fail with SQLite's bare "unable to open database file".
    func testAWALLedgerThatCannotGetItsSideFilesSaysWhyAndWhatToDo() throws {
        let ledger = try TestLedger()
        _ = try ledger.user("alice")
        try ledger.db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        try ledger.db.close()
        let source = ledger.folder.appendingPathComponent("src").path
        let mounted = ledger.folder.appendingPathComponent("ro").path
        for folder in [source, mounted] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: ledger.path, toPath: source + "/ledger.sqlite")
        guard SystemCommand.run("/bin/mount", ["--bind", source, mounted]) == 0 else {
            throw XCTSkip("cannot bind-mount here (needs root): the read-only WAL test did not run")
        }
        // Lazily: the process keeps a descriptor of each ledger path it read (LedgerFileDescriptors),
        // so a plain umount finds the mount busy and left it behind after every run.
        defer { _ = SystemCommand.run("/bin/umount", ["--lazy", mounted]) }
        XCTAssertEqual(SystemCommand.run("/bin/mount", ["-o", "remount,bind,ro", mounted]), 0)
        XCTAssertThrowsError(try Ledger(path: mounted + "/ledger.sqlite").health()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("it is in WAL mode and its -shm file does not exist"), text)
            XCTAssertTrue(text.contains("PRAGMA journal_mode=DELETE"), text)
        }
    }

}

/// The run's snapshot copy holds every user's rows, password hashes included.
final class LedgerSnapshotTests: XCTestCase {
    /// It used to get the umask's mode (0644: readable by everyone who can read the reports folder).
    func testTheSnapshotCopyIsReadableByItsOwnerOnly() throws {
        let ledger = try TestLedger()
        _ = try ledger.user("alice")
        let copy = ledger.folder.appendingPathComponent("snap/.snapshot.sqlite").path
        try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let previous = umask(0o022)
        defer { umask(previous) }
        let snapshot = try LedgerSnapshot.take(of: try Ledger(path: ledger.path), into: copy)
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int)
        XCTAssertEqual(mode & 0o777, 0o600)
        XCTAssertNoThrow(try snapshot.open().health(), "the copy is a readable ledger")
    }

    /// A ledger damaged in place while a run copied it (cut short by a restore over it, a failing
    /// disk) was copied as it was, schema and all: the run published a manifest of 986 users failed on the
    /// copy, and an admin report of wrong figures marked ok (outside live-ledger test). The copy
    /// is checked page by page: a damaged one is an error naming the ledger, and nothing is kept.
    func testASnapshotOfALedgerDamagedWhileOpenIsRefusedAndNotKept() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        for i in 0..<600 { try ledger.expense(alice, 100 + Int64(i), on: "2026-10-03", description: String(repeating: "x", count: 200)) }
        let bytes = try ledger.bytes()
        let path = ledger.folder.appendingPathComponent("cut.sqlite").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let opened = try Ledger(path: path)   // whole when it opens: the schema check passes
        // Pages past the schema's overwritten in place: the backup copies pages as they are.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: UInt64(bytes.count / 2 / 4096 * 4096))
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 16 * 4096))
        try handle.close()
        let copy = ledger.folder.appendingPathComponent(".snapshot.sqlite").path
        XCTAssertThrowsError(try LedgerSnapshot.take(of: opened, into: copy)) { error in
            guard case .notADatabase(let p, let reason, _)? = error as? LedgerError else { return XCTFail("got \(error)") }
            XCTAssertEqual(p, path)
            XCTAssertFalse(reason.contains(copy), "the error names the copy: \(reason)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy), "a damaged copy was left behind")
    }
}

/// `/readyz`'s check of a ledger a writer holds locked waits on a connection of its own.
final class LedgerReadinessTests: XCTestCase {
    /// The check waited for the lock on the ledger's one connection, so a request that came
    /// meanwhile waited for the check and then for the lock itself: 15 s where the busy timeout
    /// says 10 (outside live-ledger test). Here, with a 2 s timeout: ~2 s, not ~4.
    func testACheckWaitingForALockDoesNotHoldTheLedgersConnection() throws {
        let ledger = try TestLedger()
        _ = try ledger.user("alice")
        try ledger.db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
        let opened = try Ledger(path: ledger.path, busyTimeout: 2)
        let writer = try DatabaseQueue(path: ledger.path)
        let locked = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? writer.inDatabase { db in
                try db.execute(sql: "BEGIN EXCLUSIVE")
                locked.signal()
                Thread.sleep(forTimeInterval: 6)
                try db.execute(sql: "COMMIT")
            }
            released.signal()
        }
        locked.wait()
        let checked = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if case .success = Result(catching: { () throws(LedgerError) in try opened.checkReadable() }) {
                XCTFail("a locked ledger was readable")
            }
            checked.signal()
        }
        Thread.sleep(forTimeInterval: 0.2)   // the check is waiting for the lock
        let started = Date()
        XCTAssertThrowsError(try opened.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM users") })
        let waited = Date().timeIntervalSince(started)
        XCTAssertLessThan(waited, 3.2, "the read waited for the check's wait before its own (\(waited) s)")
        XCTAssertGreaterThan(waited, 1.5, "the read did not wait for the lock at all (\(waited) s)")
        // A server asks whether the schema changed before each request: without waiting, so
        // that the request waits for the lock once, not twice.
        let asked = Date()
        XCTAssertFalse(opened.schemaChangedSinceOpen())
        XCTAssertLessThan(Date().timeIntervalSince(asked), 0.5, "asking about the schema waited for the lock")
        checked.wait()
        released.wait()
    }
}

/// Reading the ledger's bytes beside SQLite (its digest, for provenance and change detection).
final class LedgerLockTests: XCTestCase {
    /// The inodes this process holds a POSIX lock on, from /proc/locks.
    static func lockedInodes() throws -> Set<UInt64> {
        let text = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        var inodes = Set<UInt64>()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields.contains("POSIX"), let i = fields.firstIndex(where: { $0 == "\(getpid())" }),
                  i + 1 < fields.count, let inode = fields[i + 1].split(separator: ":").last.flatMap({ UInt64($0) }) else { continue }
            inodes.insert(inode)
        }
        return inodes
    }

    /// Hashing the ledger with a descriptor of its own, then closing it, dropped the read lock
    /// SQLite holds on a WAL ledger (POSIX locks belong to the process, not the descriptor): the
    /// app's last connection then deleted the WAL under the server, which served old figures.
    func testHashingTheLedgerKeepsSQLitesLockOnIt() throws {
        let ledger = try TestLedger()
        _ = try ledger.user("alice")
        try ledger.db.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        let opened = try Ledger(path: ledger.path)
        _ = try opened.health()
        var st = stat()
        XCTAssertEqual(stat(ledger.path, &st), 0)
        let inode = UInt64(st.st_ino)
        XCTAssertTrue(try Self.lockedInodes().contains(inode), "SQLite holds no lock on the open WAL ledger: the test proves nothing")
        for _ in 0..<2 { _ = try LedgerDigest.sha256(ofLedger: ledger.path) }
        XCTAssertTrue(try Self.lockedInodes().contains(inode), "hashing the ledger dropped SQLite's lock on it")
        _ = try opened.health()
    }
}
