import EZAnalytics
import EZBatch
import EZCore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// `GET /v1/admin/usage/{period}.{pdf|xlsx|csv|json}`: the admin usage report, for admins only.
struct AdminRoutes {
    let service: ReportService

    func add(to group: RouterGroup<ServerContext>) {
        group.get("admin/usage/{file}", use: usage)
    }

    @Sendable func usage(_ request: Request, context: ServerContext) async throws -> Response {
        let caller = try context.requireIdentity()
        let (stem, ext) = try RequestParameters.splitExtension(try context.parameters.require("file"),
                                                               allowed: ["pdf", "xlsx", "csv", "json"], parameter: "period")
        let asOf = try RequestParameters.asOf(request)
        let period = try RequestParameters.period(stem, asOf: asOf)
        let ledgerPath = service.configuration.ledgerPath
        return try await service.adminResponse(caller: caller) { ledger, digest in
            let usage = try UsageReport.figures(ledger: ledger, period: period, asOf: asOf)
            let provenance = ReportProvenance(ledgerSHA256: digest, ledgerPath: ledgerPath, period: period, asOf: asOf,
                                              engineVersion: EngineVersion.current, quarantined: [])
            let name = Produced.safeFileName("usage-\(period.name).\(ext)")
            switch ext {
            case "pdf": return Produced(bytes: try UsageReport.render(usage, provenance: provenance, file: .pdf), contentType: Produced.pdf, fileName: name)
            case "xlsx": return Produced(bytes: try UsageReport.render(usage, provenance: provenance, file: .xlsx), contentType: Produced.xlsx, fileName: name)
            case "csv": return Produced(bytes: try UsageReport.render(usage, provenance: provenance, file: .csv), contentType: Produced.csv, fileName: name)
            default:
                let csv = try UsageReport.render(usage, provenance: provenance, file: .csv)
                return Produced(bytes: try UsageDocument(csv: csv, period: period, asOf: asOf).encoded(), contentType: Produced.json, fileName: nil)
            }
        }
    }
}

/// The usage report as JSON: the rows of `usage.csv` (the same cells, suppressed ones included
/// as their `<5` mark) as objects keyed by the CSV's column names.
struct UsageDocument: Encodable {
    var period: String
    var as_of: String
    var rows: [[String: String]]

    init(csv: [UInt8], period: Period, asOf: CivilDate) throws {
        self.period = period.name
        self.as_of = asOf.description
        let lines = CSVRecords.parse(String(decoding: csv, as: UTF8.self))
        guard let header = lines.first else { rows = []; return }
        rows = lines.dropFirst().map { fields in
            Dictionary(zip(header, fields).map { ($0, $1) }, uniquingKeysWith: { a, _ in a })
        }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }
}

/// Reads back the engine's own RFC 4180 CSV (quoted fields, doubled quotes, CRLF).
enum CSVRecords {
    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var chars = text.makeIterator()
        var pending: Character? = nil
        while let c = pending ?? chars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    let next = chars.next()
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else { field.append(c) }
                continue
            }
            switch c {
            case "\"": quoted = true
            case ",": record.append(field); field = ""
            case "\r\n", "\n": record.append(field); field = ""; records.append(record); record = []
            case "\r": break
            default: field.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }
}
