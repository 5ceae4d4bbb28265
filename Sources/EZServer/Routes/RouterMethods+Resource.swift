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
