import Foundation
import HTTPTypes
import Hummingbird

/// An error answered as an RFC 9457 problem details document (`application/problem+json`).
///
/// Handlers throw it; ``ProblemMiddleware`` turns every other error into one too, so no
/// response ever carries a stack trace or an internal message.
///
/// ```swift
/// throw Problem.badParameter("period", "expected a period such as 2026-10")
/// ```
public struct Problem: HTTPResponseError, Equatable {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A short, fixed summary of the problem type.
    public var title: String
    /// What went wrong with this request (never a secret, never an internal path).
    public var detail: String
    /// The query or path parameter at fault, when there is one.
    public var parameter: String?
    /// Extra headers (`WWW-Authenticate`, `Retry-After`).
    public var headers: [HTTPField.Name: String]

    /// A problem with the given fields.
    public init(status: HTTPResponse.Status, title: String, detail: String, parameter: String? = nil,
                headers: [HTTPField.Name: String] = [:]) {
        self.status = status; self.title = title; self.detail = detail; self.parameter = parameter; self.headers = headers
    }

    /// 400: a parameter is malformed; the detail names it.
    public static func badParameter(_ name: String, _ detail: String) -> Problem {
        Problem(status: .badRequest, title: "Invalid parameter", detail: "\(name): \(detail)", parameter: name)
    }

    /// 401 with `WWW-Authenticate: Bearer`, the same for every reason a token is refused.
    public static let unauthorized = Problem(status: .unauthorized, title: "Unauthorized",
                                             detail: "a valid bearer token is required",
                                             headers: [.wwwAuthenticate: "Bearer"])

    /// 403: an admin endpoint for someone who is not an admin.
    public static let forbidden = Problem(status: .forbidden, title: "Forbidden", detail: "this endpoint is for administrators")

    /// 404: the same for a user who does not exist and one the caller may not see.
    public static let notFound = Problem(status: .notFound, title: "Not Found", detail: "no such resource")

    /// 422: the user's own ledger row breaks the contract (seen only by those allowed to see
    /// the user): no report can be made until the app fixes it, so retrying will not help. Says
    /// nothing about the row's contents; `ezreport check` on the ledger lists it.
    public static let accountUnreportable = Problem(status: .unprocessableContent, title: "Unprocessable Content",
                                                    detail: "this account's ledger data breaks the ledger contract, so no report can be made for it until the app corrects it")

    /// 422: the account's figures cannot be computed from the ledger as it is (a conversion with no
    /// exchange rate on or before its day, a sum beyond what can be counted). Deterministic, so
    /// not a 500: retrying would only make the same figures fail again. Says nothing of the row
    /// (it may be another group member's); the server's log names it, and `ezreport check` or an
    /// `ezreport export` of the account shows it to an operator.
    public static let figuresUncomputable = Problem(status: .unprocessableContent, title: "Unprocessable Content",
                                                    detail: "this account's figures cannot be computed from the ledger as it is (an exchange rate it needs is missing, or an amount is beyond what can be counted), so no report can be made for it until the app corrects the data")

    /// 422: the range and filters select more rows than a PDF lists (``ServerConfiguration/transactionPDFRowLimit``).
    /// Deterministic, so not a 503: retrying would only take a render slot for the same refusal.
    public static func tooManyRowsForPDF(rows: Int, limit: Int) -> Problem {
        Problem(status: .unprocessableContent, title: "Too many rows for a PDF",
                detail: "the range and filters select \(rows) transactions and a PDF lists at most \(limit): "
                    + "narrow the range or the filters, or ask for transactions.csv or transactions.xlsx, which list them all")
    }

    /// 422: a statement whose period holds more transactions than a statement PDF lists over HTTP
    /// (``ServerConfiguration/statementPDFRowLimit``). Deterministic, so not a 503.
    public static func tooManyRowsForStatementPDF(rows: Int, limit: Int) -> Problem {
        Problem(status: .unprocessableContent, title: "Too many rows for a PDF",
                detail: "the period holds \(rows) transactions and a statement PDF made here lists at most \(limit): "
                    + "ask for a shorter period, or for the statement's .xlsx or CSV files, which list them all")
    }

    /// 405 with `Allow`: every route is read-only.
    static let methodNotAllowed = Problem(status: .methodNotAllowed, title: "Method Not Allowed",
                                          detail: "this resource answers GET and HEAD only",
                                          headers: [.allow: "GET, HEAD"])

    /// The methods a read-only resource refuses with 405: every method NIO's HTTP parser lets
    /// through but GET and HEAD, so that none reaches a resource as a 404 ("no such route"): the
    /// standard ones, QUERY (RFC draft "The HTTP QUERY Method"), WebDAV's and the others llhttp
    /// knows. Any other method is refused by the parser (400); CONNECT is left to the HTTP layer.
    static let refusedMethods: [HTTPRequest.Method] = [.post, .put, .patch, .delete, .options, .trace]
        + ["QUERY", "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "SEARCH", "PURGE", "REPORT",
           "MERGE", "LINK", "UNLINK", "ACL", "BIND", "REBIND", "UNBIND", "MKCALENDAR", "MKACTIVITY", "CHECKOUT",
           "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "M-SEARCH", "MSEARCH", "SOURCE"].compactMap { HTTPRequest.Method($0) }

    /// 503 with `Retry-After`: the server is busy or the ledger cannot be read right now.
    public static func unavailable(_ detail: String, retryAfter seconds: Int = 1) -> Problem {
        Problem(status: .serviceUnavailable, title: "Service Unavailable", detail: detail,
                headers: [.retryAfter: String(seconds)])
    }

    /// 500 with nothing internal in it.
    public static let internalError = Problem(status: .internalServerError, title: "Internal Server Error",
                                              detail: "the report could not be made; the server logged why")

    /// The problem+json response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/problem+json"
        fields[.cacheControl] = "no-store"
        for (name, value) in headers { fields[name] = value }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON document: `type`, `title`, `status`, `detail` and, when known, `parameter`.
    var body: [UInt8] {
        var object: [String: Any] = ["type": "about:blank", "title": title, "status": Int(status.code), "detail": detail]
        if let parameter { object["parameter"] = parameter }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return Array(data)
    }

    public static func == (a: Problem, b: Problem) -> Bool {
        a.status == b.status && a.title == b.title && a.detail == b.detail && a.parameter == b.parameter && a.headers == b.headers
    }
}
