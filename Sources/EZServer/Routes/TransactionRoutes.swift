import EZAnalytics
import EZBatch
import EZCharts
import EZCore
import EZCSV
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth

/// `GET /v1/users/{id}/transactions.{csv,xlsx,pdf}` and `/statistics` (JSON and PNG): a user's
/// transactions over a date range, with the statistics page's filters.
struct TransactionRoutes {
    let service: ReportService

    func add(to group: RouterGroup<ServerContext>) {
        for format in TransactionListBytes.Format.allCases {
            group.resource("users/{id}/transactions.\(format.rawValue)", use: transactions(format))
        }
        group.resource("users/{id}/statistics", use: statistics)
        group.resource("users/{id}/statistics.png", use: statisticsChart)
    }

    /// The filters as the query gives them, checked for shape before anything is read.
    struct Query: Sendable {
        var range: Period
        var categories: [String]
        var min: DecimalText?
        var max: DecimalText?
        var text: String?

        init(_ request: Request) throws(Problem) {
            range = try RequestParameters.range(request)
            categories = try RequestParameters.texts(request, "category")
            min = try RequestParameters.amount(request, "min")
            max = try RequestParameters.amount(request, "max")
            text = try RequestParameters.single(request, "q")
            // Code points, as the OpenAPI's maxLength counts: one letter with 12,000 combining marks
            // is one Character, and searching for it held a render slot for a minute.
            if let text, text.unicodeScalars.count > 200 { throw Problem.badParameter("q", "longer than 200 characters") }
        }

        /// The part of the ETag fingerprint that comes from the query.
        var key: String {
            "\(range.start)|\(range.end)|\(categories.sorted().joined(separator: "\u{1}"))|\(String(describing: min))|\(String(describing: max))|\(text ?? "")"
        }

        /// The filter in minor units of `currency`; a 400 when an amount has more decimals than it.
        func filter(currency: Currency) throws(Problem) -> TransactionFilter {
            func minor(_ value: DecimalText?, _ name: String) throws(Problem) -> Int64? {
                guard let value else { return nil }
                guard let units = value.minorUnits(exponent: currency.exponent) else {
                    throw Problem.badParameter(name, "\(currency.code) has \(currency.exponent) decimals")
                }
                return units
            }
            let lo = try minor(min, "min"), hi = try minor(max, "max")
            if let lo, let hi, lo > hi { throw Problem.badParameter("min", "'min' is above 'max'") }
            return TransactionFilter(categories: Set(categories), minCounted: lo, maxCounted: hi, text: text)
        }
    }

    /// The statement over the range, and its rows that pass the filters (for the chart, which
    /// needs the statement's category colours).
    static func filtered(_ inputs: ReportService.UserInputs, _ query: Query) throws -> (StatementFigures, [StatementRow]) {
        let figures = try StatementAnalytics.statement(for: inputs.slice, period: query.range, asOf: query.range.end)
        let filter = try query.filter(currency: figures.currency)
        return (figures, figures.transactions.filter(filter.matches))
    }

    /// The range's rows that pass the filters, from the range's rows alone.
    static func list(_ inputs: ReportService.UserInputs, _ query: Query) throws -> TransactionList {
        let filter = try query.filter(currency: inputs.slice.user.currency)
        return try TransactionListAnalytics.list(for: inputs.slice, range: query.range, filter: filter)
    }

    /// The transaction export in `format`: the same rows and columns as CSV, XLSX or PDF.
    func transactions(_ format: TransactionListBytes.Format) -> @Sendable (Request, ServerContext) async throws -> Response {
        let contentType = switch format {
        case .csv: Produced.csv
        case .xlsx: Produced.xlsx
        case .pdf: Produced.pdf
        }
        return { [service] request, context in
            let caller = try context.requireIdentity()
            let target = try context.parameters.require("id")
            let query = try Query(request)
            let ledgerPath = service.configuration.ledgerPath
            let rowLimit = service.configuration.transactionPDFRowLimit
            return try await service.userResponse(caller: caller, target: target, reach: .window(query.range),
                                                  key: "transactions|\(format.rawValue)|" + query.key, request: request, context: context) { inputs in
                let list = try Self.list(inputs, query)
                if format == .pdf, list.rows.count > rowLimit {
                    throw Problem.tooManyRowsForPDF(rows: list.rows.count, limit: rowLimit)
                }
                let provenance = ReportProvenance(ledgerSHA256: inputs.digest, ledgerPath: ledgerPath, period: query.range,
                                                  asOf: query.range.end, engineVersion: EngineVersion.current,
                                                  quarantined: inputs.slice.reportQuarantine)
                return Produced(bytes: try TransactionListBytes.render(list, provenance: provenance, format: format),
                                contentType: contentType,
                                fileName: Produced.safeFileName("transactions-\(query.range.start)-\(query.range.end).\(format.rawValue)"))
            }
        }
    }

    /// The statistics page's figures, from the range's rows alone (no statement is computed).
    @Sendable func statistics(_ request: Request, context: ServerContext) async throws -> Response {
        let caller = try context.requireIdentity()
        let target = try context.parameters.require("id")
        let query = try Query(request)
        return try await service.userResponse(caller: caller, target: target, reach: .window(query.range),
                                              key: "statistics|json|" + query.key, request: request, context: context) { inputs in
            let list = try Self.list(inputs, query)
            return Produced(bytes: try StatisticsDocument(list.statistics, range: query.range,
                                                          quarantinedRows: inputs.slice.reportQuarantine.count).encoded(),
                            contentType: Produced.json, fileName: nil)
        }
    }

    @Sendable func statisticsChart(_ request: Request, context: ServerContext) async throws -> Response {
        let caller = try context.requireIdentity()
        let target = try context.parameters.require("id")
        let query = try Query(request)
        return try await service.userResponse(caller: caller, target: target, reach: .history(through: query.range.end),
                                              key: "statistics|png|" + query.key, request: request, context: context) { inputs in
            var (figures, rows) = try Self.filtered(inputs, query)
            let colors = Dictionary(figures.categories.rows.map { ($0.name, $0.color) }, uniquingKeysWith: { a, _ in a })
            let stats = StatisticsFigures.of(rows, currency: figures.currency, colors: colors)
            figures.categories = CategoryShares(total: stats.expenses, rows: stats.categories, folded: stats.categories)
            let bytes = try StatementBytes.render(figures, provenance: ReportProvenance(
                ledgerSHA256: inputs.digest, ledgerPath: "", period: query.range, asOf: query.range.end,
                engineVersion: EngineVersion.current, quarantined: []), file: .png("categories"))
            return Produced(bytes: bytes, contentType: Produced.png,
                            fileName: Produced.safeFileName("statistics-\(query.range.start)-\(query.range.end).png"))
        }
    }
}

/// The statistics JSON document (field names are the API's contract).
struct StatisticsDocument: Encodable {
    struct Category: Encodable {
        var category: String
        var amount_minor: Int64
        var count: Int
        /// One decimal, exact (a Decimal, so `33.3` is written as such).
        var percent: Decimal
    }
    var currency: String
    var from: String
    var to: String
    var income_minor: Int64
    var expenses_minor: Int64
    var net_minor: Int64
    var transaction_count: Int
    var categories: [Category]
    /// How many ledger rows that would have fed these figures break the contract and were left
    /// out (the user's own and the exchange rates the conversions went without; the rows the
    /// statement's About lists, and `ezreport check` names). 0 when the figures are whole, so an
    /// app can say when the page is not.
    var quarantined_rows: Int

    init(_ s: StatisticsFigures, range: Period, quarantinedRows: Int) {
        currency = s.currency.code
        from = range.start.description
        to = range.end.description
        income_minor = s.income
        expenses_minor = s.expenses
        net_minor = s.net
        transaction_count = s.transactionCount
        quarantined_rows = quarantinedRows
        categories = s.categories.map {
            Category(category: $0.name, amount_minor: $0.amount, count: $0.count, percent: Decimal($0.percent.tenths) / 10)
        }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }
}
