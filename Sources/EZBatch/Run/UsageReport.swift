import EZAnalytics
import EZCore
import EZCSV
import EZLedger
import EZPDF
import EZXLSX

/// The admin usage report in memory, for callers that answer with bytes (`ezreport serve`):
/// the same figures and renderers as `ezreport admin`, cells under five users suppressed.
package enum UsageReport {
    /// A file of the report.
    package enum File: String, Sendable, CaseIterable {
        case pdf, xlsx, csv
    }

    /// The usage figures of the ledger as `snapshot` sees it (one read transaction: every user
    /// and row as of one moment) for `period` as of `asOf`.
    package static func figures(in snapshot: LedgerReadTransaction, period: Period, asOf: CivilDate,
                                currency: Currency = .eur) throws -> UsageFigures {
        try UsagePass.compute(in: snapshot, period: period, asOf: asOf, currency: currency)
    }

    /// The bytes of `file` for `usage`.
    package static func render(_ usage: UsageFigures, provenance: ReportProvenance, file: File) throws -> [UInt8] {
        switch file {
        case .pdf: return try UsagePDF.render(usage, provenance: provenance)
        case .csv: return UsageCSV.file(for: usage).bytes
        case .xlsx: return try WorkbookBytes.make { path in try UsageWorkbook.write(usage, provenance: provenance, to: path) }
        }
    }
}
