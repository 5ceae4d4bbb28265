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

/// `--period` and `--as-of`, shared by the report commands.
struct PeriodOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The report period: \(Period.acceptedForms).", valueName: "period"))
    var period: String

    @Option(name: .customLong("as-of"), help: ArgumentHelp("The date the report is as of (YYYY-MM-DD; default: today, UTC). Presets like last-month are relative to it.", valueName: "date"))
    var asOf: String?

    /// The as-of date, parsed.
    func resolvedAsOf() throws -> CivilDate { try Self.resolveAsOf(asOf) }

    /// The period, resolved against the as-of date.
    func resolvedPeriod() throws -> Period { try Self.resolvePeriod(period, asOf: asOf) }

    /// `--as-of` text (nil: today) as a date, or a ValidationError naming the bad value.
    static func resolveAsOf(_ text: String?) throws -> CivilDate {
        guard let text else { return today() }
        guard let d = CivilDate(iso: text) else { throw ValidationError("invalid --as-of '\(text)': expected a date YYYY-MM-DD") }
        return d
    }

    /// `--period` text resolved against `--as-of`, or a ValidationError naming the bad value.
    static func resolvePeriod(_ text: String, asOf: String?) throws -> Period {
        do { return try Period.parse(text, asOf: try resolveAsOf(asOf)) } catch let e as PeriodError {
            throw ValidationError(e.description)
        }
    }

    func validate() throws {
        _ = try resolvedPeriod()
    }

    /// Today's date in UTC.
    static func today() -> CivilDate {
        CivilDate(dayNumber: Int32((Date().timeIntervalSince1970 / 86400).rounded(.down)))
    }
}

/// Turns any error into one line on stderr and the matching exit code.
func fail(_ error: any Error) -> ExitCode {
    if let exit = error as? ExitCode { return exit }
    printError("\(error)")
    return ExitStatus.unusable
}

/// The ledger's SHA-256, or a clean exit-1 error.
func ledgerDigest(_ path: String) throws -> String {
    do { return try LedgerDigest.sha256(ofLedger: path) } catch { throw fail(error) }
}
