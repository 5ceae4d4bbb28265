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
public enum MonthlyRun {
    /// What to run.
    public struct Options: Sendable {
        public var settings: ReportSettings
        /// The output root; the run writes `<out>/<period>/…`.
        public var outFolder: String
        /// Only these users (nil: everyone).
        public var userIds: [Int64]?
        /// Worker count (≥ 1).
        public var jobs: Int
        /// `(k, n)`: this process handles the users whose id ≡ k (mod n).
        public var shard: (index: Int, count: Int)?
        /// Redo every user even when unchanged.
        public var force: Bool
        public init(settings: ReportSettings, outFolder: String, userIds: [Int64]? = nil, jobs: Int = 1,
                    shard: (index: Int, count: Int)? = nil, force: Bool = false) {
            self.settings = settings; self.outFolder = outFolder; self.userIds = userIds; self.jobs = jobs
            self.shard = shard; self.force = force
        }
    }

    /// What a run did.
    public struct Result: Sendable {
        public var manifest: Manifest
        public var periodFolder: String
        public var skipped: Int
        public var seconds: Double
        /// 0 all done; 2 some users failed; 3 done with quarantined rows.
        public var exitCode: Int32
    }

    /// Runs the batch. Throws only when it cannot run at all (bad ledger, unwritable output).
    public static func run(_ options: Options, log: RunLog) throws -> Result {
        let settings = options.settings
        let ledger = try Ledger(path: settings.ledgerPath)
        let periodFolder = options.outFolder + "/" + settings.period.name
        try prepareFolder(periodFolder)
        AtomicFile.removeLeftovers(in: periodFolder)
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

        // What earlier runs of this period left.
        var previous: [Int64: Manifest.UserEntry] = [:]
        let manifestPath = periodFolder + "/manifest.json"
        if let data = FileManager.default.contents(atPath: manifestPath), let old = try? Manifest.decode(data),
           old.engineVersion == EngineVersion.current {
            for u in old.users { previous[u.id] = u }
        }
        let shardTag = options.shard.map { "\($0.index)-of-\($0.count)" }
        if let tag = shardTag, let data = FileManager.default.contents(atPath: periodFolder + "/manifest.shard-\(tag).json"),
           let old = try? Manifest.decode(data), old.engineVersion == EngineVersion.current {
            for u in old.users { previous[u.id] = u }
        }
        for (id, e) in RunJournal.read(periodFolder: periodFolder, shard: shardTag) { previous[id] = e }
        let journal = try RunJournal(periodFolder: periodFolder, shard: shardTag)

        // The work, in parallel; results land in their user's slot so order never depends on timing.
        let users = refs
        let earlier = previous
        let job = UserJob(settings: settings, periodFolder: periodFolder, ratesDigest: ratesDigest, force: options.force)
        let slots = Mutex<[Manifest.UserEntry?]>(Array(repeating: nil, count: users.count))
        let next = Atomic<Int>(0)
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
                let outcome = job.run(user: users[i], ledger: connection, previous: earlier[users[i].id])
                slots.withLock { $0[i] = outcome.entry }
                if !outcome.skipped { journal.append(outcome.entry) }
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
        if refs.isEmpty { log.progress(done: 0, total: 0, skipped: 0, failed: 0) }

        // The admin usage report: from this pass when it saw everyone, else from a usage pass (shard 0 only).
        var admin: Manifest.AdminEntry?
        let adminFormats = settings.formats.filter { $0 != .png }
        if !adminFormats.isEmpty, options.userIds == nil, options.shard.map({ $0.index == 0 }) ?? true {
            do {
                let figures: UsageFigures
                if coversEveryone {
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

        // The manifest, last.
        let entries = slots.withLock { $0 }.compactMap { $0 }
        var manifest = Manifest(
            engineVersion: EngineVersion.current, ledgerPath: settings.ledgerPath, ledgerSha256: settings.ledgerSHA256,
            period: settings.period.name, periodStart: settings.period.start.description, periodEnd: settings.period.end.description,
            asOf: settings.asOf.description, formats: settings.formats.map(\.rawValue),
            shard: options.shard.map { "\($0.index)/\($0.count)" }, users: entries, admin: admin,
            totals: Manifest.Totals(users: 0, ok: 0, failed: 0, files: 0, bytes: 0, transactionCount: 0, quarantinedRows: 0))
        manifest.recomputeTotals()
        let manifestName = shardTag.map { "manifest.shard-\($0).json" } ?? "manifest.json"
        try AtomicFile.write(try manifest.encoded(), to: periodFolder + "/" + manifestName, durable: true)
        RunJournal.remove(periodFolder: periodFolder, shard: shardTag)

        let c = counters.withLock { $0 }
        let quarantinedRows = manifest.totals.quarantinedRows + ledger.quarantinedRates.count
        let failed = manifest.totals.failed + (admin?.status == "failed" ? 1 : 0)
        let exit: Int32 = failed > 0 ? 2 : (quarantinedRows > 0 ? 3 : 0)
        log.summary(["users": "\(entries.count)", "skipped": "\(c.skipped)", "files": "\(manifest.totals.files)",
                     "seconds": String(format: "%.1f", log.elapsed), "failures": "\(failed)",
                     "quarantined rows": "\(quarantinedRows)"])
        return Result(manifest: manifest, periodFolder: periodFolder, skipped: c.skipped, seconds: log.elapsed, exitCode: exit)
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
