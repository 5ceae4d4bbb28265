import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request: method, route template (never the raw path or query, which may
/// carry data), status, response bytes, milliseconds and the caller's user id when known.
/// The `Authorization` header is never logged.
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerContext
    let logger: Logger

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            // ProblemMiddleware sits inside this one: errors arrive here only from the framework.
            let problem = ProblemMiddleware<ServerContext>.problem(for: error, logger: logger)
            response = try problem.response(from: request, context: context)
        }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("request", metadata: [
            "method": "\(request.method.rawValue)",
            "route": "\(RouteLabel.of(template: context.endpointPath, path: request.uri.path) ?? "unmatched")",
            "status": "\(response.status.code)",
            "bytes": "\(response.body.contentLength ?? 0)",
            "ms": "\(String(format: "%.1f", ms))",
            "user": "\(context.caller.userId.map { String($0) } ?? "-")",
        ])
        return response
    }
}
