import ArgumentParser
import EZCore

/// `--period`: a period as written on the command line, checked when parsed and resolved
/// against `--as-of` when run (presets such as `last-month` are relative to it).
struct PeriodArgument: ExpressibleByArgument, Sendable {
    /// The text as given.
    let text: String

    /// Checks `text`'s form, or throws a ValidationError naming the bad value and the accepted forms.
    init(parsing text: String) throws {
        // Whether a text is a period does not depend on the as-of date: any date checks the form.
        do { _ = try Period.parse(text, asOf: CivilDate(year: 2000, month: 1, day: 1)) } catch {
            throw ValidationError(error.description)
        }
        self.text = text
    }

    init?(argument: String) {
        guard let parsed = try? PeriodArgument(parsing: argument) else { return nil }
        self = parsed
    }

    /// The monthly schedule's default.
    static let lastMonth = try! PeriodArgument(parsing: "last-month")

    var defaultValueDescription: String { text }

    /// Throws a ValidationError when the period, resolved as of `asOf`, leaves the supported
    /// years (`last-year` as of 1900-06-01 is 1899): a relative period must never fall back to
    /// another one.
    func check(asOf: CivilDate) throws {
        do { _ = try Period.parse(text, asOf: asOf) } catch {
            throw ValidationError("\(error.description.prefix { $0 != ";" }) (as of \(asOf))")
        }
    }

    /// The period as of `asOf`.
    func resolved(asOf: CivilDate) -> Period {
        // The form was checked when parsed; no preset fails to resolve.
        (try? Period.parse(text, asOf: asOf)) ?? Period.month(containing: asOf)
    }

    /// The help line every `--period` shares.
    static let help = "The report period: \(Period.acceptedForms)."
}
