import HTTPTypes
import Hummingbird

/// `X-Content-Type-Options: nosniff` on every response (OWASP's REST security headers).
///
/// The app's backend may pass a response on to a browser as it is. A browser that sniffs the
/// body instead of trusting `Content-Type` could take a CSV export or a problem body whose text
/// came from the ledger (a description such as `<script>…`) for HTML; with `nosniff` it keeps
/// the declared type.
struct NoSniffMiddleware: RouterMiddleware {
    typealias Context = ServerContext

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}

extension HTTPField.Name {
    /// `X-Content-Type-Options`.
    static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
