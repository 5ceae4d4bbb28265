import ArgumentParser
import EZBatch
import EZCore
import Foundation

extension EZReport {
    /// `ezreport monthly`: the scheduled run.
    struct Monthly: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The scheduled run: every user's statement, the admin usage report and a manifest.",
            discussion: """
                Writes <out>/<period>/users/<id>-<username>/ (statement.pdf, statement.xlsx,
                the CSV files, charts/*.png), <out>/<period>/admin/usage.{pdf,xlsx,csv}
                and, last, <out>/<period>/manifest.json. A re-run skips users whose inputs
                and files are unchanged; a killed run resumes where it stopped.
                Every report of a run is read from one snapshot of the ledger.
                One run per period folder (and shard) at a time: another one
                exits 1 at once, or waits up to --wait seconds.

                Examples:
                  # last month, as of today (the monthly schedule)
                  ezreport monthly --db ledger.sqlite
                  ezreport monthly --db ledger.sqlite --period 2026-10 \\
                      --as-of 2026-11-01 --jobs 2
                  # one of 4 machines; then 'ezreport manifest merge'
                  ezreport monthly --db ledger.sqlite --shard 0/4
                """
        )

        @OptionGroup var ledger: LedgerOptions

        @Option(name: .long, help: ArgumentHelp("The period: \(Period.acceptedForms).", valueName: "period"))
        var period: String = "last-month"

        @Option(name: .customLong("as-of"), help: ArgumentHelp("The as-of date YYYY-MM-DD (default: today, UTC).", valueName: "date"))
        var asOf: String?

        @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
        var out: String = "Reports"

        @Option(name: .long, help: ArgumentHelp("Comma-separated formats: pdf,xlsx,csv,png (or all).", valueName: "list"))
        var formats: String = "pdf,xlsx,csv,png"

        @Option(name: .long, help: ArgumentHelp("Only these user ids (comma-separated).", valueName: "ids"))
        var users: String?

        @Option(name: .long, help: ArgumentHelp("Parallel workers (default: every core).", valueName: "n"))
        var jobs: Int?

        @Option(name: .long, help: ArgumentHelp("Handle only shard K of N (users whose id ≡ K mod N); join manifests with 'ezreport manifest merge'.", valueName: "K/N"))
        var shard: String?

        @Option(name: .long, help: ArgumentHelp("Seconds to wait for another run writing the same period folder (and shard) before giving up (exit 1).", valueName: "seconds"))
        var wait: Int = 0

        @Flag(name: .long, help: "Redo every user, even those unchanged since the last run.")
        var force = false

        @Flag(name: .long, help: "fsync every file before it is renamed into place (survives power loss; slower).")
        var durable = false

        @Flag(name: .long, help: "No progress output; only errors and the summary line.")
        var quiet = false

        @Option(name: .customLong("log-format"), help: ArgumentHelp("Log lines as text or json.", valueName: "text|json"))
        var logFormat: String = "text"

        func validate() throws {
            _ = try PeriodOptions.resolvePeriod(period, asOf: asOf)
            do { _ = try OutputFormat.parseList(formats) } catch { throw ValidationError("\(error)") }
            guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
            guard wait >= 0 else { throw ValidationError("--wait takes a number of seconds ≥ 0, e.g. 600") }
            _ = try parsedUsers()
            _ = try parsedShard()
            guard RunLog.Format(rawValue: logFormat) != nil else { throw ValidationError("--log-format must be text or json") }
        }

        func parsedUsers() throws -> [Int64]? {
            guard let users else { return nil }
            let ids = users.split(separator: ",").map { Int64($0.trimmingCharacters(in: .whitespaces)) }
            guard !ids.isEmpty, ids.allSatisfy({ $0 != nil }) else { throw ValidationError("--users takes comma-separated numeric ids, e.g. 12,40") }
            return ids.compactMap { $0 }
        }

        func parsedShard() throws -> (index: Int, count: Int)? {
            guard let shard else { return nil }
            let parts = shard.split(separator: "/")
            guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else {
                throw ValidationError("--shard takes K/N with 0 ≤ K < N, e.g. 0/4")
            }
            return (k, n)
        }

        func run() throws {
            let settings = ReportSettings(ledgerPath: ledger.db, ledgerSHA256: try ledgerDigest(ledger.db),
                                          period: try PeriodOptions.resolvePeriod(period, asOf: asOf),
                                          asOf: try PeriodOptions.resolveAsOf(asOf),
                                          formats: try OutputFormat.parseList(formats), durable: durable)
            let log = RunLog(format: RunLog.Format(rawValue: logFormat) ?? .text, quiet: quiet)
            let options = MonthlyRun.Options(settings: settings, outFolder: out, userIds: try parsedUsers(),
                                             jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                             shard: try parsedShard(), force: force, waitSeconds: Double(wait))
            do {
                let result = try MonthlyRun.run(options, log: log)
                if result.exitCode != 0 { throw ExitCode(result.exitCode) }
            } catch {
                throw fail(error)
            }
        }
    }
}
