import EZAnalytics
import EZBatch
import EZCore
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// `GET /v1/users/{id}/statement/...`: the statement as `ezreport export` writes it.
struct StatementRoutes {
    let service: ReportService

    /// The chart stems a statement may have (`groups` and `savings` only when the user has them).
    static let chartNames = ["categories", "trend", "category-trend", "budgets", "balances", "groups", "savings"]

    func add(to group: RouterGroup<ServerContext>) {
        // One capture name per path level (the router requires it): `{period}` is `2026-10.pdf` here.
        group.resource("users/{id}/statement/{period}", use: statement)
        group.resource("users/{id}/statement/{period}/{name}", use: csv)
        group.resource("users/{id}/statement/{period}/charts/{name}", use: chart)
    }

    /// `{period}.pdf` or `{period}.xlsx`.
    @Sendable func statement(_ request: Request, context: ServerContext) async throws -> Response {
        let file = try context.parameters.require("period")
        let (stem, ext) = try RequestParameters.splitExtension(file, allowed: ["pdf", "xlsx"], parameter: "period")
        let which: StatementBytes.File = ext == "pdf" ? .pdf : .xlsx
        return try await respond(request, context, periodText: stem, file: which,
                                 fileName: { "statement-\($0).\(ext)" }, contentType: ext == "pdf" ? Produced.pdf : Produced.xlsx)
    }

    /// `{period}/{name}.csv`.
    @Sendable func csv(_ request: Request, context: ServerContext) async throws -> Response {
        let (stem, _) = try RequestParameters.splitExtension(try context.parameters.require("name"), allowed: ["csv"], parameter: "name")
        guard StatementBytes.csvNames.contains(stem) else {
            throw Problem.badParameter("name", "'\(RequestParameters.sanitised(stem))' is not one of \(StatementBytes.csvNames.joined(separator: ", "))")
        }
        let period = try context.parameters.require("period")
        return try await respond(request, context, periodText: period, file: .csv(stem),
                                 fileName: { "\(stem)-\($0).csv" }, contentType: Produced.csv)
    }

    /// `{period}/charts/{name}.png`.
    @Sendable func chart(_ request: Request, context: ServerContext) async throws -> Response {
        let (stem, _) = try RequestParameters.splitExtension(try context.parameters.require("name"), allowed: ["png"], parameter: "name")
        guard Self.chartNames.contains(stem) else {
            throw Problem.badParameter("name", "'\(RequestParameters.sanitised(stem))' is not one of \(Self.chartNames.joined(separator: ", "))")
        }
        let period = try context.parameters.require("period")
        return try await respond(request, context, periodText: period, file: .png(stem),
                                 fileName: { "\(stem)-\($0).png" }, contentType: Produced.png)
    }

    /// Validates the period and `as_of`, then renders `file` for the user in the path.
    /// `fileName` names the download from the name of the period the user got (`2026-10`, also
    /// for `last-month`; from their payday, when their months start on another day).
    private func respond(_ request: Request, _ context: ServerContext, periodText: String, file: StatementBytes.File,
                         fileName: @escaping @Sendable (String) -> String, contentType: String) async throws -> Response {
        let caller = try context.requireIdentity()
        let target = try context.parameters.require("id")
        let asOf = try RequestParameters.asOf(request)
        let period = try RequestParameters.period(periodText, asOf: asOf)
        let ledgerPath = service.configuration.ledgerPath
        let rowLimit = service.configuration.statementPDFRowLimit
        let key = "statement|\(file)|\(period.name)|\(period.start)|\(period.end)|\(asOf)"
        return try await service.userResponse(caller: caller, target: target, reach: .history(through: StatementAnalytics.readThrough(period: period, asOf: asOf)), key: key,
                                              request: request, context: context) { inputs in
            let figures = try StatementAnalytics.statement(for: inputs.slice, period: period, asOf: asOf)
            if case .pdf = file, figures.transactions.count > rowLimit {
                throw Problem.tooManyRowsForStatementPDF(rows: figures.transactions.count, limit: rowLimit)
            }
            let provenance = ReportProvenance(ledgerSHA256: inputs.digest, ledgerPath: ledgerPath, period: period, asOf: asOf,
                                              engineVersion: EngineVersion.current, quarantined: inputs.slice.reportQuarantine)
            do {
                let bytes = try StatementBytes.render(figures, provenance: provenance, file: file)
                return Produced(bytes: bytes, contentType: contentType, fileName: Produced.safeFileName(fileName(figures.period.name)))
            } catch is StatementBytes.RenderError {
                throw Problem.notFound
            }
        }
    }
}
