import ArgumentParser
import EZBatch
import EZCore
import Foundation

extension EZReport {
    /// `ezreport export`: one user's export, on demand.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export one user's statement for a period, on demand.",
            discussion: """
                Examples:
                  ezreport export --db ledger.sqlite --user alice --period 2026-10 \\
                      --format pdf --out - > alice.pdf
                  ezreport export --db ledger.sqlite --user 42 --period this-month \\
                      --format all --out exports/42
                """
        )

        @OptionGroup var ledger: LedgerOptions
        @OptionGroup var period: PeriodOptions

        @Option(name: .long, help: ArgumentHelp("The user's id or username.", valueName: "id|username"))
        var user: String

        @Option(name: .long, help: ArgumentHelp("pdf, xlsx, csv, png or all. (default: all)", valueName: "format"), transform: FormatList.init(parsing:))
        var format: FormatList = .all

        @Option(name: .long, help: ArgumentHelp("Output folder, or - for standard output (pdf or xlsx only). Default: Reports/exports/<period>/<id>-<username>.", valueName: "dir|-"))
        var out: String?

        func validate() throws {
            if let out { try requireOutputFolder(out) }
            if out == "-", !format.isSingleFile {
                throw ValidationError("--out - writes one file: give one --format, pdf or xlsx (\(format.formats.count > 1 ? "a list of formats writes" : "csv and png write") "
                                      + "several files; give --out DIR)")
            }
        }

        func run() throws {
            let resolved = period.resolvedPeriod
            let settings = ReportSettings(ledgerPath: ledger.db, ledgerSHA256: try ledger.digest(), period: resolved,
                                          asOf: period.asOf.date, formats: format.formats, openLedger: try ledger.opener())
            let destination: ExportRun.Destination = out == "-" ? .standardOutput
                : out.map { .folder($0) } ?? .userFolder(under: "Reports/exports")
            do {
                let result = try ExportRun.run(settings: settings, user: user, destination: destination)
                if let bytes = result.bytes {
                    try StandardOutput.write(bytes)
                } else if let folder = result.folder {
                    for f in result.files { print(folder + "/" + f.path) }
                }
                if !result.quarantined.isEmpty {
                    printError("\(quarantinedRows(result.quarantined.count)) (left out of the figures); run 'ezreport check'")
                    throw ExitStatus.quarantined
                }
            } catch {
                throw fail(error)
            }
        }
    }
}
