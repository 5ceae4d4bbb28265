import EZAnalytics
import EZCore
import EZLedger

/// Computes the admin usage figures over every user of the ledger, one user at a time
/// (memory stays bounded by the largest user), without rendering anyone's statement.
enum UsagePass {
    /// The figures from `ledger`, each user read in a read transaction of its own (a batch run
    /// reads a private snapshot copy, which nothing changes under it).
    static func compute(ledger: any LedgerStore, period: Period, asOf: CivilDate, currency: Currency = .eur,
                        log: RunLog? = nil) throws(LedgerError) -> UsageFigures {
        let (users, quarantinedUsers) = try ledger.allUsers()
        var figures = try accumulate(users: users, rates: ledger.rates, period: period, asOf: asOf, currency: currency, log: log) { id in
            try ledger.loadUser(id: id, through: UsageAccumulator.readThrough(period: period, asOf: asOf))
        }
        // Rows no user brings (rates, rows of users that do not exist) count too, as in `check`.
        figures.rowsQuarantined += quarantinedUsers.count + (try ledger.quarantinedOutsideUsers().count)
        return figures
    }

    /// The figures from one read transaction: every user and every row as of one moment, while
    /// the app goes on writing to the live ledger (`ezreport serve`).
    static func compute(in snapshot: LedgerReadTransaction, period: Period, asOf: CivilDate, currency: Currency = .eur,
                        log: RunLog? = nil) throws -> UsageFigures {
        let (users, quarantinedUsers) = try snapshot.allUsers()
        var figures = try accumulate(users: users, rates: snapshot.rates, period: period, asOf: asOf, currency: currency, log: log) { id in
            try snapshot.loadUser(id: id, through: UsageAccumulator.readThrough(period: period, asOf: asOf))
        }
        figures.rowsQuarantined += quarantinedUsers.count + (try snapshot.quarantinedOutsideUsers().count)
        return figures
    }

    /// Adds up every user; one whose rows cannot be read is left out (and logged). A ledger lost
    /// as a whole (a PostgreSQL server gone, its connection killed: ``LedgerError/cannotOpen``)
    /// is thrown, as a monthly run stops on it: it wrote an admin report of the users read before
    /// and said "a user was left out" (exit 2) (outside PostgreSQL test).
    private static func accumulate(users: [User], rates: RateTable, period: Period, asOf: CivilDate, currency: Currency,
                                   log: RunLog?, load: (Int64) throws -> UserLedger) throws(LedgerError) -> UsageFigures {
        var usage = UsageAccumulator(period: period, asOf: asOf, currency: currency)
        var quarantined = Set<QuarantinedRow>()
        for user in users {
            if user.deletedAt != nil {
                try? usage.add(UserLedger(user: user, rates: rates))
                continue
            }
            do {
                let slice = try load(user.id)
                quarantined.formUnion(slice.quarantined)
                try usage.add(slice)
            } catch {
                if let lost = error as? LedgerError, case .cannotOpen = lost { throw lost }
                usage.leaveOut()
                log?.event("usage: a user was left out of the admin report", ["reason": "\(error)"])
            }
        }
        var figures = usage.finish()
        figures.rowsQuarantined = quarantined.count
        return figures
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
                        throw OutputError.cannotWrite(path: relative, reason: OutputError.reason(error))
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
