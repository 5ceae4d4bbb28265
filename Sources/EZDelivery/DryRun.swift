import EZBatch
import Foundation

/// `--dry-run DIR`: each message that would be sent is written to `DIR/<id>-<safe-username>.eml`
/// (atomically) instead; the journal is neither read for writing nor changed. Each user who would
/// be skipped or fail is named with the reason, on standard error.
enum DryRun {
    ///
    /// Users the plan leaves alone because of an earlier run's line are counted as they stand, so
    /// that a dry run's summary and exit code describe the period's state as a real run's do:
    /// `sent` (never sent twice), `failed` or `uncertain` (a plain run does not retry them; named),
    /// and `skipped` with a reason that still holds (a real run checks them again and skips them
    /// again; named, as a new skip is).
    static func write(_ plan: DeliveryPlan, options: DeliveryOptions, into folder: String, started: Date,
                      manifest: Manifest, latest: [Int64: DeliveryRecord]) throws(DeliveryError) -> DeliveryResult {
        var result = DeliveryResult()
        result.dryRun = true
        var planned = Set<Int64>()
        for action in plan.actions {
            switch action {
            case .record(let r): planned.insert(r.userId)
            case .send(let job): planned.insert(job.entry.id)
            }
        }
        let scope = options.userIds.map(Set.init)
        for entry in manifest.users where (scope?.contains(entry.id) ?? true) && !planned.contains(entry.id) {
            guard let record = latest[entry.id] else { continue }
            switch record.status {
            case .failed:
                result.failed += 1
                result.problems.append("user \(entry.id) failed earlier (--retry-failed sends it again): \(record.reason ?? "unknown")")
            case .uncertain, .sending:   // `sending`: a run was killed mid-message (the next real run records it uncertain)
                result.uncertain += 1
                result.problems.append("user \(entry.id) uncertain (check, then --retry-uncertain): \(record.reason ?? "unknown")")
            case .skipped:
                result.skipped += 1
                result.problems.append("user \(entry.id) would be skipped: \(record.reason ?? "")")
            case .sent:
                result.sent += 1
            }
        }
        for action in plan.actions {
            switch action {
            case .record(let r):
                if r.status == .skipped {
                    // No journal keeps the reason in a dry run: it is said here (a real run records it).
                    result.skipped += 1
                    result.problems.append("user \(r.userId) would be skipped: \(r.reason ?? "")")
                } else {
                    result.failed += 1
                    result.problems.append("user \(r.userId) would fail: \(r.reason ?? "")")
                }
            case .send(let job):
                let path = folder + "/" + SafeName.userFolder(id: job.entry.id, username: job.contact.username) + ".eml"
                do {
                    let message = try StatementMessage.build(job, options: options, date: Date())
                    try AtomicFile.write(message, to: path)
                    result.written += 1
                } catch let error as StatementMessage.Unsendable {
                    result.failed += 1
                    result.problems.append("user \(job.entry.id) would fail: \(error.reason)")
                } catch {
                    throw .cannotWrite(path: path, reason: "\(error)")
                }
            }
        }
        result.seconds = Date().timeIntervalSince(started)
        return result
    }
}
