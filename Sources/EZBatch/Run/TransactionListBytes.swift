import EZAnalytics
import EZCSV
import EZPDF
import EZXLSX

/// A filtered transaction export rendered to bytes in memory (`ezreport serve`'s
/// `/transactions.{csv,xlsx,pdf}`): the same rows and columns in every format.
///
/// ```swift
/// let xlsx = try TransactionListBytes.render(list, provenance: provenance, format: .xlsx)
/// ```
package enum TransactionListBytes {
    /// The formats of the export.
    package enum Format: String, Sendable, CaseIterable {
        case csv, xlsx, pdf
    }

    /// The bytes of `list` as `format`.
    package static func render(_ list: TransactionList, provenance: ReportProvenance, format: Format) throws -> [UInt8] {
        switch format {
        case .csv: return StatementCSV.transactionsFile(for: list).bytes
        case .xlsx: return try WorkbookBytes.make { path in try TransactionsWorkbook.write(list, provenance: provenance, to: path) }
        case .pdf: return try TransactionListPDF.render(list, provenance: provenance)
        }
    }
}
