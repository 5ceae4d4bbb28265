import CCurl
import EZBatch
import EZCore
import EZLedger
import Foundation

/// `ezreport deliver`: e-mails each user the statement the monthly run recorded, exactly once,
/// and records every step (docs/delivery.md).
package enum DeliveryRun {
    /// Runs a delivery. Throws ``DeliveryError`` when it cannot run at all (nothing was sent then);
    /// per-user problems are recorded and counted in the result instead.
    package static func run(_ options: DeliveryOptions, log: @escaping @Sendable (String) -> Void = { _ in }) throws(DeliveryError) -> DeliveryResult {
        let started = Date()
        var manifest = try loadManifest(options)
        if let ids = options.userIds {
            let known = Set(manifest.users.map(\.id))
            let unknown = Set(ids).subtracting(known).sorted()
            guard unknown.isEmpty else { throw .usersNotInManifest(unknown) }
        }
        let contacts: [Int64: DeliveryContact]
        do {
            let ledger: any LedgerStore = try options.openLedger?() ?? Ledger(path: options.ledgerPath)
            contacts = Dictionary(uniqueKeysWithValues: try ledger.deliveryContacts().map { ($0.id, $0) })
        } catch {
            throw .ledger("\(error)")
        }
        // The period's run lock, exclusive, for the whole delivery: `monthly` (a whole run or a shard)
        // rewriting these statements and `deliver` mailing them exclude each other. A delivery during a
        // re-render mailed the old statements as they were replaced, then the new ones: two each.
        // A dry run takes it too: during a real delivery it read the journal's `sending` line of the
        // message in flight as an interrupted run's, and reported that user `uncertain`.
        let periodLock: EZBatch.RunLock
        do {
            periodLock = try EZBatch.RunLock(folder: options.periodFolder, shard: nil, waitSeconds: 0,
                                             command: options.dryRunFolder == nil ? "deliver" : "deliver --dry-run")
        } catch RunLockError.held(_, let holder, _) {
            throw .periodBusy(folder: options.periodFolder, holder: holder)
        } catch {
            throw .cannotWrite(path: options.periodFolder + "/.lock", reason: "\(error)")
        }
        defer { _ = periodLock }
        // Read again under the lock: a run that finished since the first read wrote a new manifest.
        try refuseUnfinishedRun(options)
        manifest = try loadManifest(options)
        try requireAttachedFormats(manifest, options)
        if let folder = options.dryRunFolder {
            let previous = DeliveryJournal.latest(try DeliveryJournal.records(at: journalPath(options)))
            let plan = DeliveryPlan.make(manifest: manifest, contacts: contacts, latest: previous, options: options)
            return try DryRun.write(plan, options: options, into: folder, started: started, manifest: manifest, latest: previous)
        }
        let lock = try DeliveryLock(path: options.periodFolder + "/.delivery.lock")
        defer { _ = lock }
        let latest = DeliveryJournal.latest(try DeliveryJournal.records(at: journalPath(options)))
        let plan = DeliveryPlan.make(manifest: manifest, contacts: contacts, latest: latest, options: options)
        let jobs = plan.actions.compactMap { if case .send(let job) = $0 { return job } else { return nil } }
        var connection: SMTPConnection?
        if !jobs.isEmpty, let smtp = options.smtp {
            do {
                let c = try SMTPConnection(settings: smtp)
                try c.preflight()
                connection = c
            } catch {
                // The server's last reply (its EHLO's `250 HELP`) says nothing here; what to do does.
                if error.curlCode == Int(CURLE_USE_SSL_FAILED.rawValue), !smtp.allowsPlainText {
                    let said = error.curlMessage.hasSuffix(".") ? String(error.curlMessage.dropLast()) : error.curlMessage
                    // Offered and then refused (libcurl: "STARTTLS denied, code 454") is not "offers no STARTTLS".
                    let refused = error.curlMessage.contains("denied") ? "it refused STARTTLS" : "it offers no STARTTLS"
                    let advice = smtp.insecure
                        ? "a login is never sent in plain text, even with --smtp-insecure: use TLS (an smtps:// URL if it speaks TLS "
                          + "from the start), or no login on a test server"
                        : "use an smtps:// URL if it speaks TLS from the start, or --smtp-insecure to send in plain text (a test server "
                          + "only, and without a login)"
                    throw .serverUnusable(url: redacted(smtp.url), reason: "\(said); \(refused): \(advice)")
                }
                throw .serverUnusable(url: redacted(smtp.url), reason: error.description)
            }
        }
        let journal = try DeliveryJournal(path: journalPath(options))
        for record in plan.interrupted { try journal.append(stamped(record)) }
        var sender = MessageSender(options: options, journal: journal, connection: connection, log: log)
        // Once a message has gone out, a failure is no longer "could not run": it says how many went.
        do throws(DeliveryError) {
            var serverStopped = false
            for action in plan.actions {
                if options.shouldStop() {
                    log("stopping: a signal asked the run to stop; the users left are 'not attempted' and the next run sends them")
                    break
                }
                switch action {
                // A skip needs no server: recorded even once the server has stopped the run, so
                // that the summary's "not attempted" counts only users still to be sent.
                case .record(let record): try journal.append(stamped(record))
                case .send(let job): if !serverStopped { try sender.deliver(job, manifest: manifest) }
                }
                if sender.serverGone, !serverStopped {
                    log("stopping: \(MessageSender.unreachableLimit) users in a row could not be sent for a temporary reason (the "
                        + "server is not taking mail now); they and the users left are tried again by the next run")
                    serverStopped = true
                }
            }
            var result = try finish(options, manifest: manifest, started: started, sentNow: sender.sentNow)
            if serverStopped {
                result.stopped = "stopped early: \(MessageSender.unreachableLimit) users in a row were deferred (the server is not taking "
                    + "mail now); the next run tries them again, and the \(result.pending) not attempted"
            }
            return result
        } catch {
            guard sender.sentNow > 0 else { throw error }
            return try finish(options, manifest: manifest, started: started, sentNow: sender.sentNow, stoppedBy: error)
        }
    }

    /// Writes delivery.json and computes the period's state for the users in scope.
    ///
    /// After a run that sent messages and then stopped on `stoppedBy` (the journal or the state
    /// file could not be written: a full disk), the state is still reported, from the journal as
    /// far as it was written: a user left `sending` counts as the `uncertain` the next run records,
    /// and delivery.json is written if it can be.
    static func finish(_ options: DeliveryOptions, manifest: Manifest, started: Date, sentNow: Int,
                       stoppedBy: DeliveryError? = nil) throws(DeliveryError) -> DeliveryResult {
        var latest = DeliveryJournal.latest(try DeliveryJournal.records(at: journalPath(options)))
        let statePath = options.periodFolder + "/" + DeliveryState.fileName
        var result = DeliveryResult()
        if let stoppedBy {
            for stale in DeliveryPlan.interrupted(latest) { latest[stale.userId] = stale }
            try? DeliveryState.write(latest: latest, period: options.period.name, to: statePath)
            result.stopped = "stopped after sending \(sentNow) message\(sentNow == 1 ? "" : "s") in this run: \(stoppedBy); "
                + "a re-run sends none of them again and sends the rest"
        } else {
            try DeliveryState.write(latest: latest, period: options.period.name, to: statePath)
        }
        result.sentNow = sentNow
        let scope = options.userIds.map(Set.init)
        for entry in manifest.users where scope?.contains(entry.id) ?? true {
            guard let record = latest[entry.id] else { result.pending += 1; continue }
            switch record.status {
            case .sent: result.sent += 1
            case .skipped:
                result.skipped += 1
                // An address that cannot be used is a problem to fix, not a choice: named, as the
                // dry run names it (a real run said only "skipped 21", exit 0: outside delivery test).
                if let reason = record.reason, reason.hasPrefix(MailAddress.unusablePrefix) {
                    result.problems.append("user \(entry.id) skipped: \(reason)")
                }
            case .failed where record.isDeferred:
                result.failed += 1
                let reason = record.reason.map { String($0.dropLast(DeliveryRecord.deferredSuffix.count)) } ?? "unknown"
                result.problems.append("user \(entry.id) deferred (the next run tries again): \(reason)")
            case .failed, .sending:
                result.failed += 1
                result.problems.append("user \(entry.id) failed: \(record.reason ?? "unknown")")
            case .uncertain:
                result.uncertain += 1
                result.problems.append("user \(entry.id) uncertain (check, then --retry-uncertain): \(record.reason ?? "unknown")")
            }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }

    /// Refuses the run when the manifest's statements lack a format it would attach (`--attach
    /// pdf,xlsx` after a `monthly --formats pdf`): that is the whole run's configuration, so it
    /// fails before anything is recorded, not user by user (each then needed `--retry-failed`).
    static func requireAttachedFormats(_ manifest: Manifest, _ options: DeliveryOptions) throws(DeliveryError) {
        let needed = ["pdf"] + (options.attachXLSX ? ["xlsx"] : [])
        guard let missing = needed.first(where: { !manifest.formats.contains($0) }) else { return }
        throw .formatNotWritten(folder: options.periodFolder, format: missing, written: manifest.formats)
    }

    static func loadManifest(_ options: DeliveryOptions) throws(DeliveryError) -> Manifest {
        let path = options.periodFolder + "/manifest.json"
        guard let data = FileManager.default.contents(atPath: path) else { throw .noManifest(path: path) }
        do { return try Manifest.decode(data) } catch { throw .badManifest(path: path, reason: "\(error)") }
    }

    /// Throws ``DeliveryError/unfinishedRun(folder:journal:)`` when a `monthly` run's journal
    /// (`.journal.jsonl`, or a shard's `.journal-K-of-N.jsonl`) is in the period folder. Called
    /// under the period's lock (no run is going on), or for a dry run, which must not count what
    /// a real delivery would refuse.
    static func refuseUnfinishedRun(_ options: DeliveryOptions) throws(DeliveryError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: options.periodFolder)) ?? []
        if let journal = names.filter({ $0.hasPrefix(".journal") && $0.hasSuffix(".jsonl") }).sorted().first {
            throw .unfinishedRun(folder: options.periodFolder, journal: journal)
        }
    }

    static func journalPath(_ options: DeliveryOptions) -> String { options.periodFolder + "/delivery.jsonl" }

    /// The record with the current time.
    static func stamped(_ record: DeliveryRecord) -> DeliveryRecord {
        var r = record
        r.at = ISO8601DateFormatter().string(from: Date())
        return r
    }

    /// `url` without any `user:password@` part, for messages.
    static func redacted(_ url: String) -> String { SMTPSettings.redacted(url) }
}
