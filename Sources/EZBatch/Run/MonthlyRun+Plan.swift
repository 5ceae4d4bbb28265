import EZCore
import EZLedger
import Foundation

extension MonthlyRun {
    /// Everything a run decides before its first user: the folder and its lock, who is in the run,
    /// what earlier runs of the period left, and (unless the ledger is unchanged) the snapshot with
    /// one connection to it per worker.
    struct Plan: Sendable {
        let options: Options
        let periodFolder: String
        /// `K-of-N` for a shard, nil for a whole run.
        let shardTag: String?
        /// Held until the plan is freed: one run per folder (and shard).
        /// The locks held for the whole run (a shard's: the folder's, shared, then its own).
        let locks: [RunLock]
        /// One read-only connection per worker, all to the same snapshot; the first also serves the
        /// admin report. Empty until ``takeSnapshot()`` (see ``contentUnchanged``).
        private(set) var connections: [any LedgerStore] = []
        /// The snapshot the run's reports were read from (the last run's, when nothing had to be read):
        /// a SQLite copy's SHA-256, or `lsn:` and a PostgreSQL WAL position (``LedgerSnapshotIdentity/key``).
        private(set) var snapshotSha256: String
        private(set) var snapshotSeconds: Double = 0
        private(set) var ratesDigest: String
        /// Quarantined rows of no user's statement: rate rows that break the contract, rows whose
        /// user, family member or group does not exist (counted in the summary and the exit code).
        private(set) var quarantinedOutsideUsers: Int
        /// The users of this run, in id order.
        private(set) var users: [UserRef]
        /// No `--users` and no `--shard`: the run sees everyone, so its pass can feed the admin report.
        let coversEveryone: Bool
        /// Whether this run writes the admin report (no `--users`; shard 0 or no shard).
        let writesAdmin: Bool
        /// The last complete run's entries (offsets only) and the journal of a killed run.
        let lastRun: EntryLog?
        let lastRunIndex: [Int64: EntryLog.Ref]
        let journal: EntryLog
        let journalIndex: [Int64: EntryLog.Ref]
        /// What this run is computed from, and what the last complete run was computed from.
        private(set) var header: EntryLog.Header
        let lastHeader: EntryLog.Header?
        /// The ledger's main file and WAL hold the bytes they held when the last complete run took its
        /// snapshot, with the same settings: the snapshot is only taken if some user (or the admin
        /// report) must be read after all.
        let contentUnchanged: Bool
        /// The snapshot and the settings are those of the last complete run: nothing that feeds any
        /// report changed, so users are checked by their files alone.
        private(set) var ledgerUnchanged: Bool

        var settings: ReportSettings { options.settings }
        var entriesPath: String { periodFolder + "/" + EntryLog.entriesName(shard: shardTag) }

        /// Locks the folder, reads who is in the run and what earlier runs left, and takes the snapshot
        /// unless the ledger's bytes show that nothing changed since the last complete run.
        static func make(_ options: Options, log: RunLog) throws -> Plan {
            var options = options
            var settings = options.settings
            let periodFolder = options.outFolder + "/" + settings.period.name
            // The file the run reads must be the one its content key is taken from: an atomic save
            // (a rename over the ledger) between opening and keying would record one file's key for
            // the other's content, and the next run, finding that key unchanged, would keep stale
            // figures. Which file the path names is noted before opening and checked after keying.
            let fileBeforeOpening = ContentKey.file(atPath: settings.ledgerPath)
            // A ledger that cannot be read fails the run before anything is written.
            let source = try settings.openLedger()
            // Read before the content key: if the key then equals the last run's, these reads saw that
            // run's content (any commit in between would have changed the key). And before the output
            // folder: a `--users` id that names no live user stops the run with nothing written (it
            // left the period folder and its `.lock` behind).
            let users = try selectUsers(source, options)
            try MonthlyRun.prepareFolder(periodFolder)
            let shardTag = options.shard.map { "\($0.index)-of-\($0.count)" }
            // First the lock: everything below reads or cleans what another run would be writing.
            // A shard holds the folder's lock shared as well as its own: a whole run excludes every shard.
            let folderLock = try shardTag.map { _ in try RunLock(folder: periodFolder, shard: nil, shared: true, waitSeconds: options.waitSeconds, command: "monthly") }
            let lock = try RunLock(folder: periodFolder, shard: shardTag, waitSeconds: options.waitSeconds, command: "monthly")
            let journalPath = periodFolder + "/" + EntryLog.journalName(shard: shardTag)
            // Temporary files are only left by a run that was killed, and a killed run leaves its journal
            // (or, killed before its first user, no manifest): walk the folder only then. Any run's journal
            // counts: a killed shard's leftovers were kept by the whole run after it.
            let journals = (try? FileManager.default.contentsOfDirectory(atPath: periodFolder))?.contains { $0.hasPrefix(".journal") } ?? false
            if journals || !FileManager.default.fileExists(atPath: periodFolder + "/manifest.json") {
                AtomicFile.removeLeftovers(in: periodFolder)
            }
            let entriesPath = periodFolder + "/" + EntryLog.entriesName(shard: shardTag)
            let lastRun = FileManager.default.fileExists(atPath: entriesPath) ? try EntryLog(path: entriesPath) : nil
            let lastHeader = lastRun?.header()
            let ratesDigest = try source.exchangeRatesDigest()
            let keyed = ContentKey.of(ledgerPath: settings.ledgerPath)
            let sameFile = fileBeforeOpening != nil && ContentKey.file(atPath: settings.ledgerPath) == fileBeforeOpening
            if sameFile, let main = keyed?.main, !settings.ledgerSHA256.isEmpty {
                // The ledger's SHA-256 names the file this run opened: the digest it was given was
                // hashed before, and an atomic save in between put another file at the path (the
                // manifest and every statement named a file the run never read: outside faults test).
                options.settings.ledgerSHA256 = main
                settings = options.settings
            }
            let header = EntryLog.Header(ledgerSha256: settings.ledgerSHA256, snapshotSha256: nil,
                                         contentKey: sameFile ? keyed?.key : nil,
                                         settings: settings.fingerprintSettings + "|" + ratesDigest + settings.adminLocaleTag, admin: nil)
            let journal = try EntryLog(path: journalPath)
            let unchangedBytes = !options.force && lastHeader?.snapshotSha256 != nil && header.contentKey != nil
                && lastHeader?.contentKey == header.contentKey
                && lastHeader?.settings == header.settings
            var plan = Plan(options: options, periodFolder: periodFolder, shardTag: shardTag, locks: [folderLock, lock].compactMap { $0 },
                            snapshotSha256: lastHeader?.snapshotSha256 ?? "", ratesDigest: ratesDigest,
                            // Counted here only when no snapshot is taken: `takeSnapshot` counts them in the snapshot
                            // (the count is a scan of every transaction; doing it twice cost a second scan per run).
                            quarantinedOutsideUsers: unchangedBytes ? try source.quarantinedOutsideUsers().count : 0, users: users,
                            coversEveryone: options.userIds == nil && options.shard == nil,
                            writesAdmin: options.userIds == nil && (options.shard.map { $0.index == 0 } ?? true),
                            lastRun: lastRun, lastRunIndex: options.force ? [:] : lastRun?.index() ?? [:],
                            journal: journal, journalIndex: options.force ? [:] : journal.index(),
                            header: header, lastHeader: lastHeader, contentUnchanged: unchangedBytes, ledgerUnchanged: unchangedBytes)
            if unchangedBytes {
                plan.header.snapshotSha256 = plan.snapshotSha256
            } else {
                try plan.takeSnapshot(of: source)
            }
            return plan
        }

        /// `ledger.snapshot`, with a full output file system said as such: the copy is written into
        /// the output folder, and SQLITE_FULL (13) there is the output's disk, not the ledger.
        static func snapshot(of ledger: any LedgerStore, connections: Int, folder: String,
                             scratch: String) throws -> LedgerSnapshotReaders {
            do {
                return try ledger.snapshot(connections: connections, scratch: scratch)
            } catch {
                let full = error.sqliteCode.map { $0 & 0xFF == 13 } ?? false
                if full || OutputSpace.refusesWrites(after: "\(error)", folder: folder) {
                    throw OutputError.outputFull(folder: folder, reason: "the ledger's snapshot copy does not fit")
                }
                throw error
            }
        }

        /// Copies the ledger into one snapshot, opens a connection per worker on it, and re-reads who is
        /// in the run from it. Afterwards ``ledgerUnchanged`` says whether the snapshot is the last run's.
        mutating func takeSnapshot(of source: (any LedgerStore)? = nil) throws {
            let ledger = try source ?? settings.openLedger()
            // One reader per worker, but never more than the users the run can have (the plan's list
            // before the snapshot is an upper bound: only users added since could be missing).
            let workers = max(1, min(options.jobs, max(users.count, 1)))
            let snapshot = try Self.snapshot(of: ledger, connections: workers, folder: periodFolder,
                                             scratch: periodFolder + "/" + Self.snapshotName(shard: shardTag))
            let first = snapshot.connections[0]
            users = try Self.selectUsers(first, options)
            connections = Array(snapshot.connections.prefix(max(1, min(options.jobs, users.count))))
            ratesDigest = try first.exchangeRatesDigest()
            quarantinedOutsideUsers = try first.quarantinedOutsideUsers().count
            snapshotSha256 = snapshot.identity.key
            snapshotSeconds = snapshot.seconds
            header.snapshotSha256 = snapshot.identity.key
            header.settings = settings.fingerprintSettings + "|" + ratesDigest
            ledgerUnchanged = !options.force && lastHeader?.snapshotSha256 == snapshot.identity.key && lastHeader?.settings == header.settings
        }


        /// The snapshot copy's name in the period folder (unlinked as soon as the workers' connections are open).
        static func snapshotName(shard: String?) -> String { ".snapshot" + (shard.map { "-" + $0 } ?? "") + ".sqlite" }

        /// The live users of `--users` and `--shard`, in id order. Without `--users`, a user who
        /// signed up after the period's last day (in their own time zone) has no statement for it:
        /// a run for October made in December e-mailed November's new users an empty "October
        /// statement", and its list of users differed from the run made on the 1st of November.
        private static func selectUsers(_ ledger: any LedgerStore, _ options: Options) throws -> [UserRef] {
            var refs = try ledger.userRefs().filter { !$0.deleted }
            if options.userIds == nil {
                let end = options.settings.period.end
                refs = refs.filter { !$0.signedUp(after: end) }
            }
            if let only = options.userIds {
                let wanted = Set(only)
                refs = refs.filter { wanted.contains($0.id) }
                // An id that names no live user is a mistake to say, not a run with nothing to do
                // (whose manifest would have replaced the folder's).
                let missing = wanted.subtracting(refs.map(\.id)).sorted()
                guard missing.isEmpty else {
                    throw LedgerError.unknownUser(path: ledger.path, user: missing.map(String.init).joined(separator: ", "))
                }
            }
            if let shard = options.shard {
                let n = Int64(shard.count)
                // The non-negative remainder, without `id % n + n`, which overflows for N near Int64.max.
                refs = refs.filter { ref in
                    let r = ref.id % n
                    return Int(r < 0 ? r + n : r) == shard.index
                }
            }
            return refs
        }
    }
}
