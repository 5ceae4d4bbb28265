import EZAnalytics
import EZCairo
import EZCore
import EZLedger
import EZPDF
import Foundation

/// One user's export on demand: the statement in one format (or all) into a folder, or a
/// single file to standard output.
package enum ExportRun {
    /// Where the export goes.
    package enum Destination: Sendable {
        /// Files are written (atomically) into this folder.
        case folder(String)
        /// Files are written into `<period>/<id>-<safe-username>` under this folder, as in a monthly
        /// run, so that two users never share a folder (`a/b` and `a_b`, `5` and `alice`); the
        /// period is the one the user got (`last-month` from a payday on the 28th, as of 28 March,
        /// is `2024-03`, not the calendar's `2024-02`).
        case userFolder(under: String)
        /// The single file's bytes are returned for standard output.
        case standardOutput
    }

    /// What an export produced.
    package struct Result: Sendable {
        /// The folder written, when writing to a folder (the user's own, for ``Destination/userFolder(under:)``).
        package var folder: String?
        /// Files written (relative to the destination folder), when writing to a folder.
        package var files: [Manifest.FileEntry]
        /// The bytes for standard output, when exporting to it.
        package var bytes: [UInt8]?
        /// Rows left out of the figures.
        package var quarantined: [QuarantinedRow]
    }

    /// Why an export could not be made.
    package enum ExportError: Error, CustomStringConvertible {
        case notASingleFile(OutputFormat)
        package var description: String {
            switch self {
            case .notASingleFile(let f):
                return "--out - needs a single-file format (pdf or xlsx); \(f.rawValue) writes several files: give --out DIR"
            }
        }
    }

    /// Runs the export for user `idOrName`.
    package static func run(settings: ReportSettings, user idOrName: String, destination: Destination) throws -> Result {
        if case .standardOutput = destination, settings.formats.count != 1 || ![.pdf, .xlsx].contains(settings.formats[0]) {
            throw ExportError.notASingleFile(settings.formats.count == 1 ? settings.formats[0] : .csv)
        }
        // On the other core while the ledger is read: fontconfig reads its set-up (~6 ms), then
        // libqpdf, which completes the PDF and is not linked, is bound (~3 ms).
        let drawsText = settings.formats.contains(.pdf) || settings.formats.contains(.png)
        let completesPDF = settings.formats.contains(.pdf)
        if drawsText {
            Thread.detachNewThread {
                FontSetUp.run()
                if completesPDF { QPDFLibrary.load() }
            }
        }
        let ledger = try settings.openLedger()
        let id = try ledger.findUser(idOrName)
        // The slice is dropped once the figures are made: for a user with 100,000 rows it is tens of MB.
        let (figures, quarantined, username) = try { () throws -> (StatementFigures, [QuarantinedRow], String) in
            let slice = try ledger.loadUser(id: id, through: StatementAnalytics.readThrough(period: settings.period, asOf: settings.asOf))
            return (try StatementAnalytics.statement(for: slice, period: settings.period, asOf: settings.asOf), slice.reportQuarantine,
                    slice.user.username)
        }()
        let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                          period: settings.period, asOf: settings.asOf,
                                          engineVersion: EngineVersion.current, quarantined: quarantined)
        var destination = destination
        if case .userFolder(let parent) = destination {
            destination = .folder(parent + "/" + figures.period.name + "/" + SafeName.userFolder(id: id, username: username))
        }
        switch destination {
        case .userFolder: preconditionFailure("resolved above")
        case .folder(let folder):
            try MonthlyRun.prepareFolder(folder)
            AtomicFile.removeLeftovers(in: folder)
            // One person is waiting: render the files on every core — unless the statement is so large
            // that each format's memory matters more than the wall time (a shop's 100,000 rows).
            let threads = figures.transactions.count >= StatementFiles.largeStatementRows ? 1 : ProcessInfo.processInfo.activeProcessorCount
            let files = try StatementFiles.write(consume figures, provenance: provenance, formats: settings.formats,
                                                 periodFolder: folder, relativeFolder: ".", durable: settings.durable,
                                                 threads: threads)
            return Result(folder: folder, files: files.map { var f = $0; f.path = String(f.path.dropFirst(2)); return f },
                          bytes: nil, quarantined: quarantined)
        case .standardOutput:
            // The same in-memory path as `ezreport serve`, so both give identical bytes.
            let bytes = try StatementBytes.render(figures, provenance: provenance,
                                                  file: settings.formats[0] == .pdf ? .pdf : .xlsx)
            return Result(folder: nil, files: [], bytes: bytes, quarantined: quarantined)
        }
    }
}

/// The admin usage report alone.
package enum AdminRun {
    /// Writes `admin/usage.pdf`, `usage.xlsx` and `usage.csv` for `settings.period` under `folder`;
    /// returns the files, how many users were left out of the figures (0 for a complete report) and
    /// how many rows were quarantined.
    package static func run(settings: ReportSettings, folder: String, currency: Currency = .eur,
                            log: RunLog) throws -> (files: [Manifest.FileEntry], usersLeftOut: Int, rowsQuarantined: Int) {
        let ledger = try settings.openLedger()
        try MonthlyRun.prepareFolder(folder)
        let usage = try UsagePass.compute(ledger: ledger, period: settings.period, asOf: settings.asOf, currency: currency, log: log)
        let provenance = ReportProvenance(ledgerSHA256: settings.ledgerSHA256, ledgerPath: settings.ledgerPath,
                                          period: settings.period, asOf: settings.asOf,
                                          engineVersion: EngineVersion.current, quarantined: [])
        let files = try AdminFiles.write(usage, provenance: provenance, formats: settings.formats.filter { $0 != .png },
                                         periodFolder: folder, durable: settings.durable, locale: settings.adminLocale)
        return (files, usage.usersLeftOut, usage.rowsQuarantined)
    }
}
