import ArgumentParser
import EZCore
import Foundation

/// `--as-of`: the date a report is as of, shared by every report command.
struct AsOfOptions: ParsableArguments {
    @Option(name: .customLong("as-of"), help: ArgumentHelp("The date the report is as of (YYYY-MM-DD; default: today, UTC). Presets like last-month are relative to it.", valueName: "date"),
            transform: AsOfOptions.parseDate)
    var asOf: CivilDate?

    /// The as-of date: as given, or today in UTC.
    var date: CivilDate { asOf ?? Self.today() }

    /// `period` resolved against the as-of date.
    func resolve(_ period: PeriodArgument) -> Period { period.resolved(asOf: date) }

    /// A `YYYY-MM-DD` date, or a ValidationError naming the bad value.
    static func parseDate(_ text: String) throws -> CivilDate {
        guard let date = CivilDate(iso: text) else { throw ValidationError("invalid --as-of '\(text)': expected a date YYYY-MM-DD") }
        guard Period.isSupported(date) else {
            throw ValidationError("invalid --as-of '\(text)': years \(Period.supportedYears.lowerBound) to \(Period.supportedYears.upperBound) only")
        }
        return date
    }

    /// Today's date in UTC.
    static func today() -> CivilDate {
        CivilDate(dayNumber: Int32((Date().timeIntervalSince1970 / 86400).rounded(.down)))
    }
}
