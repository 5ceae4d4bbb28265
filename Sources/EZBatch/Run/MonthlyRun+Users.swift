import EZAnalytics
import EZCore
import EZLedger
import Foundation
import Synchronization

extension MonthlyRun {
    /// What the users' pass leaves for the admin report and the manifest.
    struct UserPass {
        /// Each user's entry in the journal, by position in ``Plan/users`` (nil: not reached).
        var refs: [EntryLog.Ref?]
        var totals: TotalsAccumulator
        var skipped: Int
        /// The usage figures gathered from the users' slices (complete only when the run covers everyone).
        var usage: UsageAccumulator
        /// Users reused without reading their rows (their slices are not in `usage`).
        var reusedWithoutLoading: Int
        /// Set when the pass stopped early: the output file system refused writes, or the journal could not be written.
        var stoppedBy: (any Error)?
        /// Positions of users that could not be reused in a pass without a snapshot: they must be read.
        var pending: [Int]
    }

    /// The shared, locked state of the workers of one pass.
    private final class PassState: Sendable {
        let slots: Mutex<[EntryLog.Ref?]>
        let totals = Mutex(TotalsAccumulator())
        let usage: Mutex<UsageAccumulator>
        let counters = Mutex<(done: Int, skipped: Int, failed: Int)>((0, 0, 0))
        let next = Atomic<Int>(0)
        let reusedWithoutLoading = Atomic<Int>(0)
        /// Once set, no worker starts another user.
        let stop = Mutex<(any Error)?>(nil)
        let pending = Mutex<[Int]>([])

        init(users: Int, settings: ReportSettings, continuing previous: UserPass?) {
            slots = Mutex(previous?.refs ?? Array(repeating: nil, count: users))
            usage = Mutex(previous?.usage ?? UsageAccumulator(period: settings.period, asOf: settings.asOf))
            if let previous {
                totals.withLock { $0 = previous.totals }
                counters.withLock { $0 = (previous.refs.compactMap { $0 }.count, previous.skipped, 0) }
                reusedWithoutLoading.store(previous.reusedWithoutLoading, ordering: .relaxed)
            }
        }
    }

    /// Renders (or reuses) the users of the plan — all of them, or those at `positions`, adding to
    /// `previous` — with one worker per connection; results land in their user's slot, so order
    /// never depends on timing. Stops starting new users as soon as the output file system refuses
    /// writes or the ledger as a whole is lost (``UserJob/Outcome/ledgerLost``). Before the snapshot is taken (the plan has no connections), users are only reused;
    /// those that cannot be come back in ``UserPass/pending``.
    static func renderUsers(_ plan: Plan, positions: [Int]? = nil, continuing previous: UserPass? = nil, log: RunLog) -> UserPass {
        let state = PassState(users: plan.users.count, settings: plan.settings, continuing: previous)
        let order = positions ?? Array(plan.users.indices)
        let workers = plan.connections.isEmpty ? max(1, min(plan.options.jobs, order.count)) : plan.connections.count
        let job = UserJob(settings: plan.settings, periodFolder: plan.periodFolder,
                          force: plan.options.force, gate: workers > 1 ? RenderGate(workers: workers) : nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while state.stop.withLock({ $0 == nil }) {
                let n = state.next.add(1, ordering: .relaxed).oldValue
                guard n < order.count else { break }
                process(user: order[n], plan: plan, job: job, connection: plan.connections.isEmpty ? nil : plan.connections[worker],
                        state: state, log: log)
            }
        }
        if plan.users.isEmpty { log.progress(done: 0, total: 0, skipped: 0, failed: 0) }
        return UserPass(refs: state.slots.withLock { $0 }, totals: state.totals.withLock { $0 },
                        skipped: state.counters.withLock { $0.skipped }, usage: state.usage.withLock { $0 },
                        reusedWithoutLoading: state.reusedWithoutLoading.load(ordering: .relaxed),
                        stoppedBy: state.stop.withLock { $0 }, pending: state.pending.withLock { $0.sorted() })
    }

    /// One user: reuse, skip or render; journal the entry; feed the admin figures; report progress.
    /// Without a connection (no snapshot yet) a user that cannot be reused is only set aside as pending.
    private static func process(user i: Int, plan: Plan, job: UserJob, connection: (any LedgerStore)?, state: PassState, log: RunLog) {
        let user = plan.users[i]
        // A killed run's journal is newer than the last complete run, but the header vouches only
        // for the latter's entries: journal entries always go through the fingerprint check.
        let fromJournal = plan.journalIndex[user.id].flatMap { try? plan.journal.read($0) }
        let fromLastRun = fromJournal == nil ? plan.lastRunIndex[user.id].flatMap { try? plan.lastRun?.read($0) } : nil
        let outcome: UserJob.Outcome
        if plan.ledgerUnchanged, let entry = job.reuse(user: user, previous: fromLastRun) {
            outcome = UserJob.Outcome(entry: entry, skipped: true)
            state.reusedWithoutLoading.add(1, ordering: .relaxed)
        } else if let connection {
            outcome = job.run(user: user, ledger: connection, previous: fromJournal ?? fromLastRun) { slice in
                guard plan.coversEveryone else { return }
                let failure: (any Error)? = state.usage.withLock { acc in
                    do { try acc.add(slice); return nil } catch { acc.leaveOut(); return error }
                }
                if let failure {
                    log.problem("admin report: a user was left out", ["user": "\(user.id)", "reason": "\(failure)"])
                }
            }
        } else {
            state.pending.withLock { $0.append(i) }
            return
        }
        if let lost = outcome.ledgerLost {
            // Every user after this one would fail the same way, each with its own line, and a
            // manifest would call them failed: the run stops instead, and its re-run resumes. The
            // line says the ledger went away during the run, not that it never opened.
            var stop = lost
            if case .cannotOpen(let path, let reason, let code) = lost {
                stop = .cannotOpen(path: path, reason: "lost during the run (the users written are kept and the next run resumes): " + reason,
                                   sqliteCode: code)
            }
            state.stop.withLock { $0 = $0 ?? stop }
            return
        }
        do {
            let ref = try plan.journal.append(outcome.entry)
            state.slots.withLock { $0[i] = ref }
            state.totals.withLock { $0.add(outcome.entry) }
        } catch {
            // The journal lives on the output file system too: a full disk often shows here first.
            let stop: any Error = OutputSpace.stop(after: "\(error)", folder: plan.periodFolder) ?? error
            state.stop.withLock { $0 = $0 ?? stop }
        }
        if outcome.entry.status != .ok {
            let reason = outcome.entry.error ?? "unknown"
            if let stop = OutputSpace.stop(after: reason, folder: plan.periodFolder) {
                // The run stops with one line saying why (a full disk, no file descriptors left, a
                // folder made read-only); the user is redone on the re-run.
                state.stop.withLock { $0 = $0 ?? stop }
            } else {
                log.problem("user failed", ["user": "\(user.id)", "reason": reason])
            }
        }
        let c = state.counters.withLock { c -> (Int, Int, Int) in
            c.done += 1
            if outcome.skipped { c.skipped += 1 }
            if outcome.entry.status != .ok { c.failed += 1 }
            return (c.done, c.skipped, c.failed)
        }
        log.progress(done: c.0, total: plan.users.count, skipped: c.1, failed: c.2)
    }
}
