import EZAnalytics
import EZCharts
import EZCore
import EZCSV
import EZLedger
import EZPDF
import EZXLSX
import Foundation

/// Renders one user's statement in the requested formats and writes each file atomically into
/// the user's folder. Renderers return bytes (or write a temporary file, for libxlsxwriter);
/// this type alone touches the filesystem.
enum StatementFiles {
    /// Writes the statement files under `periodFolder/relativeFolder` and describes them for the manifest.
    static func write(_ figures: StatementFigures, provenance: ReportProvenance, formats: [OutputFormat],
                      periodFolder: String, relativeFolder: String, durable: Bool) throws -> [Manifest.FileEntry] {
        var entries: [Manifest.FileEntry] = []
        func put(_ name: String, _ bytes: [UInt8]) throws {
            let relative = relativeFolder + "/" + name
            try AtomicFile.write(bytes, to: periodFolder + "/" + relative, durable: durable)
            entries.append(Manifest.FileEntry(path: relative, bytes: bytes.count, sha256: FileDigest.sha256(bytes)))
        }
        for format in formats {
            switch format {
            case .pdf:
                try put("statement.pdf", try StatementPDF.render(figures, provenance: provenance))
            case .xlsx:
                let relative = relativeFolder + "/statement.xlsx"
                var digest = ""
                var size = 0
                try AtomicFile.write(to: periodFolder + "/" + relative, durable: durable) { temp throws(OutputError) in
                    do {
                        try StatementWorkbook.write(figures, provenance: provenance, to: temp)
                        let data = try Data(contentsOf: URL(fileURLWithPath: temp))
                        digest = FileDigest.sha256(data)
                        size = data.count
                    } catch let e as OutputError {
                        throw e
                    } catch {
                        throw OutputError.cannotWrite(path: relative, reason: "\(error)")
                    }
                }
                entries.append(Manifest.FileEntry(path: relative, bytes: size, sha256: digest))
            case .csv:
                for file in StatementCSV.files(for: figures) { try put(file.name, file.bytes) }
            case .png:
                for named in StatementCharts.charts(for: figures) {
                    try put("charts/" + named.fileName, try ChartRenderer.png(named.chart))
                }
            }
        }
        return entries.sorted { $0.path < $1.path }
    }
}
