import EZBatch
import EZLedger

/// What a run will do for each user in scope, decided from the manifest, the ledger's contacts
/// and the journal before anything is written or sent.
struct DeliveryPlan {
    /// One user's statement to send.
    struct Job {
        var entry: Manifest.UserEntry
        var contact: DeliveryContact
        var address: MailAddress
        var statementSHA256: String
        var messageID: String
    }

    /// What happens to one user.
    enum Action {
        case send(Job)
        /// A `skipped` or `failed` line to record (when it differs from the user's latest line).
        case record(DeliveryRecord)
    }

    var actions: [Action] = []
    /// Users whose latest line is `sending` (a run was killed mid-message): recorded `uncertain`.
    var interrupted: [DeliveryRecord] = []

    /// The users whose latest line is `sending` (a run stopped mid-message), as the `uncertain`
    /// lines a run records for them, by user id.
    static func interrupted(_ latest: [Int64: DeliveryRecord]) -> [DeliveryRecord] {
        latest.sorted(by: { $0.key < $1.key }).compactMap { _, record in
            guard record.status == .sending else { return nil }
            var stale = record
            stale.status = .uncertain
            stale.reason = "a run was interrupted while sending this message: it may have been delivered"
            stale.smtpCode = nil
            stale.smtpText = nil
            return stale
        }
    }

    /// Decides every user's action.
    static func make(manifest: Manifest, contacts: [Int64: DeliveryContact], latest: [Int64: DeliveryRecord],
                     options: DeliveryOptions) -> DeliveryPlan {
        var plan = DeliveryPlan()
        var latest = latest
        plan.interrupted = interrupted(latest)
        for stale in plan.interrupted { latest[stale.userId] = stale }
        let scope = options.userIds.map(Set.init)
        for entry in manifest.users where scope?.contains(entry.id) ?? true {
            if let action = action(for: entry, contact: contacts[entry.id], previous: latest[entry.id], options: options) {
                if case .record(let r) = action, let p = latest[entry.id], p.status == r.status, p.reason == r.reason,
                   p.address == r.address, p.statementSha256 == r.statementSha256 { continue }
                plan.actions.append(action)
            }
        }
        return plan
    }

    /// The action for one manifest entry, or nil when there is nothing to do.
    static func action(for entry: Manifest.UserEntry, contact: DeliveryContact?, previous: DeliveryRecord?,
                       options: DeliveryOptions) -> Action? {
        let retrying = options.retryFailed || options.retryUncertain
        let sha = entry.files.first { $0.path.hasSuffix("/statement.pdf") }?.sha256
        let same = previous != nil && previous?.statementSha256 == sha && sha != nil
        // A refusal that says nothing about the recipient (the server wanted authentication the
        // run did not give) is sent again by a plain run, once the configuration is fixed.
        let configurationFailure = previous?.status == .failed && previous?.smtpCode == SMTPError.authenticationRequired
        // A run killed while waiting to retry a 4xx left the user half done, and a user whose
        // attempts all met a temporary failure was deferred: a plain run goes on with either.
        let retryPending = (previous?.isRetryPending ?? false) || (previous?.isDeferred ?? false)
        switch (same, previous?.status) {
        case (true, .sent?): return nil
        // --retry-uncertain alone attempts only `uncertain` users: not a deferred or half-retried
        // `failed` one, which a plain run sends (it sent them too: outside delivery re-test).
        case (true, .failed?) where options.retryUncertain && !options.retryFailed: return nil
        case (true, .failed?) where !options.retryFailed && !configurationFailure && !retryPending: return nil
        case (true, .uncertain?) where !options.retryUncertain: return nil
        case (true, .failed?), (true, .uncertain?): break
        default: if retrying && !configurationFailure { return nil }
        }
        func record(_ status: DeliveryRecord.Status, _ reason: String) -> Action {
            .record(DeliveryRecord(userId: entry.id, address: contact?.email, messageId: nil, statementSha256: sha,
                                   status: status, reason: reason))
        }
        guard entry.status == .ok else { return record(.failed, "no statement: the monthly run failed: \(entry.error ?? "unknown error")") }
        guard let contact, !contact.deleted else { return record(.skipped, "the user is deleted") }
        // The statement was written for the user the folder names: an id now held by someone
        // else (a row erased, the id given to a new sign-up) or another ledger than the run's
        // must never mail one person's statement to another.
        let folder = "users/" + SafeName.userFolder(id: entry.id, username: contact.username)
        // The folder is a cleaned, shortened name ("isla smith" and "isla/smith" share one): the
        // manifest's account digest (of the exact username) tells them apart.
        let sameAccount = entry.accountSha256.map { $0 == Manifest.accountDigest(id: entry.id, username: contact.username) } ?? true
        guard entry.folder == folder else {
            return record(.failed, "not sent: the statement was written for '\(entry.folder)', but user \(entry.id) is '\(folder)' "
                                   + "in this ledger (a reused id, a renamed user or another ledger); run monthly for this user again")
        }
        // The same id and username, but an account created at another time: the id and the name
        // both came back after an erasure. Old manifests, without the time, are not checked.
        let created = contact.createdAt.map(Manifest.accountCreated)
        if let recorded = entry.accountCreatedAt, recorded != created {
            return record(.failed, "not sent: the statement in '\(entry.folder)' was written for an account created \(recorded), but user \(entry.id) "
                                   + "in this ledger was created \(created ?? "at no readable time") (an id and username given again after an "
                                   + "erasure, or another ledger); run monthly for this user again")
        }
        guard sameAccount else {
            return record(.failed, "not sent: the statement in '\(entry.folder)' was written for another username than user \(entry.id) has "
                                   + "in this ledger (a reused id, a renamed user or another ledger); run monthly for this user again")
        }
        switch contact.statementEmail {
        case .optedOut: return record(.skipped, "opted out (statement_email = 0)")
        case .invalid(let why): return record(.skipped, why)
        case .wanted: break
        }
        guard let address = MailAddress(contact.email) else {
            return record(.skipped, MailAddress.unusablePrefix + (MailAddress.problem(contact.email) ?? "invalid"))
        }
        if options.skipEmpty, (entry.summary?.ownTransactionCount ?? entry.transactionCount ?? 0) == 0 {
            return record(.skipped, "empty")
        }
        guard let sha else { return record(.failed, "no statement.pdf in the manifest (run monthly with --formats including pdf)") }
        if options.attachXLSX, !entry.files.contains(where: { $0.path.hasSuffix("/statement.xlsx") }) {
            return record(.failed, "no statement.xlsx in the manifest (run monthly with --formats including xlsx)")
        }
        return .send(Job(entry: entry, contact: contact, address: address, statementSHA256: sha,
                         messageID: messageID(user: entry.id, period: options.period.name, sha: sha, from: options.from)))
    }

    /// `statement.{user id}.{period}.{first 16 hex of the PDF's SHA-256}@{domain of From}`; a
    /// range period's `..` becomes `_` so the left part stays a dot-atom.
    static func messageID(user: Int64, period: String, sha: String, from: MailAddress) -> String {
        "statement.\(user).\(period.replacingOccurrences(of: "..", with: "_")).\(sha.prefix(16))@\(from.domain)"
    }
}
