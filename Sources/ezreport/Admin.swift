import ArgumentParser
import EZBatch
import EZCore
import Foundation

extension EZReport {
    /// `ezreport admin`: the admin usage report alone.
    struct Admin: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "admin",
            abstract: "The admin usage report alone: aggregate figures only, nothing that identifies a person.",
            discussion: """
                Writes <out>/<period>/admin/usage.pdf, usage.xlsx and usage.csv. Figures
                about fewer than 5 users are suppressed and shown as '<5'.

                Example:
                  ezreport admin --db ledger.sqlite --period 2026-10
                """
        )

        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var period: PeriodOptions

        @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
        var out: String = "Reports"

        @Option(name: .long, help: ArgumentHelp("The currency volumes and spend are shown in. (default: EUR)", valueName: "code"),
                transform: Admin.parseCurrency)
        var currency: Currency = .eur

        func validate() throws { try requireOutputFolderNotStandardOutput(out) }

        @Option(name: .long, help: AdminLocale.help, transform: AdminLocale.parse)
        var locale: String = "en"

        /// Why `admin` would not write into a period's folder.
        struct FolderRefusal: Error, CustomStringConvertible {
            var description: String
        }

        /// Takes the period folder's run lock, as `monthly` and `deliver` do, and refuses a folder
        /// whose `manifest.json` lists the admin report: rewriting those files would leave the
        /// run's manifest naming other bytes (its `sha256sum --check` failing), under a run that
        /// may still be writing them.
        static func lockPeriodFolder(_ folder: String) throws -> RunLock {
            try MonthlyRun.prepareFolder(folder)   // the lock file lives in it
            let lock: RunLock
            do {
                lock = try RunLock(folder: folder, shard: nil, waitSeconds: 0, command: "admin")
            } catch RunLockError.held(_, let holder, _) {
                throw FolderRefusal(description: "\(RunLockError.anotherRun(holder)) holds '\(folder)'; "
                                                 + "run admin when it has finished, or with another --out")
            }
            if let data = FileManager.default.contents(atPath: folder + "/manifest.json"),
               let manifest = try? Manifest.decode(data), manifest.admin != nil {
                throw FolderRefusal(description: "'\(folder)' holds a monthly run whose manifest.json lists admin/: rewriting it would "
                                                 + "break the manifest; run monthly for the period again (it rewrites both), or give admin another --out")
            }
            return lock
        }

        /// An ISO-4217 code, or a ValidationError.
        static func parseCurrency(_ text: String) throws -> Currency {
            do { return try Currency(text) } catch { throw ValidationError("--currency must be an ISO-4217 code such as EUR (got '\(text)')") }
        }

        func run() throws {
            let resolved = period.resolvedPeriod
            let settings = ReportSettings(ledgerPath: ledger.db, ledgerSHA256: try ledger.digest(), period: resolved,
                                          asOf: period.asOf.date, formats: [.pdf, .xlsx, .csv], adminLocale: locale,
                                          openLedger: try ledger.opener())
            do {
                let folder = out + "/" + resolved.name
                let lock = try Self.lockPeriodFolder(folder)
                defer { _ = lock }
                let (files, leftOut, quarantined) = try AdminRun.run(settings: settings, folder: folder, currency: currency, log: RunLog())
                for f in files { print(folder + "/" + f.path) }
                if leftOut > 0 {
                    printError("the report is incomplete: \(leftOut == 1 ? "1 user was" : "\(leftOut) users were") left out of its figures (their rows could not be read or converted into \(currency.code); reasons above)")
                    throw ExitStatus.someFailed
                }
                if quarantined > 0 {
                    printError("\(quarantinedRows(quarantined)) (left out of the figures); run 'ezreport check'")
                    throw ExitStatus.quarantined
                }
            } catch {
                throw fail(error)
            }
        }
    }
}
