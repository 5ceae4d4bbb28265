import EZAnalytics
import EZCore
import EZLedger
import Foundation

/// The scheduled run: every live user's statement for one period, the admin usage report, and
/// last the manifest.
///
/// Users are processed in id order by `jobs` workers, each with its own read-only connection to
/// one snapshot of the ledger taken at the start (``LedgerSnapshot``), so every user and the
/// admin report see the same moment; the files and the manifest are the same, byte for byte,
/// whatever `jobs` is. One run per period folder (and shard) at a time (``RunLock``). Re-runs skip
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
        /// Seconds to wait for another run holding the same period folder (and shard); 0: fail at once.
        package var waitSeconds: Double
        package init(settings: ReportSettings, outFolder: String, userIds: [Int64]? = nil, jobs: Int = 1,
                    shard: (index: Int, count: Int)? = nil, force: Bool = false, waitSeconds: Double = 0) {
            self.settings = settings; self.outFolder = outFolder; self.userIds = userIds; self.jobs = jobs
            self.shard = shard; self.force = force; self.waitSeconds = waitSeconds
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
        /// The SHA-256 of the snapshot every report was read from (also in the manifest).
        package var snapshotSha256: String
        /// Seconds taken to copy the snapshot (writers of a rollback-journal ledger wait that long at most).
        package var snapshotSeconds: Double
    }

    /// Runs the batch. Throws only when it cannot run at all (bad ledger, unwritable output,
    /// another run holding the folder, a full output file system).
    ///
    /// Four steps: ``Plan/make(_:log:)`` (lock, snapshot, who, what earlier runs left),
    /// ``renderUsers(_:log:)``, ``adminReport(_:pass:log:)`` and ``finish(_:pass:admin:log:)``
    /// (the entries record and the manifest, last).
    package static func run(_ options: Options, log: RunLog) throws -> Result {
        // One folder, one month by name: `last-month` is the month that names the folder for
        // every user, each from their own payday (see ``Period/named``).
        var options = options
        options.settings.period = options.settings.period.named
        var plan = try Plan.make(options, log: log)
        var pass = renderUsers(plan, log: log)
        if plan.connections.isEmpty, pass.stoppedBy == nil, !pass.pending.isEmpty || adminNeedsReading(plan) {
            // The ledger's bytes are the last run's, but something must be read after all: from a
            // snapshot, which must then still be the last run's for the users reused so far to agree.
            try plan.takeSnapshot()
            pass = plan.ledgerUnchanged ? renderUsers(plan, positions: pass.pending, continuing: pass, log: log)
                                        : renderUsers(plan, log: log)
        }
        if let full = pass.stoppedBy {
            // Keep the journal (every finished user is in it) so that the next run resumes; no
            // admin report and no manifest: the run is not complete.
            plan.journal.sync()
            throw full
        }
        let admin = adminReport(plan, pass: pass, log: log)
        return try finish(plan, pass: pass, admin: admin, log: log)
    }

    /// Creates the period folder and checks it is writable, so an unwritable output fails before any work.
    package static func prepareFolder(_ folder: String) throws(OutputError) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: folder, reason: "cannot create the output folder: \(AtomicFile.whyNoFolder(folder, error))")
        }
        guard access(folder, W_OK) == 0 else { throw .cannotWrite(path: folder, reason: "the output folder is not writable") }
    }
}
