import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import Synchronization

/// Hummingbird's request metrics — `http_server_active_requests` by method, `hb_requests` and
/// the `http_server_request_duration` histogram by route, method and status, `hb_request_errors`
/// — with the same names and labels as its `MetricsMiddleware`, and two differences: a `HEAD`
/// request is counted when its response is returned, and the route is the ``RouteLabel`` (a
/// statement's `.pdf` and `.xlsx` are counted apart).
///
/// Hummingbird's middleware records a request when the response body has been written; the HEAD
/// endpoints the router makes from GET routes drop that body, and with it the recording, so every
/// HEAD left the active-requests gauge one higher for ever and never reached the counter.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let cache = Cache()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.active(request.method)
        active.increment()
        do {
            var response = try await next(request, context)
            let record = OnceOnly { [status = response.status, route = RouteLabel.of(template: context.endpointPath, path: request.uri.path) ?? "Unknown"] in
                let metrics = cache.endpoint(route, request.method, status)
                metrics.counter.increment()
                metrics.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
                active.decrement()
            }
            if request.method == .head {
                record.run()
            } else {
                // Recorded once the body has been written (or its writing failed), or when the
                // response is dropped unwritten: a client that reset the connection first.
                let body = response.body
                response.body = ResponseBody(contentLength: body.contentLength) { writer in
                    defer { record.run() }
                    try await body.write(writer)
                }
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let route = RouteLabel.of(template: context.endpointPath, path: request.uri.path) ?? "NotFound"
            let metrics = cache.endpoint(route, request.method, status)
            metrics.counter.increment()
            metrics.errors.increment()
            active.decrement()
            throw error
        }
    }

    /// An action run once: by ``run()``, or when the last reference goes (the response body that
    /// held it was never written).
    private final class OnceOnly: Sendable {
        private let done = Atomic<Bool>(false)
        private let action: @Sendable () -> Void
        init(_ action: @escaping @Sendable () -> Void) { self.action = action }
        func run() { if !done.exchange(true, ordering: .acquiringAndReleasing) { action() } }
        deinit { run() }
    }

    /// The metric objects, made once per method and per (route, method, status).
    private final class Cache: Sendable {
        struct Endpoint: Sendable {
            let counter: Counter
            let duration: Timer
            let errors: Counter
        }
        private struct Key: Hashable { let route: String; let method: HTTPRequest.Method; let status: Int }
        private let meters = Mutex<[HTTPRequest.Method: Meter]>([:])
        private let endpoints = Mutex<[Key: Endpoint]>([:])

        func active(_ method: HTTPRequest.Method) -> Meter {
            meters.withLock { meters in
                if let meter = meters[method] { return meter }
                let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
                meters[method] = meter
                return meter
            }
        }

        func endpoint(_ route: String, _ method: HTTPRequest.Method, _ status: HTTPResponse.Status) -> Endpoint {
            let key = Key(route: route, method: method, status: status.code)
            return endpoints.withLock { endpoints in
                if let made = endpoints[key] { return made }
                let labels = [("http.route", route), ("http.request.method", method.rawValue),
                              ("http.response.status_code", String(status.code))]
                let made = Endpoint(
                    counter: Counter(label: "hb.requests", dimensions: labels),
                    duration: Timer(label: "http.server.request.duration", dimensions: labels, preferredDisplayUnit: .seconds),
                    errors: Counter(label: "hb.request.errors", dimensions: [("http.route", route), ("http.request.method", method.rawValue),
                                                                            ("error.type", String(status.code))]))
                endpoints[key] = made
                return made
            }
        }
    }
}
