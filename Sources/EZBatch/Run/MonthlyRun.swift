import EZAnalytics
import EZCore
import EZLedger
import Foundation
import Synchronization

/// The scheduled run: every live user's statement for one period, the admin usage report, and
/// last the manifest.
///
/// Users are processed in id order by `jobs` workers, each with its own read-only connection;
/// the files and the manifest are the same, byte for byte, whatever `jobs` is. Re-runs skip
/// users whose inputs and files are unchanged; a run killed half-way resumes from its journal.
/// Memory does not grow with the number of users: entries wait on disk (``EntryLog``) and the
/// manifest is streamed from them.
package enum MonthlyRun {
    /// What to run.
    package struct Options: Sendable {
        package var settings: ReportSettings
        /// The output root; the run writes `<out>/<period>/…`.
        package var outFolder: String
        /// Only these users (nil: everyone).
        package var userIds: [Int64]?
        /// Worker count (≥ 1).
        package var jobs: Int
        /// `(k, n)`: this process handles the users whose id ≡ k (mod n).
        package var shard: (index: Int, count: Int)?
        /// Redo every user even when unchanged.
        package var force: Bool
        package init(settings: ReportSettings, outFolder: String, userIds: [Int64]? = nil, jobs: Int = 1,
                    shard: (index: Int, count: Int)? = nil, force: Bool = false) {
            self.settings = settings; self.outFolder = outFolder; self.userIds = userIds; self.jobs = jobs
            self.shard = shard; self.force = force
        }
    }

    /// What a run did.
    package struct Result: Sendable {
        /// Where the manifest was written.
        package var manifestPath: String
        /// The run's totals (as in the manifest).
        package var totals: Manifest.Totals
        package var periodFolder: String
        package var skipped: Int
        package var seconds: Double
        /// 0 all done; 2 some users failed; 3 done with quarantined rows.
        package var exitCode: Int32
    }

    /// Runs the batch. Throws only when it cannot run at all (bad ledger, unwritable output).
    package static func run(_ options: Options, log: RunLog) throws -> Result {
        let settings = options.settings
        let ledger = try Ledger(path: settings.ledgerPath)
        let periodFolder = options.outFolder + "/" + settings.period.name
        try prepareFolder(periodFolder)
        let shardTag = options.shard.map { "\($0.index)-of-\($0.count)" }
        let journalPath = periodFolder + "/" + EntryLog.journalName(shard: shardTag)
        // Temporary files are only left by a run that was killed, and a killed run leaves its journal
        // (or, killed before its first user, no manifest): walk the folder only then.
        if FileManager.default.fileExists(atPath: journalPath) || !FileManager.default.fileExists(atPath: periodFolder + "/manifest.json") {
            AtomicFile.removeLeftovers(in: periodFolder)
        }
        let ratesDigest = try ledger.exchangeRatesDigest()

        // Who.
        var refs = try ledger.userRefs().filter { !$0.deleted }
        if let only = options.userIds {
            let wanted = Set(only)
            refs = refs.filter { wanted.contains($0.id) }
        }
        if let shard = options.shard {
            refs = refs.filter { Int(($0.id % Int64(shard.count) + Int64(shard.count)) % Int64(shard.count)) == shard.index }
        }
        let coversEveryone = options.userIds == nil && options.shard == nil

        // What earlier runs of this period left: the last complete run's entries, and the journal of
        // a run that was killed (newer, so it wins). Only offsets are held; entries are read on demand.
        let entriesPath = periodFolder + "/" + EntryLog.entriesName(shard: shardTag)
        let lastRun = FileManager.default.fileExists(atPath: entriesPath) ? try EntryLog(path: entriesPath) : nil
        let lastRunIndex = options.force ? [:] : lastRun?.index() ?? [:]
        let journal = try EntryLog(path: journalPath)
        let journalIndex = options.force ? [:] : journal.index()
        // When the ledger is byte for byte the one the last complete run read, with the same settings,
        // nothing that feeds any report changed: users are checked by their files alone.
        let header = EntryLog.Header(ledgerSha256: settings.ledgerSHA256, settings: settings.fingerprintSettings + "|" + ratesDigest, admin: nil)
        let lastHeader = lastRun?.header()
        let ledgerUnchanged = !options.force && lastHeader?.ledgerSha256 == header.ledgerSha256 && lastHeader?.settings == header.settings

        // The work, in parallel; results land in their user's slot so order never depends on timing.
        let users = refs
        let job = UserJob(settings: settings, periodFolder: periodFolder, ratesDigest: ratesDigest, force: options.force)
        let slots = Mutex<[EntryLog.Ref?]>(Array(repeating: nil, count: users.count))
        let totals = Mutex(TotalsAccumulator())
        let writeFailure = Mutex<(any Error)?>(nil)
        let next = Atomic<Int>(0)
        let reusedWithoutLoading = Atomic<Int>(0)
        let counters = Mutex<(done: Int, skipped: Int, failed: Int)>((0, 0, 0))
        let usage = Mutex(UsageAccumulator(period: settings.period, asOf: settings.asOf))
        let workers = max(1, min(options.jobs, max(users.count, 1)))
        let openFailure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let connection: Ledger
            do {
                connection = worker == 0 ? ledger : try Ledger(path: settings.ledgerPath)
            } catch {
                openFailure.withLock { $0 = error }
                return
            }
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < users.count else { break }
                let id = users[i].id
                // A killed run's journal is newer than the last complete run, but the header vouches only
                // for the latter's entries: journal entries always go through the fingerprint check.
                let fromJournal = journalIndex[id].flatMap { try? journal.read($0) }
                let fromLastRun = fromJournal == nil ? lastRunIndex[id].flatMap { try? lastRun?.read($0) } : nil
                let previous = fromJournal ?? fromLastRun
                let outcome: UserJob.Outcome
                if ledgerUnchanged, let entry = job.reuse(user: users[i], previous: fromLastRun) {
                    outcome = UserJob.Outcome(entry: entry, skipped: true, ledger: nil)
                    reusedWithoutLoading.add(1, ordering: .relaxed)
                } else {
                    outcome = job.run(user: users[i], ledger: connection, previous: previous)
                }
                do {
                    let ref = try journal.append(outcome.entry)
                    slots.withLock { $0[i] = ref }
                    totals.withLock { $0.add(outcome.entry) }
                } catch {
                    writeFailure.withLock { $0 = error }
                }
                if coversEveryone, let slice = outcome.ledger {
                    let failure: (any Error)? = usage.withLock { acc in
                        do { try acc.add(slice); return nil } catch { return error }
                    }
                    if let failure {
                        log.event("admin report: a user was left out", ["user": "\(users[i].id)", "reason": "\(failure)"])
                    }
                }
                if outcome.entry.status != "ok" {
                    log.event("user failed", ["user": "\(users[i].id)", "reason": outcome.entry.error ?? "unknown"])
                }
                let c = counters.withLock { c -> (Int, Int, Int) in
                    c.done += 1
                    if outcome.skipped { c.skipped += 1 }
                    if outcome.entry.status != "ok" { c.failed += 1 }
                    return (c.done, c.skipped, c.failed)
                }
                log.progress(done: c.0, total: users.count, skipped: c.1, failed: c.2)
            }
        }
        if let failure = openFailure.withLock({ $0 }) { throw failure }
        if let failure = writeFailure.withLock({ $0 }) { throw failure }
        if refs.isEmpty { log.progress(done: 0, total: 0, skipped: 0, failed: 0) }

        // The admin usage report: from this pass when it saw everyone, else from a usage pass (shard 0 only).
        var admin: Manifest.AdminEntry?
        let adminFormats = settings.formats.filter { $0 != .png }
        let reusableAdmin = ledgerUnchanged ? lastHeader?.admin.flatMap { a in
            a.status == "ok" && UserJob.filesIntact(a.files, in: periodFolder) ? a : nil
        } : nil
        if let reusableAdmin, options.userIds == nil, options.shard.map({ $0.index == 0 }) ?? true {
            admin = reusableAdmin   // the ledger is unchanged, so are its aggregates
        } else if !adminFormats.isEmpty, options.userIds == nil, options.shard.map({ $0.index == 0 }) ?? true {
            do {
                let figures: UsageFigures
                if coversEveryone && reusedWithoutLoading.load(ordering: .relaxed) == 0 {
                    var acc = usage.withLock { $0 }
                    for user in try ledger.allUsers().users where user.deletedAt != nil {
                        try? acc.add(UserLedger(user: user, rates: ledger.rates))
                    }
                    figures = acc.finish()
                } else {
                    figures = try UsagePass.compute(ledger: ledger, period: settings.period, asOf: settings.asOf, log: log)
                }
                let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                                  period: settings.period, asOf: settings.asOf,
                                                  engineVersion: EngineVersion.current, quarantined: [])
                admin = Manifest.AdminEntry(status: "ok", files: try AdminFiles.write(
                    figures, provenance: provenance, formats: adminFormats, periodFolder: periodFolder, durable: settings.durable), error: nil)
            } catch {
                admin = Manifest.AdminEntry(status: "failed", files: [], error: "\(error)")
                log.event("admin report failed", ["reason": "\(error)"])
            }
        }

        // The manifest, last: streamed from the journal in id order, never held whole.
        var sum = totals.withLock { $0 }
        sum.add(admin: admin)
        let refsInOrder = slots.withLock { $0 }.compactMap { $0 }
        let shell = Manifest(
            engineVersion: EngineVersion.current, ledgerPath: settings.ledgerPath, ledgerSha256: settings.ledgerSHA256,
            period: settings.period.name, periodStart: settings.period.start.description, periodEnd: settings.period.end.description,
            asOf: settings.asOf.description, formats: settings.formats.map(\.rawValue),
            shard: options.shard.map { "\($0.index)/\($0.count)" }, users: [], admin: admin, totals: sum.totals)
        let manifestName = shardTag.map { "manifest.shard-\($0).json" } ?? "manifest.json"
        let manifestPath = periodFolder + "/" + manifestName
        journal.sync()
        // This run's entries, in id order, become what the next run compares against (before the
        // manifest, so that the manifest stays the last file a run writes); the journal goes after.
        var finished = header
        finished.admin = admin
        try journal.compact(refsInOrder, header: finished, to: entriesPath)
        try AtomicFile.write(to: manifestPath, durable: true) { temp throws(OutputError) in
            do {
                guard FileManager.default.createFile(atPath: temp, contents: nil), let handle = FileHandle(forWritingAtPath: temp) else {
                    throw OutputError.cannotWrite(path: manifestPath, reason: "cannot create the file")
                }
                defer { try? handle.close() }
                try Manifest.stream(shell: shell, count: refsInOrder.count, entries: { try journal.read(refsInOrder[$0]) }, to: handle)
            } catch let e as OutputError { throw e } catch {
                throw OutputError.cannotWrite(path: manifestPath, reason: "\(error)")
            }
        }
        unlink(journal.path)

        let c = counters.withLock { $0 }
        let quarantinedRows = sum.totals.quarantinedRows + ledger.quarantinedRates.count
        let failed = sum.totals.failed + (admin?.status == "failed" ? 1 : 0)
        let exit: Int32 = failed > 0 ? 2 : (quarantinedRows > 0 ? 3 : 0)
        log.summary(["users": "\(refsInOrder.count)", "skipped": "\(c.skipped)", "files": "\(sum.totals.files)",
                     "seconds": String(format: "%.1f", log.elapsed), "failures": "\(failed)",
                     "quarantined rows": "\(quarantinedRows)"])
        return Result(manifestPath: manifestPath, totals: sum.totals, periodFolder: periodFolder, skipped: c.skipped,
                      seconds: log.elapsed, exitCode: exit)
    }

    /// Creates the period folder and checks it is writable, so an unwritable output fails before any work.
    static func prepareFolder(_ folder: String) throws(OutputError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: folder, reason: "cannot create the output folder")
        }
        guard access(folder, W_OK) == 0 else { throw .cannotWrite(path: folder, reason: "the output folder is not writable") }
    }
}
