import ArgumentParser
import EZBatch
import EZCore
import EZLedger
import Foundation

extension EZReport {
    /// `ezreport monthly`: the scheduled run.
    struct Monthly: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "monthly",
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
                  # from PostgreSQL (a read replica), password in PGPASSWORD
                  ezreport monthly --db 'postgres://report@replica:5432/wallet?sslmode=verify-full' \\
                      --shard 0/4
                """
        )

        @OptionGroup var ledger: LedgerOptions

        @Option(name: .long, help: ArgumentHelp(PeriodArgument.help + " (default: last-month)", valueName: "period"),
                transform: PeriodArgument.init(parsing:))
        var period: PeriodArgument = .lastMonth

        @OptionGroup var asOf: AsOfOptions

        @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
        var out: String = "Reports"

        @Option(name: .long, help: ArgumentHelp("Comma-separated formats: pdf,xlsx,csv,png (or all). (default: pdf,xlsx,csv,png)", valueName: "list"),
                transform: FormatList.init(parsing:))
        var formats: FormatList = .all

        @Option(name: .long, help: ArgumentHelp("Only these user ids (comma-separated).", valueName: "ids"), transform: UserIdList.init(parsing:))
        var users: UserIdList?

        // `.unconditional`: "--jobs -1" reaches the validation ("must be at least 1"), not
        // "Missing value" (a leading dash is otherwise read as the next option).
        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Parallel workers (default: every core).", valueName: "n"))
        var jobs: Int?

        @Option(name: .long, help: ArgumentHelp("Handle only shard K of N (users whose id ≡ K mod N); join manifests with 'ezreport manifest merge'.", valueName: "K/N"),
                transform: ShardArgument.init(parsing:))
        var shard: ShardArgument?

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds to wait for another run writing the same period folder (and shard) before giving up (exit 1).", valueName: "seconds"))
        var wait: Int = 0

        @Flag(name: .long, help: "Redo every user, even those unchanged since the last run.")
        var force = false

        @Flag(name: .long, help: "fsync every file before it is renamed into place (survives power loss; slower).")
        var durable = false

        @Flag(name: .long, help: "No progress output; only errors and the summary line.")
        var quiet = false

        @Option(name: .long, help: AdminLocale.help, transform: AdminLocale.parse)
        var locale: String = "en"

        @Option(name: .customLong("log-format"), help: ArgumentHelp("Log lines as text or json.", valueName: "text|json"))
        var logFormat: RunLog.Format = .text

        func validate() throws {
            try requireOutputFolderNotStandardOutput(out)
            guard (jobs ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1") }
            guard wait >= 0 else { throw ValidationError("--wait takes a number of seconds ≥ 0, e.g. 600") }
            try period.check(asOf: asOf.date)
        }

        func run() throws {
            let log = RunLog(format: logFormat, quiet: quiet)
            do {
                var settings = ReportSettings(ledgerPath: ledger.db,
                                              ledgerSHA256: ledger.isPostgres ? "" : try LedgerDigest.sha256(ofLedger: ledger.db),
                                              period: asOf.resolve(period), asOf: asOf.date,
                                              formats: formats.formats, durable: durable, adminLocale: locale,
                                              openLedger: try ledger.unreportedOpener())
                settings.periodEnd = PeriodEnd(runStarted: Date())
                let options = MonthlyRun.Options(settings: settings, outFolder: out, userIds: users?.ids,
                                                 jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                                 shard: shard.map { ($0.index, $0.count) }, force: force, waitSeconds: Double(wait))
                let result = try MonthlyRun.run(options, log: log)
                if result.exitCode != 0 { throw ExitStatus(rawValue: result.exitCode) ?? .someFailed }
            } catch {
                // With --log-format json the error that ends the run is a JSON line too (it was
                // the one text line a collector could not parse).
                guard logFormat == .json, !(error is ExitCode || error is ExitStatus) else { throw fail(error) }
                log.fatal("\(error)")
                throw ExitStatus.unusable
            }
        }
    }
}
