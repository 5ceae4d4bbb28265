import EZBatch
import Foundation

/// `--dry-run DIR`: each message that would be sent is written to `DIR/<id>-<safe-username>.eml`
/// (atomically) instead; the journal is neither read for writing nor changed.
enum DryRun {
    static func write(_ plan: DeliveryPlan, options: DeliveryOptions, into folder: String, started: Date) throws(DeliveryError) -> DeliveryResult {
        var result = DeliveryResult()
        for action in plan.actions {
            switch action {
            case .record(let r):
                if r.status == .skipped { result.skipped += 1 } else {
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
