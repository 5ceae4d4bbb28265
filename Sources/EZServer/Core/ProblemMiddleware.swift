import EZAnalytics
import Hummingbird
import Logging

/// Turns every error a handler or the framework throws into a problem+json response.
///
/// A ``Problem`` answers as itself; the framework's own errors (an unknown route, a 401 from
/// hummingbird-auth) keep their status with a problem body (a 401 gains `WWW-Authenticate`);
/// anything else becomes a bare 500 and the real error goes to the log, never to the client.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.problem(for: error, logger: context.logger).response(from: request, context: context)
        }
    }

    /// The problem that answers `error`.
    static func problem(for error: any Error, logger: Logger) -> Problem {
        if let problem = error as? Problem { return problem }
        if let http = error as? any HTTPResponseError {
            switch http.status {
            case .unauthorized: return .unauthorized
            case .notFound: return Problem(status: .notFound, title: "Not Found", detail: "no such route or resource")
            case .methodNotAllowed: return .methodNotAllowed
            default:
                if http.status.code < 500 {
                    return Problem(status: http.status, title: http.status.reasonPhrase, detail: "the request was refused")
                }
            }
        }
        if let analytics = error as? AnalyticsError {
            logger.notice("account figures cannot be computed", metadata: ["reason": "\(analytics)"])
            return .figuresUncomputable
        }
        logger.error("request failed", metadata: ["error": "\(error)"])
        return .internalError
    }
}
