import EZAnalytics
import EZCharts
import EZCore
import EZCSV
import EZPDF
import EZXLSX
import Foundation

/// One file of a user's statement rendered to bytes in memory, with the same renderers and
/// inputs as the files `monthly` and `export` write, so the bytes are identical.
///
/// `export --out -` and `ezreport serve` both go through here. Nothing is shared between calls:
/// concurrent renders never collide (the workbook's temporary file has a unique name and is
/// removed afterwards).
///
/// ```swift
/// let pdf = try StatementBytes.render(figures, provenance: provenance, file: .pdf)
/// ```
package enum StatementBytes {
    /// Which file of the statement.
    package enum File: Hashable, Sendable {
        /// `statement.pdf`.
        case pdf
        /// `statement.xlsx`.
        case xlsx
        /// One CSV file by its stem (`transactions`, `categories`, …, as in ``StatementCSV/fileNames``).
        case csv(String)
        /// One chart by its stem (`categories`, `trend`, …, as in `charts/<stem>.png`).
        case png(String)
    }

    /// Why a file could not be made.
    package enum RenderError: Error, CustomStringConvertible, Equatable {
        /// The statement has no file of that name (e.g. `groups.png` for a user in no group).
        case noSuchFile(String)
        package var description: String {
            switch self {
            case .noSuchFile(let name): return "the statement has no file '\(name)'"
            }
        }
    }

    /// The CSV stems a statement always has, in the order of ``StatementCSV/fileNames``.
    package static let csvNames: [String] = StatementCSV.fileNames.map { String($0.dropLast(4)) }

    /// The bytes of `file` for `figures`.
    package static func render(_ figures: StatementFigures, provenance: ReportProvenance, file: File) throws -> [UInt8] {
        switch file {
        case .pdf:
            return try StatementPDF.render(figures, provenance: provenance)
        case .xlsx:
            return try WorkbookBytes.make { path in try StatementWorkbook.write(figures, provenance: provenance, to: path) }
        case .csv(let stem):
            guard csvNames.contains(stem) else { throw RenderError.noSuchFile(stem + ".csv") }
            guard let csv = StatementCSV.files(for: figures).first(where: { $0.name == stem + ".csv" }) else {
                throw RenderError.noSuchFile(stem + ".csv")
            }
            return csv.bytes
        case .png(let stem):
            guard let named = StatementCharts.charts(for: figures).first(where: { $0.fileName == stem + ".png" }) else {
                throw RenderError.noSuchFile("charts/" + stem + ".png")
            }
            return try ChartRenderer.png(named.chart)
        }
    }
}

/// libxlsxwriter writes only to a file: a workbook is written to a unique temporary file, read
/// back and the file removed, whatever happens.
package enum WorkbookBytes {
    /// Runs `write` with a fresh temporary path and returns the file's bytes.
    package static func make(_ write: (String) throws -> Void) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ezreport-\(getpid())-\(UUID().uuidString).xlsx").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
