import EZCore
import EZLedger

/// What every report of one run shares: which ledger, which period, as of when, in which formats.
package struct ReportSettings: Sendable {
    /// The ledger's path as given.
    package var ledgerPath: String
    /// The ledger file's SHA-256 (hashed once per run).
    package var ledgerSHA256: String
    package var period: Period
    package var asOf: CivilDate
    package var formats: [OutputFormat]
    /// fsync each file before renaming it into place (slower; survives power loss, not just kills).
    package var durable: Bool
    /// The admin usage report's locale (`--locale`; `en` by default). Statements follow each
    /// user's own locale, so it is not part of a user's fingerprint.
    package var adminLocale: String
    /// Opens the ledger (a SQLite file by default; the command line passes a PostgreSQL opener for
    /// a `postgres://` URL). Each call opens a new connection.
    package var openLedger: @Sendable () throws -> any LedgerStore
    /// Set by `monthly`: users whose period is not over yet in their own time zone when the run
    /// starts are held back (see ``PeriodEnd``). Nil for other callers.
    package var periodEnd: PeriodEnd?

    package init(ledgerPath: String, ledgerSHA256: String, period: Period, asOf: CivilDate, formats: [OutputFormat],
                 durable: Bool = false, adminLocale: String = "en",
                 openLedger: (@Sendable () throws -> any LedgerStore)? = nil) {
        self.ledgerPath = ledgerPath; self.ledgerSHA256 = ledgerSHA256; self.period = period; self.asOf = asOf
        self.formats = formats; self.durable = durable; self.adminLocale = adminLocale
        self.openLedger = openLedger ?? { try Ledger(path: ledgerPath) }
    }

    /// What a run records of the admin report's language next to its settings, so that an admin
    /// report in another language is not reused (empty for the default, English, so that earlier
    /// runs' records still match).
    var adminLocaleTag: String { adminLocale == "en" ? "" : "|admin-locale:" + adminLocale }

    /// The part of the fingerprint that comes from the settings (not from the rows).
    var fingerprintSettings: String {
        "\(EngineVersion.current)|\(period.name)|\(period.start)|\(period.end)|\(asOf)|\(formats.map(\.rawValue).joined(separator: ","))"
    }
}
