import EZAnalytics
import EZCore
import EZLedger

/// Computes the admin usage figures over every user of the ledger, one user at a time
/// (memory stays bounded by the largest user), without rendering anyone's statement.
enum UsagePass {
    static func compute(ledger: any LedgerStore, period: Period, asOf: CivilDate, currency: Currency = .eur,
                        log: RunLog? = nil) throws(LedgerError) -> UsageFigures {
        var usage = UsageAccumulator(period: period, asOf: asOf, currency: currency)
        let (users, _) = try ledger.allUsers()
        for user in users {
            if user.deletedAt != nil {
                try? usage.add(UserLedger(user: user, rates: ledger.rates))
                continue
            }
            do {
                try usage.add(try ledger.loadUser(id: user.id, through: max(period.end, asOf)))
            } catch {
                log?.event("usage: a user was left out of the admin report", ["reason": "\(error)"])
            }
        }
        return usage.finish()
    }
}

/// Writes the admin usage report (`admin/usage.pdf`, `usage.xlsx`, `usage.csv`).
enum AdminFiles {
    static func write(_ usage: UsageFigures, provenance: ReportProvenance, formats: [OutputFormat],
                      periodFolder: String, durable: Bool, locale: String) throws -> [Manifest.FileEntry] {
        var entries: [Manifest.FileEntry] = []
        func put(_ name: String, _ bytes: [UInt8]) throws {
            let relative = "admin/" + name
            try AtomicFile.write(bytes, to: periodFolder + "/" + relative, durable: durable)
            entries.append(Manifest.FileEntry(path: relative, bytes: bytes.count, sha256: FileDigest.sha256(bytes)))
        }
        for format in formats {
            switch format {
            case .pdf: try put("usage.pdf", try UsagePDF.render(usage, provenance: provenance, locale: locale))
            case .csv: let f = UsageCSV.file(for: usage); try put(f.name, f.bytes)
            case .xlsx:
                let relative = "admin/usage.xlsx"
                var data: [UInt8] = []
                try AtomicFile.write(to: periodFolder + "/" + relative, durable: durable) { temp throws(OutputError) in
                    do {
                        try UsageWorkbook.write(usage, provenance: provenance, to: temp, locale: locale)
                        data = Array(try Data(contentsOf: URL(fileURLWithPath: temp)))
                    } catch let e as OutputError { throw e } catch {
                        throw OutputError.cannotWrite(path: relative, reason: "\(error)")
                    }
                }
                entries.append(Manifest.FileEntry(path: relative, bytes: data.count, sha256: FileDigest.sha256(data)))
            case .png: break   // the admin report's charts live in its PDF and XLSX
            }
        }
        return entries.sorted { $0.path < $1.path }
    }
}

import EZCSV
import EZPDF
import EZXLSX
import Foundation
