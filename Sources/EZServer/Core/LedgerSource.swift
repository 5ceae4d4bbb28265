import EZLedger
import Foundation
import Logging
import Metrics
import Synchronization

/// The live ledger: opened read-only once, reopened when the file is replaced (a new inode:
/// the app's atomic save), when its schema changed in place (an optional column or table the app
/// added: ``Ledger/schemaChangedSinceOpen()``) or after it could not be read, and its digest
/// remembered while the files are unchanged.
///
/// A ledger that cannot be opened, read or that fails the schema check makes requests answer
/// 503 and `/readyz` fail; the next request tries again, so the server recovers by itself.
///
/// A PostgreSQL ledger (``opener`` set) has no file: it is opened once (each request then reads
/// in its own `REPEATABLE READ` transaction on a pooled session), reopened after a failed read
/// and every ``reopenSeconds`` (so that a session never lives for days), and has no digest.
///
/// Either way, exchange rates the app adds or corrects are seen without a reopen (``LiveRates``).
final class LedgerSource: Sendable {
    /// The path as given on the command line.
    let path: String
    private let state = Mutex<Opened?>(nil)
    private let digests: LedgerDigestMemo
    private let reopens: Counter
    /// Whether a ledger was opened before (the first open is not a reopen).
    private let openedBefore = Atomic<Bool>(false)
    private let logger: Logger
    /// The reason last logged for the ledger being unavailable: an outage is logged when it
    /// starts or its reason changes, not once per request that meets it.
    private let lastWarning = Mutex<String?>(nil)

    private struct Opened: @unchecked Sendable {
        let ledger: any LedgerStore
        let device: UInt64
        let inode: UInt64
        var opened = ContinuousClock.now
    }
    /// Opens a ledger that is not a file (PostgreSQL); nil for a SQLite file at ``path``.
    private let opener: (@Sendable () throws -> any LedgerStore)?
    /// How long a PostgreSQL ledger is used before it is opened afresh.
    static let reopenSeconds = 60

    init(path: String, opener: (@Sendable () throws -> any LedgerStore)? = nil, logger: Logger,
         digests: LedgerDigestMemo? = nil) {
        self.path = path
        self.opener = opener
        self.digests = digests ?? LedgerDigestMemo(path: path)
        self.reopens = Counter(label: "ezreport_ledger_reopens_total")
        self.logger = logger
    }

    /// The ledger as the file is now, opened afresh when it was replaced.
    func current() throws(Problem) -> any LedgerStore {
        if let opener { return try currentServer(opener) }
        var st = stat()
        guard stat(path, &st) == 0 else {
            let reason = "'\(path)': \(String(cString: strerror(errno)))"
            state.withLock { $0 = nil }
            warn(reason)
            throw Self.unavailable
        }
        let device = UInt64(st.st_dev), inode = UInt64(st.st_ino)
        if let open = state.withLock({ $0 }), open.device == device, open.inode == inode,
           !((open.ledger as? Ledger)?.schemaChangedSinceOpen() ?? false) {
            return open.ledger
        }
        do {
            let ledger = try Ledger(path: path)
            state.withLock { $0 = Opened(ledger: ledger, device: device, inode: inode) }
            // Every open after the first is a reopen: a replaced file's, and a recovery's after the
            // file could not be used (which left no ledger open, and so was not counted).
            if openedBefore.exchange(true, ordering: .relaxed) { reopens.increment() }
            lastWarning.withLock { $0 = nil }
            logger.info("ledger opened", metadata: ["inode": "\(inode)"])
            return ledger
        } catch {
            warn("\(error)")
            throw Self.unavailable
        }
    }

    private func currentServer(_ opener: @Sendable () throws -> any LedgerStore) throws(Problem) -> any LedgerStore {
        if let open = state.withLock({ $0 }), ContinuousClock.now - open.opened < .seconds(Self.reopenSeconds) { return open.ledger }
        do {
            let ledger = try opener()
            state.withLock { $0 = Opened(ledger: ledger, device: 0, inode: 0) }
            lastWarning.withLock { $0 = nil }
            logger.info("ledger opened", metadata: ["url": "\(path)"])
            return ledger
        } catch {
            warn("\(error)")
            throw Self.unavailable
        }
    }

    /// Logs that the ledger cannot be used, once per outage and reason.
    private func warn(_ reason: String) {
        let isNew = lastWarning.withLock { last -> Bool in
            defer { last = reason }
            return last != reason
        }
        if isNew { logger.warning("ledger unavailable", metadata: ["reason": "\(reason)"]) }
    }

    /// Forgets the open ledger after a failed read, so the next request opens the file again.
    func invalidate() {
        state.withLock { $0 = nil }
    }

    /// The ledger's SHA-256 for provenance (hashed again only when its files changed).
    func digest() throws(Problem) -> String {
        if opener != nil { return "" }   // a server has no file to hash; responses name the URL
        do { return try digests.current() } catch { throw Self.unavailable }
    }

    /// The identity of the ledger's files now (see ``LedgerDigestMemo/currentIdentity``); nil
    /// for a server's ledger, or when the file cannot be looked at.
    func identity() -> String? { opener != nil ? nil : digests.currentIdentity }

    /// True when the ledger opens, reads and passes the schema check now.
    func isReady() -> Bool {
        do {
            let ledger = try current()
            try ledger.checkReadable()
            // What every request also needs: the file itself readable (an open connection still
            // reads a file whose permissions were taken away; a request, which hashes the file,
            // does not). Checked without hashing: a rollback-journal ledger changes with every
            // commit, and hashing ~750 MB here outlasted a probe's 1 s timeout.
            if opener == nil { try Ledger.checkFile(path, reportingAs: path) }
            return true
        } catch {
            invalidate()
            return false
        }
    }

    static let unavailable = Problem.unavailable("the ledger cannot be read right now", retryAfter: 5)
}
