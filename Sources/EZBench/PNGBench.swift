import EZAnalytics
import EZCairo
import EZCharts
import EZCore
import EZLedger
import EZPNG
import Foundation

/// PNG encoder settings compared on one user's real charts: CPU time and total size per setting,
/// with Cairo's own writer as the size reference (the target: within 1.5× its size).
enum PNGBench {
    /// The encoder's size against Cairo's writer for every chart of the first `limit` users, as the
    /// worst and median ratio per chart kind, and the default encoder's CPU time per chart.
    static func sizes(db: String, period: Period, asOf: CivilDate, limit: Int) throws -> String {
        let ledger = try Ledger(path: db)
        var ratios: [String: [Double]] = [:]
        var cpu = 0.0, cairoCPU = 0.0, zlibCPU = 0.0, charts = 0
        for ref in try ledger.userRefs().filter({ !$0.deleted }).prefix(limit) {
            let slice = try ledger.loadUser(id: ref.id, through: max(period.end, asOf))
            let figures = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf)
            for named in StatementCharts.charts(for: figures) {
                let surface = try render(named)
                let c0 = Clock.threadCPU()
                let ours = try surface.pngData().count
                let c1 = Clock.threadCPU()
                let cairo = try surface.cairoPNGData().count
                let c2 = Clock.threadCPU()
                _ = try surface.pngData(options: .init(level: 1, filter: .none, engine: .zlib))
                cpu += c1 - c0; cairoCPU += c2 - c1; zlibCPU += Clock.threadCPU() - c2; charts += 1
                ratios[named.fileName, default: []].append(Double(ours) / Double(cairo))
            }
        }
        let n = Double(max(charts, 1))
        var lines = [String(format: "%d charts: CPU ms per chart: encoder %.2f, zlib level 1 unfiltered %.2f, Cairo's writer %.1f",
                            charts, cpu * 1000 / n, zlibCPU * 1000 / n, cairoCPU * 1000 / n),
                     "size / Cairo's size per kind:"]
        for (kind, r) in ratios.sorted(by: { $0.key < $1.key }) {
            let sorted = r.sorted()
            lines.append(String(format: "  %-20@ %4d charts  median %.2f×  worst %.2f×", kind as NSString, r.count,
                                sorted[sorted.count / 2], sorted.last!))
        }
        return lines.joined(separator: "\n")
    }

    /// The default encoder alone on every chart of the first `limit` users, `rounds` times: the
    /// median round's CPU ms per chart, the total size and an FNV-1a digest of every byte written
    /// (equal digests between two builds: the encoder's output did not change).
    static func time(db: String, period: Period, asOf: CivilDate, limit: Int, rounds: Int) throws -> String {
        let ledger = try Ledger(path: db)
        var surfaces: [CairoSurface] = []
        for ref in try ledger.userRefs().filter({ !$0.deleted }).prefix(limit) {
            let slice = try ledger.loadUser(id: ref.id, through: max(period.end, asOf))
            let figures = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf)
            for named in StatementCharts.charts(for: figures) { surfaces.append(try render(named)) }
        }
        var times: [Double] = []
        var bytes = 0
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<max(rounds, 1) {
            var total = 0
            var cpu = 0.0
            for s in surfaces {
                let c0 = Clock.threadCPU()
                let png = try s.pngData()
                cpu += Clock.threadCPU() - c0
                total += png.count
                if round == 0 { for b in png { digest = (digest ^ UInt64(b)) &* 0x100_0000_01b3 } }
            }
            times.append(cpu)
            bytes = total
        }
        let n = Double(max(surfaces.count, 1))
        let ms = times.sorted().map { $0 * 1000 / n }
        return String(format: "%d charts, %d rounds: encoder CPU ms per chart median %.3f (min %.3f, max %.3f); %d bytes, digest %016llx",
                      surfaces.count, times.count, ms[ms.count / 2], ms.first!, ms.last!, bytes, digest)
    }

    private static func render(_ named: NamedChart) throws -> CairoSurface {
        try ChartRenderer.surface(named.chart)
    }

    static func run(db: String, period: Period, asOf: CivilDate, userId: Int64, rounds: Int, dump: String?) throws -> String {
        let ledger = try Ledger(path: db)
        let slice = try ledger.loadUser(id: userId, through: max(period.end, asOf))
        let figures = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf)
        var surfaces: [CairoSurface] = []
        for named in StatementCharts.charts(for: figures) { surfaces.append(try render(named)) }
        if let dump {
            // Both encoders' files, for an independent decoder to compare pixel by pixel.
            try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true)
            for (i, s) in surfaces.enumerated() {
                try Data(try s.pngData()).write(to: URL(fileURLWithPath: dump + "/\(i)-ours.png"))
                try Data(try s.cairoPNGData()).write(to: URL(fileURLWithPath: dump + "/\(i)-cairo.png"))
                try Data(try s.pngData(options: .init(level: 1, filter: .none, engine: .zlib)))
                    .write(to: URL(fileURLWithPath: dump + "/\(i)-zlib.png"))
            }
        }
        var lines = ["charts: \(surfaces.count) of 1600 × 1000 px, \(rounds) round(s); CPU ms per chart (median round), KB per chart"]
        func measure(_ name: String, _ encode: (CairoSurface) throws -> [UInt8]) throws -> (Double, Double) {
            var times: [Double] = []
            var bytes = 0
            for _ in 0..<rounds {
                bytes = 0
                let c0 = Clock.threadCPU()
                for s in surfaces { bytes += try encode(s).count }
                times.append(Clock.threadCPU() - c0)
            }
            let ms = times.sorted()[times.count / 2] * 1000 / Double(surfaces.count)
            let kb = Double(bytes) / 1000 / Double(surfaces.count)
            return (ms, kb)
        }
        let (cairoMs, cairoKB) = try measure("cairo") { try $0.cairoPNGData() }
        lines.append(String(format: "%-34@ %8.1f ms %8.1f KB  (size reference)", "cairo_surface_write_to_png" as NSString, cairoMs, cairoKB))
        let settings: [(String, PNGEncoder.Options)] = [
            ("level 1, no filter (old .fast)", .init(level: 1, filter: .none, strategy: 0)),
            ("level 1, up, default", .init(level: 1, filter: .up, strategy: 0)),
            ("level 1, sub, default", .init(level: 1, filter: .sub, strategy: 0)),
            ("rle, up", .init(level: 1, filter: .up, strategy: 3)),
            ("rle, sub", .init(level: 1, filter: .sub, strategy: 3)),
            ("rle, none", .init(level: 1, filter: .none, strategy: 3)),
            ("row-match deflater", .init(level: 1, filter: .none, strategy: 0, engine: .rowMatch)),
            ("encoder .fast", .fast),
        ]
        for (name, options) in settings {
            let (ms, kb) = try measure(name) { try $0.pngData(options: options) }
            lines.append(String(format: "%-34@ %8.1f ms %8.1f KB  %.2f× cairo's size", name as NSString, ms, kb, kb / cairoKB))
        }
        return lines.joined(separator: "\n")
    }
}
