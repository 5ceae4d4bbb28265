import EZAnalytics
import EZCore
import EZLedger
import Foundation

extension MonthlyRun {
    /// The admin usage report, from the same snapshot as the users: reused when the snapshot is the
    /// last complete run's, else from the users' pass when it saw everyone, else from a usage pass
    /// over the snapshot. Only runs without `--users`, on shard 0 (or unsharded), write it; nil otherwise.
    static func adminReport(_ plan: Plan, pass: UserPass, log: RunLog) -> Manifest.AdminEntry? {
        guard plan.writesAdmin else { return nil }
        if adminReusable(plan), let last = plan.lastHeader?.admin {
            return last   // the snapshot is unchanged, so are its aggregates
        }
        let settings = plan.settings
        let formats = settings.formats.filter { $0 != .png }
        guard !formats.isEmpty else { return nil }
        guard let ledger = plan.connections.first else {
            return Manifest.AdminEntry(status: .failed, files: [], error: "internal: the admin report needs the snapshot")
        }
        do {
            var figures: UsageFigures
            // The users' pass read each statement's rows; they serve the admin report only when
            // they reach as far as it counts (a week's statements stop before their month ends).
            let slicesReach = StatementAnalytics.readThrough(period: settings.period, asOf: settings.asOf)
                >= UsageAccumulator.readThrough(period: settings.period, asOf: settings.asOf)
            if plan.coversEveryone && pass.reusedWithoutLoading == 0 && slicesReach {
                var acc = pass.usage
                for user in try ledger.allUsers().users where user.deletedAt != nil {
                    try? acc.add(UserLedger(user: user, rates: ledger.rates))
                }
                figures = acc.finish()
                // Every user was read in this pass: its rows left out are the run's.
                figures.rowsQuarantined = pass.totals.totals.quarantinedRows + plan.quarantinedOutsideUsers
            } else {
                figures = try UsagePass.compute(ledger: ledger, period: settings.period, asOf: settings.asOf, log: log)
            }
            let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                              period: settings.period, asOf: settings.asOf,
                                              engineVersion: EngineVersion.current, quarantined: [])
            for link in AtomicFile.removeLinks(in: plan.periodFolder, along: "admin") {
                log.problem("removed a symbolic link in place of the admin folder", ["path": link])
            }
            let files = try AdminFiles.write(figures, provenance: provenance, formats: formats,
                                             periodFolder: plan.periodFolder, durable: settings.durable, locale: settings.adminLocale)
            AtomicFile.removeStale(in: plan.periodFolder + "/admin", relativeFolder: "admin", keeping: files)
            if figures.usersLeftOut > 0 {
                log.problem("admin report: \(figures.usersLeftOut == 1 ? "1 user was" : "\(figures.usersLeftOut) users were") left out of its figures (see the run's log for why)")
            }
            return Manifest.AdminEntry(status: .ok, files: files, error: nil,
                                       usersLeftOut: figures.usersLeftOut > 0 ? figures.usersLeftOut : nil)
        } catch {
            log.problem("admin report failed", ["reason": "\(error)"])
            return Manifest.AdminEntry(status: .failed, files: [], error: "\(error)")
        }
    }

    /// Whether this run writes an admin report that cannot be reused, and so must read the ledger.
    static func adminNeedsReading(_ plan: Plan) -> Bool {
        plan.writesAdmin && plan.settings.formats.contains { $0 != .png } && !adminReusable(plan)
    }

    /// Whether the last complete run's admin report stands: same snapshot and settings, written ok, files intact.
    static func adminReusable(_ plan: Plan) -> Bool {
        guard plan.ledgerUnchanged, let last = plan.lastHeader?.admin, last.status == .ok else { return false }
        return UserJob.filesIntact(last.files, in: plan.periodFolder)
    }
}
