import Foundation
import GRDB
import GRDBSQLite

/// One consistent moment of a ledger, copied once so that many connections can read it.
///
/// SQLite cannot share one read transaction between connections (Debian's SQLite is built
/// without `SQLITE_ENABLE_SNAPSHOT`), and holding a read transaction for a whole run would, in
/// rollback-journal mode, keep the app's writers out for the whole run. So a run copies the
/// ledger with SQLite's online backup API (`sqlite3_backup_step(-1)`: one read transaction, as
/// long as the copy takes) into a private file, and every worker and the admin report read that
/// copy. The copy is a plain rollback-journal database holding exactly the committed content of
/// the ledger at that moment — the main file **plus** its WAL — so its SHA-256 (``sha256``)
/// names the content: it changes with every commit, whether the commit still sits in the WAL or
/// has been checkpointed, and does not change when only a checkpoint happens.
///
/// ```swift
/// let snapshot = try LedgerSnapshot.take(of: Ledger(path: "ledger.sqlite"), into: "Reports/2026-10/.snapshot.sqlite")
/// let connections = try (0..<2).map { _ in try snapshot.open() }
/// snapshot.release()      // the file is unlinked; open connections keep reading it
/// ```
package final class LedgerSnapshot: @unchecked Sendable {
    /// The ledger that was copied (named in every error).
    package let ledgerPath: String
    /// The SHA-256 of the copy: a digest of the ledger's committed content at the snapshot's moment.
    package let sha256: String
    /// The copy's size in bytes.
    package let bytes: Int64
    /// How long the copy took (the time the app's writers may have waited in rollback-journal mode).
    package let copySeconds: Double
    /// The copy's path.
    let copyPath: String

    private init(ledgerPath: String, copyPath: String, sha256: String, bytes: Int64, copySeconds: Double) {
        self.ledgerPath = ledgerPath; self.copyPath = copyPath; self.sha256 = sha256; self.bytes = bytes
        self.copySeconds = copySeconds
    }

    /// Copies the ledger `source` is open on into `copyPath` (replacing any leftover there) in one read transaction.
    ///
    /// - Throws: ``LedgerError`` naming the ledger (not the copy) when it cannot be read, or the copy cannot be written.
    package static func take(of source: Ledger, into copyPath: String) throws(LedgerError) -> LedgerSnapshot {
        let ledgerPath = source.path
        let busyTimeout = source.busyTimeout
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(copyPath + suffix) }
        let started = Date()
        // The copy holds every user's rows (password hashes too): readable by the run's owner only,
        // whatever the umask, the ledger's own mode or the reports folder's (SQLite gives its side
        // files the same mode). Made empty here; SQLite keeps the mode of a file it opens.
        let made = Glibc.open(copyPath, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard made >= 0 else {
            throw .readFailed(path: ledgerPath, reason: "cannot create the snapshot copy '\(copyPath)': \(String(cString: strerror(errno)))")
        }
        close(made)
        var destination: DatabaseQueue?
        do {
            let copy = try DatabaseQueue(path: copyPath)
            destination = copy
            try source.queue.backup(to: copy)
            // The copy carries the source's journal-mode bytes; a read-only reader of a WAL file would need
            // its -shm. A rollback-journal copy is read without any side file.
            try copy.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = DELETE") }
            // The copy is whole only if the ledger's file was whole while it was read: one cut
            // short in place for a moment (a restore over it, a failing disk) was copied as it
            // was, schema and all, and the run published a manifest of 986 users failed on the
            // copy and an admin report of wrong figures marked ok (outside live-ledger test).
            // quick_check reads every page of the copy (~0.15 s for a 75 MB ledger).
            if let damage = try copy.read({ try String.fetchAll($0, sql: "PRAGMA quick_check(3)") }).first(where: { $0 != "ok" }) {
                try? copy.close()
                destination = nil
                for suffix in ["", "-journal"] { unlink(copyPath + suffix) }
                throw LedgerError.notADatabase(path: ledgerPath, reason: "its snapshot copy is damaged (\(damage)): the file changed "
                    + "or was damaged while it was copied; run again once it is whole")
            }
            try copy.close()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK
            || error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            unlink(copyPath)
            throw Ledger.classify(error, path: ledgerPath, busyTimeout: busyTimeout)
        } catch let error as LedgerError {
            throw error
        } catch {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(copyPath + suffix) }
            throw .readFailed(path: ledgerPath, reason: "cannot copy a snapshot to '\(copyPath)': \(Self.writeFailure(error, copy: destination))",
                              sqliteCode: (error as? DatabaseError)?.extendedResultCode.rawValue)
        }
        let seconds = Date().timeIntervalSince(started)
        do {
            let digest = try FileDigest.sha256(ofFile: copyPath, cache: nil)
            let size = (try? FileManager.default.attributesOfItem(atPath: copyPath))?[.size] as? Int64 ?? 0
            return LedgerSnapshot(ledgerPath: ledgerPath, copyPath: copyPath, sha256: digest, bytes: size, copySeconds: seconds)
        } catch {
            unlink(copyPath)
            throw .readFailed(path: ledgerPath, reason: "cannot read the snapshot copy '\(copyPath)': \(error)")
        }
    }

    /// Why writing the copy failed, in words. The backup reports a failed write as the copy's
    /// result code alone, which GRDB prints with the connection's message, "not an error"
    /// ("SQLite error 10: not an error" for a copy over the file-size limit): the code's own
    /// text and the system's reason (`sqlite3_system_errno`) say what happened.
    static func writeFailure(_ error: any Error, copy: DatabaseQueue?) -> String {
        guard let database = error as? DatabaseError, database.message == nil || database.message == "not an error" else {
            return "\(error)"
        }
        var reason = String(cString: sqlite3_errstr(database.extendedResultCode.rawValue))
        let system = copy?.inDatabase { sqlite3_system_errno($0.sqliteConnection) } ?? 0
        if system != 0 { reason += ": " + String(cString: strerror(system)) }
        return reason
    }

    /// A new read-only connection to the snapshot; its errors name the ledger.
    package func open(busyTimeout: Double = Ledger.defaultBusyTimeout) throws(LedgerError) -> Ledger {
        try Ledger(opening: copyPath, reportingAs: ledgerPath, busyTimeout: busyTimeout)
    }

    /// Unlinks the copy: connections already open go on reading it, and the kernel frees its space
    /// when the last one closes, even if the process is killed. Call it once every connection is open.
    package func release() {
        unlink(copyPath)
    }

    deinit { unlink(copyPath) }
}
