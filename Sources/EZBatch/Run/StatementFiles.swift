import EZAnalytics
import EZCairo
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
    ///
    /// One piece after the other (`threads` 1), the PDF is made in two steps: drawn by Cairo first,
    /// completed by qpdf last, once every other file is written
    /// and `figures` are released. qpdf's objects for a long statement (~45 MB for 2,228 pages)
    /// then never coexist with its rows (~23 MB for 100,000): the caller hands `figures` over and
    /// keeps no copy, or they stay alive anyway.
    static func write(_ figures: consuming StatementFigures, provenance: ReportProvenance, formats: [OutputFormat],
                      periodFolder: String, relativeFolder: String, durable: Bool, threads: Int = 1) throws -> [Manifest.FileEntry] {
        let files = Files(periodFolder: periodFolder, relativeFolder: relativeFolder, durable: durable)
        let results: [Result<[Manifest.FileEntry], any Error>]
        if threads <= 1 {
            results = oneAfterAnother(figures, provenance: provenance, formats: formats, files: files)
        } else {
            let pieces = formats.flatMap { self.pieces(figures, provenance: provenance, format: $0, files: files) }
            results = concurrently(pieces, threads: threads)
        }
        var entries: [Manifest.FileEntry] = []
        for result in results { entries += try result.get() }
        return entries.sorted { $0.path < $1.path }
    }

    /// Runs `pieces` on up to `threads` threads; the results in the pieces' order.
    private static func concurrently(_ pieces: [@Sendable () throws -> [Manifest.FileEntry]],
                                     threads: Int) -> [Result<[Manifest.FileEntry], any Error>] {
        let workers = min(max(1, threads), pieces.count)
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
        return slots.withLock { $0 }
    }

    /// Runs the pieces one after the other, the PDF drawn in its place and completed last, after
    /// `figures` are released (see ``write(_:provenance:formats:periodFolder:relativeFolder:durable:threads:)``);
    /// the results in the formats' order.
    private static func oneAfterAnother(_ figures: consuming StatementFigures, provenance: ReportProvenance,
                                        formats: [OutputFormat], files: Files) -> [Result<[Manifest.FileEntry], any Error>] {
        // Swift does not promise to release a value at its last use: the figures are moved into an
        // optional and dropped explicitly.
        var held: StatementFigures? = consume figures
        let large = held!.transactions.count >= largeStatementRows
        var drawn: Result<DrawnPDF, any Error>?
        var results: [[Result<[Manifest.FileEntry], any Error>]] = []
        for format in formats {
            if format == .pdf {
                drawn = Result { try StatementPDF.draw(held!, provenance: provenance) }
                results.append([])
            } else {
                results.append(pieces(held!, provenance: provenance, format: format, files: files).map { piece in Result { try piece() } })
            }
        }
        held = nil
        // qpdf's pass is a long statement's peak: the charts' idle pixel blocks go back first.
        if large { CairoSurface.releaseIdlePixelMemory() }
        if let drawn, let slot = formats.firstIndex(of: .pdf) {
            results[slot] = [Result { [try files.put("statement.pdf") { temp in _ = try drawn.get().finish(to: .file(path: temp)) }] }]
        }
        return results.flatMap { $0 }
    }

    /// From this many transactions on, a statement is "large": an export renders its formats one
    /// after the other, so that their memory does not add up.
    static let largeStatementRows = 20_000

    /// The pieces that make `format`'s files (one for each chart's PNG), in a fixed order.
    private static func pieces(_ figures: StatementFigures, provenance: ReportProvenance, format: OutputFormat,
                               files: Files) -> [@Sendable () throws -> [Manifest.FileEntry]] {
        switch format {
        case .pdf:
            // qpdf writes the finished PDF straight to the file: a long statement is not held twice.
            return [{ [try files.put("statement.pdf") { temp in try StatementPDF.write(figures, provenance: provenance, to: temp) }] }]
        case .xlsx:
            return [{ [try files.put("statement.xlsx") { temp in try StatementWorkbook.write(figures, provenance: provenance, to: temp) }] }]
        case .csv:
            // transactions.csv is written as it is built: a 100,000-row file is ~12 MB.
            return [{
                [try files.put("transactions.csv") { temp in try StatementCSV.writeTransactions(figures, to: temp) }]
                    + (try StatementCSV.filesAfterTransactions(for: figures).map { try files.put($0.name, $0.bytes) })
            }]
        case .png:
            return StatementCharts.charts(for: figures).map { named in
                { [try files.put("charts/" + named.fileName, try ChartRenderer.png(named.chart))] }
            }
        }
    }

    /// Where one statement's files go, and how each is written, renamed into place and hashed.
    private struct Files: Sendable {
        let periodFolder: String
        let relativeFolder: String
        let durable: Bool

        /// The file `relative` (under `periodFolder`) as errors name it: no `./` in the middle.
        func path(of relative: String) -> String {
            periodFolder + "/" + (relative.hasPrefix("./") ? String(relative.dropFirst(2)) : relative)
        }

        /// Writes `bytes` as the file `name`.
        func put(_ name: String, _ bytes: [UInt8]) throws -> Manifest.FileEntry {
            let relative = relativeFolder + "/" + name
            try AtomicFile.write(bytes, to: path(of: relative), durable: durable)
            return Manifest.FileEntry(path: relative, bytes: bytes.count, sha256: FileDigest.sha256(bytes))
        }

        /// A file a C library writes itself, at a temporary path renamed into place; hashed from
        /// the file in chunks, so that a large file is not read back whole. A renderer's own error
        /// is thrown as it is, but one writing the file (``StatementFiles/writeFailure(_:temp:)``) names the file,
        /// not its temporary path; the file's handling becomes an ``OutputError``.
        func put(_ name: String, _ produce: (String) throws -> Void) throws -> Manifest.FileEntry {
            let relative = relativeFolder + "/" + name
            var digest = ""
            var size = 0
            var renderError: (any Error)?
            do {
                try AtomicFile.write(to: path(of: relative), durable: durable) { temp throws(OutputError) in
                    do {
                        try produce(temp)
                    } catch {
                        renderError = StatementFiles.writeFailure(error, temp: temp).map { OutputError.cannotWrite(path: path(of: relative), reason: $0) }
                            ?? error
                        throw OutputError.cannotWrite(path: relative, reason: OutputError.reason(error))
                    }
                    do {
                        digest = try FileDigest.sha256(ofFile: temp, cache: nil)
                        size = (try FileManager.default.attributesOfItem(atPath: temp)[.size] as? Int) ?? 0
                    } catch {
                        throw OutputError.cannotWrite(path: relative, reason: OutputError.reason(error))
                    }
                }
            } catch {
                throw renderError ?? error
            }
            return Manifest.FileEntry(path: relative, bytes: size, sha256: digest)
        }
    }

    /// The reason, when `error` is a renderer's failure to write its file at `temp` (the disk
    /// full, the file over the size limit), not a failure to render.
    static func writeFailure(_ error: any Error, temp: String) -> String? {
        switch error {
        case PDFOutputError.cannotWrite(_, let reason): return reason
        case CSVOutputError.cannotWrite(_, let reason): return reason
        case let xlsx as XLSXError where xlsx.context == temp: return xlsx.message
        default: return nil
        }
    }
}
