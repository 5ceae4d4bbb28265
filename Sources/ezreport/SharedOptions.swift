import ArgumentParser
import EZBatch
import EZCore
import EZLedger
import Foundation

/// `--db`: the ledger every command reads.
struct LedgerOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Path to the ledger SQLite database (opened read-only, never changed).", valueName: "path"))
    var db: String
}

/// `--period` (required) and `--as-of`, shared by the on-demand report commands; `monthly`
/// declares its own `--period` (it defaults to last month) with the same type and help.
struct PeriodOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(PeriodArgument.help, valueName: "period"), transform: PeriodArgument.init(parsing:))
    var period: PeriodArgument

    @OptionGroup var asOf: AsOfOptions

    /// The period, resolved against the as-of date.
    var resolvedPeriod: Period { asOf.resolve(period) }
}

/// Turns any error into one line on stderr and the matching exit status.
func fail(_ error: any Error) -> any Error {
    if error is ExitCode || error is ExitStatus { return error }
    printError("\(error)")
    return ExitStatus.unusable
}

/// The ledger's SHA-256, or a clean exit-1 error.
func ledgerDigest(_ path: String) throws -> String {
    do { return try LedgerDigest.sha256(ofLedger: path) } catch { throw fail(error) }
}
