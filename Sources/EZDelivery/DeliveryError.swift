import EZBatch

/// Why `ezreport deliver` could not run at all (exit 1). Each prints as one line.
package enum DeliveryError: Error, Equatable, CustomStringConvertible {
    /// No `manifest.json` for the period: run `ezreport monthly` first.
    case noManifest(path: String)
    case badManifest(path: String, reason: String)
    case cannotRead(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    /// The SMTP server could not be reached or refused the session before anything was sent.
    case serverUnusable(url: String, reason: String)
    /// The ledger could not be read.
    case ledger(String)
    /// `--users` names ids that have no entry in the period's manifest (a typo would look like
    /// a run with nothing to do).
    case usersNotInManifest([Int64])
    /// A `monthly` run (or another `deliver`) holds the period folder's `.lock`: its statements
    /// may be being rewritten, so nothing is mailed until it finishes.
    case periodBusy(folder: String, holder: RunLock.Holder?)
    /// A `monthly` run of the period stopped before its end (killed, a full disk) and left its
    /// journal: some statements may already be that run's while `manifest.json` still describes
    /// the last complete run, so mailing from it could send old figures now and new ones later.
    case unfinishedRun(folder: String, journal: String)
    /// The period's statements were written without a format the run would attach (`monthly
    /// --formats` left it out): nothing can be sent until it is written, or not attached.
    case formatNotWritten(folder: String, format: String, written: [String])

    package var description: String {
        switch self {
        case .noManifest(let p): return "no manifest at '\(p)': run 'ezreport monthly' for this period first"
        case .badManifest(let p, let r): return "cannot read manifest '\(p)': \(r)"
        case .cannotRead(let p, let r): return "cannot read '\(p)': \(r)"
        case .cannotWrite(let p, let r): return "cannot write '\(p)': \(r)"
        case .serverUnusable(let u, let r): return "SMTP server \(u) cannot be used, nothing was sent: \(r)"
        case .ledger(let r): return r
        case .periodBusy(let folder, let holder):
            return "\(RunLockError.anotherRun(holder)) holds '\(folder)': nothing was sent; deliver when it has finished"
        case .unfinishedRun(let folder, let journal):
            return "a monthly run of '\(folder)' has not finished (its '\(journal)' is there: it is running, or it was stopped), so its statements may not be the manifest's: "
                + "nothing was sent; re-run 'ezreport monthly' for this period, then deliver"
        case .formatNotWritten(let folder, let format, let written):
            let how = format == "pdf" ? "run 'ezreport monthly' for this period with --formats including pdf"
                : "run 'ezreport monthly' for this period with --formats including \(format), or deliver without --attach \(format)"
            return "the statements in '\(folder)' were written without \(format) (the manifest's formats: \(written.joined(separator: ", "))): "
                + "nothing was sent; \(how)"
        case .usersNotInManifest(let ids):
            return "--users: no statement for user\(ids.count > 1 ? "s" : "") \(ids.map(String.init).joined(separator: ", ")) in this period's manifest"
        }
    }
}
