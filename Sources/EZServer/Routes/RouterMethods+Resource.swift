import HTTPTypes
import Hummingbird

extension RouterMethods {
    /// Registers a read-only resource: `handler` answers GET (and HEAD, through the router's
    /// generated HEAD endpoints: the same status and headers, no body), and every other standard
    /// method on the path answers 405 with `Allow: GET, HEAD`, not 404: the resource exists.
    @discardableResult
    func resource(_ path: RouterPath, use handler: @escaping @Sendable (Request, Context) async throws -> Response) -> Self {
        get(path, use: handler)
        for method in Problem.refusedMethods {
            on(path, method: method) { _, _ -> Response in throw Problem.methodNotAllowed }
        }
        return self
    }
}

extension Problem {
    /// 405 with `Allow`: every route is read-only.
    static let methodNotAllowed = Problem(status: .methodNotAllowed, title: "Method Not Allowed",
                                          detail: "this resource answers GET and HEAD only",
                                          headers: [.allow: "GET, HEAD"])

    /// The methods a read-only resource refuses with 405: the standard ones and QUERY (RFC
    /// draft "The HTTP QUERY Method"); CONNECT is left to the HTTP layer.
    static let refusedMethods: [HTTPRequest.Method] = [.post, .put, .patch, .delete, .options, .trace]
        + [HTTPRequest.Method("QUERY")].compactMap { $0 }
}
