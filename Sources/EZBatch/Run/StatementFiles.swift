import EZAnalytics
import EZCharts
import EZCore
import EZCSV
import EZLedger
import EZPDF
import EZXLSX
import Foundation
import Synchronization

/// Renders one user's statement in the requested formats and writes each file atomically into
/// the user's folder. Renderers return bytes, or write to a temporary path this type gives them
/// (libxlsxwriter's workbook, and the PDF, which qpdf writes straight to its file); this type
/// alone names, renames and hashes the files.
enum StatementFiles {
    /// Writes the statement files under `periodFolder/relativeFolder` and describes them for the manifest.
    ///
    /// The work is split into independent pieces (the PDF, the workbook, the CSV files, each chart's
    /// PNG); with `threads` > 1 they run concurrently (an on-demand export uses the idle cores; a
    /// batch already keeps every core busy with other users and passes 1). The entries, and the
    /// error thrown when pieces fail (the first piece's, in the order above), do not depend on timing.
    static func write(_ figures: StatementFigures, provenance: ReportProvenance, formats: [OutputFormat],
                      periodFolder: String, relativeFolder: String, durable: Bool, threads: Int = 1) throws -> [Manifest.FileEntry] {
        let pieces = self.pieces(figures, provenance: provenance, formats: formats, periodFolder: periodFolder,
                                 relativeFolder: relativeFolder, durable: durable)
        var results: [Result<[Manifest.FileEntry], any Error>]
        let workers = min(max(1, threads), pieces.count)
        if workers <= 1 {
            results = pieces.map { piece in Result { try piece() } }
        } else {
            let slots = Mutex<[Result<[Manifest.FileEntry], any Error>]>(Array(repeating: .success([]), count: pieces.count))
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let i = next.add(1, ordering: .relaxed).oldValue
                    guard i < pieces.count else { break }
                    let result = Result { try pieces[i]() }
                    slots.withLock { $0[i] = result }
                }
            }
            results = slots.withLock { $0 }
        }
        var entries: [Manifest.FileEntry] = []
        for result in results { entries += try result.get() }
        return entries.sorted { $0.path < $1.path }
    }

    /// From this many transactions on, a statement is "large": an export renders its formats one
    /// after the other, so that their memory does not add up.
    static let largeStatementRows = 20_000

    /// One closure per independent file (or group of files), in a fixed order.
    private static func pieces(_ figures: StatementFigures, provenance: ReportProvenance, formats: [OutputFormat],
                               periodFolder: String, relativeFolder: String,
                               durable: Bool) -> [@Sendable () throws -> [Manifest.FileEntry]] {
        @Sendable func put(_ name: String, _ bytes: [UInt8]) throws -> Manifest.FileEntry {
            let relative = relativeFolder + "/" + name
            try AtomicFile.write(bytes, to: periodFolder + "/" + relative, durable: durable)
            return Manifest.FileEntry(path: relative, bytes: bytes.count, sha256: FileDigest.sha256(bytes))
        }
        /// A file a C library writes itself, at a temporary path renamed into place; hashed from
        /// the file in chunks, so that a large file is not read back whole. A renderer's own error
        /// is thrown as it is; only the file's handling becomes an ``OutputError``.
        @Sendable func putFile(_ name: String, _ produce: (String) throws -> Void) throws -> Manifest.FileEntry {
            let relative = relativeFolder + "/" + name
            var digest = ""
            var size = 0
            var renderError: (any Error)?
            do {
                try AtomicFile.write(to: periodFolder + "/" + relative, durable: durable) { temp throws(OutputError) in
                    do {
                        try produce(temp)
                    } catch {
                        renderError = error
                        throw OutputError.cannotWrite(path: relative, reason: "\(error)")
                    }
                    do {
                        digest = try FileDigest.sha256(ofFile: temp, cache: nil)
                        size = (try FileManager.default.attributesOfItem(atPath: temp)[.size] as? Int) ?? 0
                    } catch {
                        throw OutputError.cannotWrite(path: relative, reason: "\(error)")
                    }
                }
            } catch {
                throw renderError ?? error
            }
            return Manifest.FileEntry(path: relative, bytes: size, sha256: digest)
        }
        var pieces: [@Sendable () throws -> [Manifest.FileEntry]] = []
        for format in formats {
            switch format {
            case .pdf:
                // qpdf writes the finished PDF straight to the file: a long statement is not held twice.
                pieces.append { [try putFile("statement.pdf") { temp in try StatementPDF.write(figures, provenance: provenance, to: temp) }] }
            case .xlsx:
                pieces.append { [try putFile("statement.xlsx") { temp in try StatementWorkbook.write(figures, provenance: provenance, to: temp) }] }
            case .csv:
                pieces.append { try StatementCSV.files(for: figures).map { try put($0.name, $0.bytes) } }
            case .png:
                for named in StatementCharts.charts(for: figures) {
                    pieces.append { [try put("charts/" + named.fileName, try ChartRenderer.png(named.chart))] }
                }
            }
        }
        return pieces
    }
}
