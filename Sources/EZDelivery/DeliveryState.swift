import EZBatch
import Foundation

/// `<out>/<period>/delivery.json`: each user's latest delivery status, written atomically
/// (like manifest.json) at the end of every run.
enum DeliveryState {
    static let fileName = "delivery.json"

    private struct File: Encodable {
        var period: String
        var totals: [String: Int]
        var users: [DeliveryRecord]
    }

    static func write(latest: [Int64: DeliveryRecord], period: String, to path: String) throws(DeliveryError) {
        let users = latest.values.sorted { $0.userId < $1.userId }
        var totals = ["sent": 0, "skipped": 0, "failed": 0, "uncertain": 0, "sending": 0]
        for u in users { totals[u.status.rawValue, default: 0] += 1 }
        if totals["sending"] == 0 { totals["sending"] = nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(File(period: period, totals: totals, users: users))
            data.append(0x0A)
            try AtomicFile.write(data, to: path, durable: true)
        } catch let error as OutputError {
            throw .cannotWrite(path: path, reason: error.description)
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
    }
}
