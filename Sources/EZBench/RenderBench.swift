import EZAnalytics
import EZBatch
import EZCairo
import EZCharts
import EZCore
import EZLedger
import EZPDF
import Foundation

/// The two renderers that lay text out (the PDF statement and the chart drawing) timed apart on
/// figures computed beforehand: CPU ms per statement, the median of `rounds` rounds over the users.
///
/// With `dump`, the PDFs and chart PNGs of the last round are written there, to compare two builds
/// byte for byte (`cmp -r`).
enum RenderBench {
    static func run(db: String, period: Period, asOf: CivilDate, limit: Int, rounds: Int, dump: String?) throws -> String {
        let ledger = try Ledger(path: db)
        let ids = try ledger.userRefs().filter { !$0.deleted }.prefix(limit).map(\.id)
        let through = max(period.end, asOf)
        var work: [(id: Int64, figures: StatementFigures, provenance: ReportProvenance)] = []
        for id in ids {
            let slice = try ledger.loadUser(id: id, through: through)
            let figures = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf)
            let provenance = ReportProvenance(ledgerSHA256: String(repeating: "0", count: 64), ledgerPath: db,
                                              period: period, asOf: asOf, engineVersion: EngineVersion.current,
                                              quarantined: slice.quarantined)
            work.append((id, figures, provenance))
        }
        if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
        var pdfTimes: [Double] = [], completeTimes: [Double] = [], chartTimes: [Double] = []
        var pdfBytes = 0, charts = 0
        for round in 0..<rounds {
            let last = round == rounds - 1
            var c0 = Clock.threadCPU()
            var pdfs: [[UInt8]] = []
            var completing = 0.0
            for w in work {
                let drawn = try StatementPDF.draw(w.figures, provenance: w.provenance)
                let c1 = Clock.threadCPU()
                pdfs.append(try drawn.finish())
                completing += Clock.threadCPU() - c1
            }
            pdfTimes.append(Clock.threadCPU() - c0)
            completeTimes.append(completing)
            pdfBytes = pdfs.reduce(0) { $0 + $1.count }
            c0 = Clock.threadCPU()
            var surfaces: [(String, CairoSurface)] = []
            for w in work {
                for named in StatementCharts.charts(for: w.figures) {
                    let surface = try ChartRenderer.surface(named.chart)
                    if last && dump != nil { surfaces.append(("\(w.id)-\(named.fileName)", surface)) }
                }
            }
            chartTimes.append(Clock.threadCPU() - c0)
            charts = work.reduce(0) { $0 + StatementCharts.charts(for: $1.figures).count }
            if last, let dump {
                for (w, pdf) in zip(work, pdfs) { try Data(pdf).write(to: URL(fileURLWithPath: dump + "/\(w.id).pdf")) }
                for (name, s) in surfaces { try Data(try s.pngData()).write(to: URL(fileURLWithPath: dump + "/" + name)) }
            }
        }
        let n = Double(max(work.count, 1))
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        return [
            "statements: \(work.count), rounds: \(rounds); CPU ms per statement, median round (min–max)",
            String(format: "pdf (StatementPDF.render)   %7.2f  (%.2f–%.2f)  %.1f KB per PDF", median(pdfTimes) * 1000 / n,
                   pdfTimes.min()! * 1000 / n, pdfTimes.max()! * 1000 / n, Double(pdfBytes) / 1000 / n),
            String(format: "  of which completing tags  %7.2f  (%.2f–%.2f)", median(completeTimes) * 1000 / n,
                   completeTimes.min()! * 1000 / n, completeTimes.max()! * 1000 / n),
            String(format: "chart drawing (%d charts)   %7.2f  (%.2f–%.2f)", charts, median(chartTimes) * 1000 / n,
                   chartTimes.min()! * 1000 / n, chartTimes.max()! * 1000 / n),
        ].joined(separator: "\n")
    }
}
