import ArgumentParser
import EZBatch
import EZCore
import EZLedger
import Foundation

/// `--db`: the ledger every command reads, and `--db-password-file` for a PostgreSQL one.
struct LedgerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The ledger: a SQLite file, or postgres://USER@HOST:PORT/DBNAME[?sslmode=disable|require|verify-full] (read-only, never changed).",
        valueName: "path|url"))
    var db: String

    @Option(name: .customLong("db-password-file"), help: ArgumentHelp(
        "File whose first line is the PostgreSQL password (default: $PGPASSWORD).", valueName: "path"))
    var dbPasswordFile: String?
}

/// `--period` (required) and `--as-of`, shared by the on-demand report commands; `monthly`
/// declares its own `--period` (it defaults to last month) with the same type and help.
struct PeriodOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(PeriodArgument.help, valueName: "period"), transform: PeriodArgument.init(parsing:))
    var period: PeriodArgument

    @OptionGroup var asOf: AsOfOptions

    /// The period, resolved against the as-of date.
    var resolvedPeriod: Period { asOf.resolve(period) }

    func validate() throws { try period.check(asOf: asOf.date) }
}

/// Refuses an empty `--out` (an unset `$OUT` in a cron line): `<out>/<period>` would be
/// `/<period>`, at the root of the file system.
func requireOutputFolder(_ out: String) throws {
    guard !out.trimmingCharacters(in: .whitespaces).isEmpty else {
        throw ValidationError("--out is empty: give the output folder (default: Reports)")
    }
}

/// `requireOutputFolder`, and no `-`: standard output is `export`'s alone (one file); a command
/// that writes a folder would make one named `-`.
func requireOutputFolderNotStandardOutput(_ out: String) throws {
    try requireOutputFolder(out)
    guard out != "-" else { throw ValidationError("--out - (standard output) is for 'ezreport export' of one pdf or xlsx; give a folder") }
}

/// Turns any error into one line on stderr and the matching exit status.
func fail(_ error: any Error) -> any Error {
    if error is ExitCode || error is ExitStatus { return error }
    printError("\(error)")
    return ExitStatus.unusable
}

/// `1 row was quarantined`, `3 rows were quarantined`: the count in a sentence.
func quarantinedRows(_ count: Int) -> String {
    count == 1 ? "1 row was quarantined" : "\(count) rows were quarantined"
}

/// The ledger's SHA-256, or a clean exit-1 error.
func ledgerDigest(_ path: String) throws -> String {
    do { return try LedgerDigest.sha256(ofLedger: path) } catch { throw fail(error) }
}
