import Hummingbird

/// A path with an empty segment (`//`, as a client that joins an empty name makes, or a trailing
/// `/`) names no resource: 404, as an unknown route.
///
/// The router skips empty segments when it matches, so `/v1/users/1/statement//transactions.csv`
/// was taken for `/statement/{period}.{format}` with the period `transactions` and answered a 400
/// about the format `csv`: a problem about a parameter the client never meant to send.
struct EmptySegmentMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.hasEmptySegment(request.uri.path) else {
            throw Problem(status: .notFound, title: "Not Found", detail: "no such route or resource")
        }
        return try await next(request, context)
    }

    /// Whether `path` has an empty segment: two slashes in a row anywhere in it, or a slash at
    /// its end (but for the root, `/`). The router ignored a trailing slash, so `/healthz/` and
    /// `…/2026-10.pdf/` answered 200: two spellings of one resource, which caches and access rules
    /// in front of the server take for two (outside server test).
    static func hasEmptySegment(_ path: String) -> Bool {
        var previousWasSlash = false
        for byte in path.utf8 {
            let slash = byte == UInt8(ascii: "/")
            if slash && previousWasSlash { return true }
            previousWasSlash = slash
        }
        return previousWasSlash && path.utf8.count > 1
    }
}
