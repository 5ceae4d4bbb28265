import EZAnalytics
import EZCairo
import EZCore
import EZLedger
import Foundation

/// One user's part of a run: load their slice, skip them if nothing changed, else compute the
/// figures and write their files. Any failure is caught and recorded in the entry: one user's
/// failure never stops the run.
struct UserJob {
    let settings: ReportSettings
    let periodFolder: String
    let force: Bool
    /// Lets a large statement render alone (nil: every render runs as soon as its worker is free).
    var gate: RenderGate? = nil
    /// From this many transactions on, a user's statement goes through ``gate`` alone.
    var largeStatementRows = StatementFiles.largeStatementRows

    /// The outcome for the manifest, and whether the user was skipped as unchanged.
    struct Outcome {
        var entry: Manifest.UserEntry
        var skipped: Bool
        /// Set when the ledger as a whole could not be used while reading the user (a PostgreSQL
        /// server that stopped or cut the run's snapshot): not this user's failure, but the run's,
        /// which stops with it (exit 1, the journal kept for the re-run).
        var ledgerLost: LedgerError? = nil
    }

    /// The user's entry from the last run, reused without reading the ledger, when the ledger
    /// file is byte-identical to that run's (so every input is unchanged) and the files are intact.
    func reuse(user ref: UserRef, previous: Manifest.UserEntry?) -> Manifest.UserEntry? {
        let account = Manifest.accountDigest(id: ref.id, username: ref.username)
        guard !force, var previous, previous.status == .ok,
              previous.folder == "users/" + SafeName.userFolder(id: ref.id, username: ref.username),
              previous.accountSha256 == nil || previous.accountSha256 == account,
              Self.filesIntact(previous.files, in: periodFolder) else { return nil }
        previous.accountSha256 = account
        return previous
    }

    /// Loads, then skips or renders the user. `loaded` is handed the slice as soon as it is read
    /// (for the admin figures), so that the slice need not outlive the figures made from it: a
    /// user with 100,000 rows then holds them once, not twice, while the files are rendered.
    func run(user ref: UserRef, ledger: any LedgerStore, previous: Manifest.UserEntry?,
             loaded: (UserLedger) -> Void = { _ in }) -> Outcome {
        let folder = "users/" + SafeName.userFolder(id: ref.id, username: ref.username)
        var entry = Manifest.UserEntry(id: ref.id, status: .failed, folder: folder, currency: nil, incomeMinor: nil,
                                       expensesMinor: nil, netMinor: nil, transactionCount: nil, files: [], quarantined: [],
                                       error: nil, fingerprint: nil,
                                       accountSha256: Manifest.accountDigest(id: ref.id, username: ref.username))
        // A large statement is read and rendered alone (see `RenderGate`): its size is counted
        // before its rows are read, so that they never sit beside another user's render.
        let pass = gate.map { gate in
            gate.enter(exclusive: ((try? ledger.transactionCount(user: ref.id)) ?? 0) >= largeStatementRows)
        }
        defer { if let pass { gate?.leave(pass) } }
        let slice: UserLedger
        let readThrough = StatementAnalytics.readThrough(period: settings.period, asOf: settings.asOf)
        do {
            slice = try ledger.loadUser(id: ref.id, through: readThrough)
        } catch {
            entry.error = "\(error)"
            // The user's own row broke the contract: it is the run's quarantined row too, as
            // `check` counts it (the summary, the totals and the About pages agree with it).
            if case .quarantinedUser(_, let user, let reason) = error {
                entry.quarantined = [Manifest.QuarantineEntry(table: "users", id: user, reason: reason)]
            }
            if case .cannotOpen = error { return Outcome(entry: entry, skipped: false, ledgerLost: error) }
            return Outcome(entry: entry, skipped: false)
        }
        loaded(slice)
        entry.accountCreatedAt = Manifest.accountCreated(slice.user.createdAt)
        if let waiting = settings.periodEnd?.wait(period: settings.period.startingMonths(onDay: slice.user.monthStartDay),
                                                  asOf: settings.asOf, zone: slice.user.zone.identifier) {
            entry.error = waiting
            return Outcome(entry: entry, skipped: false)
        }
        // The rates that can reach this report, not the whole table: a rate the app's feed adds
        // for a later day changes no figure, and must not make `deliver` send the statement again.
        // Conversions are made on the rows' own dates, all on or before the day the slice is read
        // through; two days' margin covers a group member's date in another zone.
        let rates = InputFingerprint.ratesDigest(for: slice, through: readThrough.adding(days: 2))
        let fingerprint = InputFingerprint.of(slice, settings: settings.fingerprintSettings, ratesDigest: rates)
        if !force, let previous, previous.status == .ok, previous.fingerprint == fingerprint, previous.folder == folder,
           Self.filesIntact(previous.files, in: periodFolder) {
            var kept = previous
            kept.accountCreatedAt = entry.accountCreatedAt   // recorded by runs before it was there too
            return Outcome(entry: kept, skipped: true)
        }
        entry.fingerprint = fingerprint
        entry.currency = slice.user.currency.code
        entry.quarantined = slice.quarantined.map { Manifest.QuarantineEntry(table: $0.table, id: $0.id, reason: $0.reason) }
        // The statement's About lists the rate rows too, as export's and serve's do (the manifest
        // counts those once for the run, not in every user's entry).
        let quarantined = slice.reportQuarantine
        if slice.transactions.count >= largeStatementRows {
            // The charts' idle pixel blocks (6.4 MB for each worker that drew one) are not needed
            // while a large statement's figures are computed, its peak.
            CairoSurface.releaseIdlePixelMemory()
        }
        // The last use of the slice: only the figures are alive while the files are rendered.
        // Swift does not promise to release a value at its last use (it did not here): the slice
        // is moved into an optional and dropped explicitly. A 100,000-row user's is ~36 MB.
        var held: UserLedger? = consume slice
        let figuresOrError = Result { try StatementAnalytics.statement(for: held!, period: settings.period, asOf: settings.asOf) }
        held = nil
        do {
            // The figures are handed over to the files (not copied): a long statement's rows are
            // released before qpdf completes its PDF (see `StatementFiles.write`).
            let figures = try (consume figuresOrError).get()
            let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                              period: settings.period, asOf: settings.asOf,
                                              engineVersion: EngineVersion.current, quarantined: quarantined)
            entry.incomeMinor = figures.kpis.income
            entry.expensesMinor = figures.kpis.expenses
            entry.netMinor = figures.kpis.net
            entry.transactionCount = figures.transactions.count
            let summary = Manifest.StatementSummary(figures)
            _ = AtomicFile.removeLinks(in: periodFolder, along: folder)
            entry.files = try StatementFiles.write(consume figures, provenance: provenance, formats: settings.formats,
                                                   periodFolder: periodFolder, relativeFolder: folder, durable: settings.durable)
            AtomicFile.removeStale(in: periodFolder + "/" + folder, relativeFolder: folder, keeping: entry.files)
            entry.summary = summary
            entry.status = .ok
        } catch {
            entry.error = "\(error)"
            entry.fingerprint = nil
        }
        return Outcome(entry: entry, skipped: false)
    }

    /// Whether every file is present with the recorded size and hash.
    static func filesIntact(_ files: [Manifest.FileEntry], in folder: String) -> Bool {
        guard !files.isEmpty else { return false }
        for f in files {
            guard let data = FileManager.default.contents(atPath: folder + "/" + f.path), data.count == f.bytes,
                  FileDigest.sha256(data) == f.sha256 else { return false }
        }
        return true
    }
}
