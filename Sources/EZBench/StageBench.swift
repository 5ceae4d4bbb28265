import EZAnalytics
import EZBatch
import EZCharts
import EZCore
import EZCSV
import EZLedger
import EZPDF
import EZXLSX
import Foundation

/// Where one user's statement spends its time: the same steps `StatementFiles` takes in a run,
/// each timed apart, in-process and on one thread.
///
/// Chart PNGs are split into drawing (Cairo/Pango into an image surface) and encoding (PNG).
/// Files go to a scratch folder through `AtomicFile`, as in a run; the folder is removed afterwards
/// unless `keepScratch` (the caller removes it later, away from any timing: see scripts/bench.sh).
enum StageBench {
    static func run(db: String, period: Period, asOf: CivilDate, userIds: [Int64]?, limit: Int,
                    rounds: Int, scratch: String, keepScratch: Bool = false) throws -> (StageTimes, users: Int) {
        let ledger = try Ledger(path: db)
        let ids = try userIds ?? ledger.userRefs().filter { !$0.deleted }.prefix(limit).map(\.id)
        let through = max(period.end, asOf)
        let ratesDigest = try ledger.exchangeRatesDigest()
        var t = StageTimes()
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { if !keepScratch { try? FileManager.default.removeItem(atPath: scratch) } }
        for _ in 0..<rounds {
            for id in ids {
                let slice = try t.time("ledger reads") { try ledger.loadUser(id: id, through: through) }
                _ = t.time("input fingerprint") {
                    InputFingerprint.of(slice, settings: "bench|\(period.name)|\(asOf)", ratesDigest: ratesDigest)
                }
                let figures = try t.time("analytics") { try StatementAnalytics.statement(for: slice, period: period, asOf: asOf) }
                let provenance = ReportProvenance(ledgerSHA256: String(repeating: "0", count: 64), ledgerPath: db,
                                                  period: period, asOf: asOf, engineVersion: EngineVersion.current,
                                                  quarantined: slice.quarantined)
                let folder = scratch + "/\(id)"
                func put(_ name: String, _ bytes: [UInt8]) throws {
                    _ = t.time("sha-256 of files") { FileDigest.sha256(bytes) }
                    try t.time("file writes") { try AtomicFile.write(bytes, to: folder + "/" + name) }
                }
                // PDF
                let pdf = try t.time("pdf (layout+charts+cairo)") { try StatementPDF.render(figures, provenance: provenance) }
                try put("statement.pdf", pdf)
                // XLSX: libxlsxwriter writes the file itself; read back to hash, as a run does.
                let xlsxPath = folder + "/statement.xlsx"
                try t.time("xlsx (libxlsxwriter)") { try StatementWorkbook.write(figures, provenance: provenance, to: xlsxPath) }
                let xlsx = try t.time("file writes") { try Data(contentsOf: URL(fileURLWithPath: xlsxPath)) }
                _ = t.time("sha-256 of files") { FileDigest.sha256(xlsx) }
                // CSV
                let csv = t.time("csv") { StatementCSV.files(for: figures) }
                for f in csv { try put(f.name, f.bytes) }
                // PNG charts: model, drawing, encoding.
                let charts = t.time("chart models") { StatementCharts.charts(for: figures) }
                for named in charts {
                    let surface = try t.time("png: chart drawing") { try ChartRenderer.surface(named.chart) }
                    let png = try t.time("png: encoding") { try surface.pngData() }
                    try put("charts/" + named.fileName, png)
                }
            }
        }
        return (t, ids.count * rounds)
    }
}
