import EZCore

/// Where a report's figures came from, printed on the workbook's About sheet and the PDF's last
/// page so that a reader can trace any number back to the ledger it was computed from.
package struct ReportProvenance: Hashable, Sendable {
    /// The ledger file's SHA-256, lower-case hex; empty for a ledger in a database server
    /// (PostgreSQL), which has no file to hash (see ``ledgerIsServer``).
    package var ledgerSHA256: String
    /// The ledger's path as given on the command line (a server's URL, which holds no password).
    package var ledgerPath: String
    /// The report period.
    package var period: Period
    /// The as-of date the report was computed at.
    package var asOf: CivilDate
    /// The engine's version, e.g. `1.0.0`.
    package var engineVersion: String
    /// Rows left out of the report's figures, with the reason.
    package var quarantined: [QuarantinedRow]
    /// Whether the ledger is a PostgreSQL database rather than a file (it then has no SHA-256, and
    /// the reports name the server's ledger instead; the run's manifest records its WAL position).
    package var ledgerIsServer: Bool { ledgerSHA256.isEmpty }
    package init(ledgerSHA256: String, ledgerPath: String, period: Period, asOf: CivilDate, engineVersion: String,
                quarantined: [QuarantinedRow]) {
        self.ledgerSHA256 = ledgerSHA256; self.ledgerPath = ledgerPath; self.period = period; self.asOf = asOf
        self.engineVersion = engineVersion; self.quarantined = quarantined
    }
}
