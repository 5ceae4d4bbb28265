import EZCore
import EZLedger
import Foundation

extension MonthlyRun {
    /// The end of a run: this run's entries become what the next run compares against, then the
    /// manifest is written last (streamed from the journal in id order, never held whole), then
    /// the journal goes. Returns the run's result with its exit code.
    static func finish(_ plan: Plan, pass: UserPass, admin: Manifest.AdminEntry?, log: RunLog) throws -> Result {
        let settings = plan.settings
        var sum = pass.totals
        sum.add(admin: admin)
        let refsInOrder = pass.refs.compactMap { $0 }
        // A PostgreSQL snapshot is named by its WAL position (see LedgerSnapshotIdentity.key).
        let lsn = plan.snapshotSha256.hasPrefix("lsn:") ? String(plan.snapshotSha256.dropFirst(4)) : nil
        let shell = Manifest(
            engineVersion: EngineVersion.current, ledgerPath: settings.ledgerPath, ledgerSha256: settings.ledgerSHA256,
            snapshotSha256: lsn == nil ? plan.snapshotSha256 : nil, snapshotLsn: lsn,
            period: settings.period.name, periodStart: settings.period.start.description, periodEnd: settings.period.end.description,
            asOf: settings.asOf.description, formats: settings.formats.map(\.rawValue),
            shard: plan.options.shard.map { "\($0.index)/\($0.count)" }, users: [], admin: admin, totals: sum.totals)
        let manifestName = plan.shardTag.map { "manifest.shard-\($0).json" } ?? "manifest.json"
        let manifestPath = plan.periodFolder + "/" + manifestName
        let journal = plan.journal
        journal.sync()
        removeStaleUserFolders(plan, log: log)
        // Before the manifest, so that the manifest stays the last file a run writes.
        var finished = plan.header
        finished.admin = admin
        // The run's last two files: a full disk here stops the run as one anywhere else does.
        func asFull(_ error: OutputError) -> OutputError {
            if case .cannotWrite(_, let reason) = error, let stop = OutputSpace.stop(after: reason, folder: plan.periodFolder) {
                return stop
            }
            return error
        }
        // What the next run compares against. A run of listed users keeps the last run's lines for
        // everyone else: with only its own, the next whole run found no earlier entry for the
        // others, rendered them all again, and after any ledger change their PDFs (which name the
        // ledger's SHA-256) were new bytes, so `deliver` e-mailed everyone a second time. The
        // record then mixes runs, so no one snapshot vouches for it: the next run checks each
        // user by fingerprint.
        var lines = zip(plan.users, pass.refs).compactMap { user, ref in ref.map { (id: user.id, log: journal, ref: $0) } }
        if plan.options.userIds != nil, let last = plan.lastRun {
            let listed = Set(plan.users.map(\.id))
            for (id, ref) in last.index() where !listed.contains(id) { lines.append((id: id, log: last, ref: ref)) }
            lines.sort { $0.id < $1.id }
            finished.snapshotSha256 = nil
            finished.contentKey = nil
        }
        do { try EntryLog.compact(lines.map { ($0.log, $0.ref) }, header: finished, to: plan.entriesPath) } catch { throw asFull(error) }
        do { try writeManifest() } catch { throw asFull(error) }
        func writeManifest() throws(OutputError) {
            try AtomicFile.write(to: manifestPath, durable: true) { temp throws(OutputError) in
                do {
                    guard FileManager.default.createFile(atPath: temp, contents: nil), let handle = FileHandle(forWritingAtPath: temp) else {
                        throw OutputError.cannotWrite(path: manifestPath, reason: "cannot create the file")
                    }
                    defer { try? handle.close() }
                    try Manifest.stream(shell: shell, count: refsInOrder.count, entries: { try journal.read(refsInOrder[$0]) }, to: handle)
                } catch let e as OutputError { throw e } catch {
                    throw OutputError.cannotWrite(path: manifestPath, reason: OutputError.reason(error))
                }
            }
        }
        unlink(journal.path)

        let quarantinedRows = sum.totals.quarantinedRows + plan.quarantinedOutsideUsers
        // An admin report that left users out is written but incomplete: the run did not fully succeed.
        let failed = sum.totals.failed + (admin?.status == .failed || (admin?.usersLeftOut ?? 0) > 0 ? 1 : 0)
        let exit: Int32 = failed > 0 ? 2 : (quarantinedRows > 0 ? 3 : 0)
        log.summary(["users": "\(refsInOrder.count)", "skipped": "\(pass.skipped)", "files": "\(sum.totals.files)",
                     "seconds": String(format: "%.1f", log.elapsed), "failures": "\(failed)",
                     "quarantined rows": "\(quarantinedRows)"])
        return Result(manifestPath: manifestPath, totals: sum.totals, periodFolder: plan.periodFolder, skipped: pass.skipped,
                      seconds: log.elapsed, exitCode: exit, snapshotSha256: plan.snapshotSha256,
                      snapshotSeconds: plan.snapshotSeconds)
    }

    /// Removes the user folders this run does not write that belong to it: a user deleted since
    /// an earlier run of the folder (their statement, e-mail and transactions must not stay
    /// published) or renamed (their old folder would be a second statement for the same id). Only
    /// `<id>-…` folders under `users/` are touched, and only those of the run's users' ids range:
    /// every id for a whole run, `id mod N = K` for a shard, none for a run of listed users.
    static func removeStaleUserFolders(_ plan: Plan, log: RunLog) {
        guard plan.options.userIds == nil else { return }
        let users = plan.periodFolder + "/users"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: users) else { return }
        let kept = Set(plan.users.map { SafeName.userFolder(id: $0.id, username: $0.username) })
        for name in names.sorted() where !kept.contains(name) {
            guard let dash = name.firstIndex(of: "-"), let id = Int64(name[..<dash]), id >= 0 else { continue }
            if let shard = plan.options.shard, id % Int64(shard.count) != Int64(shard.index) { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: users + "/" + name, isDirectory: &isFolder), isFolder.boolValue else { continue }
            do {
                try FileManager.default.removeItem(atPath: users + "/" + name)
                log.event("removed the folder of a user no longer in the ledger", ["folder": "users/" + name])
            } catch {
                log.problem("cannot remove a stale user folder", ["folder": "users/" + name, "reason": "\(error)"])
            }
        }
    }
}
