import EZAnalytics
import EZCore
import EZLedger
import Foundation

/// One user's export on demand: the statement in one format (or all) into a folder, or a
/// single file to standard output.
public enum ExportRun {
    /// Where the export goes.
    public enum Destination: Sendable {
        /// Files are written (atomically) into this folder.
        case folder(String)
        /// The single file's bytes are returned for standard output.
        case standardOutput
    }

    /// What an export produced.
    public struct Result: Sendable {
        /// Files written (relative to the destination folder), when writing to a folder.
        public var files: [Manifest.FileEntry]
        /// The bytes for standard output, when exporting to it.
        public var bytes: [UInt8]?
        /// Rows left out of the figures.
        public var quarantined: [QuarantinedRow]
    }

    /// Why an export could not be made.
    public enum ExportError: Error, CustomStringConvertible {
        case notASingleFile(OutputFormat)
        public var description: String {
            switch self {
            case .notASingleFile(let f):
                return "--out - needs a single-file format (pdf or xlsx); \(f.rawValue) writes several files: give --out DIR"
            }
        }
    }

    /// Runs the export for user `idOrName`.
    public static func run(settings: ReportSettings, user idOrName: String, destination: Destination) throws -> Result {
        if case .standardOutput = destination, settings.formats.count != 1 || ![.pdf, .xlsx].contains(settings.formats[0]) {
            throw ExportError.notASingleFile(settings.formats.count == 1 ? settings.formats[0] : .csv)
        }
        let ledger = try Ledger(path: settings.ledgerPath)
        let id = try ledger.findUser(idOrName)
        let slice = try ledger.loadUser(id: id, through: max(settings.period.end, settings.asOf))
        let figures = try StatementAnalytics.statement(for: slice, period: settings.period, asOf: settings.asOf)
        let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                          period: settings.period, asOf: settings.asOf,
                                          engineVersion: EngineVersion.current, quarantined: slice.quarantined)
        switch destination {
        case .folder(let folder):
            try MonthlyRun.prepareFolder(folder)
            AtomicFile.removeLeftovers(in: folder)
            // One person is waiting: render the files on every core.
            let files = try StatementFiles.write(figures, provenance: provenance, formats: settings.formats,
                                                 periodFolder: folder, relativeFolder: ".", durable: settings.durable,
                                                 threads: ProcessInfo.processInfo.activeProcessorCount)
            return Result(files: files.map { var f = $0; f.path = String(f.path.dropFirst(2)); return f },
                          bytes: nil, quarantined: slice.quarantined)
        case .standardOutput:
            // The same in-memory path as `ezreport serve`, so both give identical bytes.
            let bytes = try StatementBytes.render(figures, provenance: provenance,
                                                  file: settings.formats[0] == .pdf ? .pdf : .xlsx)
            return Result(files: [], bytes: bytes, quarantined: slice.quarantined)
        }
    }
}

/// The admin usage report alone.
public enum AdminRun {
    /// Writes `admin/usage.pdf`, `usage.xlsx` and `usage.csv` for `settings.period` under `folder`.
    public static func run(settings: ReportSettings, folder: String, currency: Currency = .eur, log: RunLog) throws -> [Manifest.FileEntry] {
        let ledger = try Ledger(path: settings.ledgerPath)
        try MonthlyRun.prepareFolder(folder)
        let usage = try UsagePass.compute(ledger: ledger, period: settings.period, asOf: settings.asOf, currency: currency, log: log)
        let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                          period: settings.period, asOf: settings.asOf,
                                          engineVersion: EngineVersion.current, quarantined: [])
        return try AdminFiles.write(usage, provenance: provenance, formats: settings.formats.filter { $0 != .png },
                                    periodFolder: folder, durable: settings.durable)
    }
}
