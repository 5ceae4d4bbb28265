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
        group.resource("admin/usage/{period}", use: usage)
    }

    @Sendable func usage(_ request: Request, context: ServerContext) async throws -> Response {
        let caller = try context.requireIdentity()
        let (stem, ext) = try RequestParameters.splitExtension(try context.parameters.require("period"),
                                                               allowed: ["pdf", "xlsx", "csv", "json"], parameter: "period")
        let asOf = try RequestParameters.asOf(request)
        let period = try RequestParameters.period(stem, asOf: asOf)
        let ledgerPath = service.configuration.ledgerPath
        return try await service.adminResponse(caller: caller, key: "usage|\(ext)|\(period.name)|\(asOf)", request: request, context: context) { snapshot in
            // Every user and every row as of one moment: the whole pass runs in the snapshot
            // the caller's rights were checked in.
            try UsageReport.figures(in: snapshot, period: period, asOf: asOf)
        } render: { usage, digest in
            let provenance = ReportProvenance(ledgerSHA256: digest, ledgerPath: ledgerPath, period: period, asOf: asOf,
                                              engineVersion: EngineVersion.current, quarantined: [])
            let name = Produced.safeFileName("usage-\(period.name).\(ext)")
            switch ext {
            case "pdf": return Produced(bytes: try UsageReport.render(usage, provenance: provenance, file: .pdf), contentType: Produced.pdf, fileName: name)
            case "xlsx": return Produced(bytes: try UsageReport.render(usage, provenance: provenance, file: .xlsx), contentType: Produced.xlsx, fileName: name)
            case "csv": return Produced(bytes: try UsageReport.render(usage, provenance: provenance, file: .csv), contentType: Produced.csv, fileName: name)
            default: return Produced(bytes: try UsageDocument(usage).encoded(), contentType: Produced.json, fileName: nil)
            }
        }
    }
}
