import HTTPTypes
import NIOPosix
import Hummingbird
import Prometheus

/// `/healthz`, `/readyz` and `/metrics`: no token, no user data.
struct HealthRoutes {
    let ledgers: LedgerSource
    let registry: PrometheusCollectorRegistry
    /// The readiness check, bounded in time (a frozen PostgreSQL server held a probe for minutes).
    let readiness = ReadinessCheck()

    func add(to router: Router<ServerContext>) {
        router.resource("healthz") { _, _ in Self.text("ok\n") }
        router.resource("readyz") { [readiness] _, _ -> Response in
            // The check reads the ledger: off the event loop, like every other read, but not in
            // the render pool: a full queue of reports is load, not a broken ledger, and must not
            // take every replica out of its Service at once.
            let outcome = await readiness.check { ledgers.isReady() }
            if let detail = outcome.detail { throw Problem.unavailable(detail, retryAfter: 5) }
            return Self.text("ready\n")
        }
        router.resource("metrics") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }

    static func text(_ s: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: s)))
    }
}
