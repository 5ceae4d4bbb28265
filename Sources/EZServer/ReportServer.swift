import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import Synchronization

/// `ezreport serve`: on-demand statements, transaction exports, statistics and the admin
/// usage report over HTTP, rendered in-process with the same code as `ezreport export`.
///
/// ```swift
/// let configuration = ServerConfiguration(ledgerPath: "ledger.sqlite", jwtSecret: secret)
/// try await ReportServer.run(configuration)   // until SIGTERM or SIGINT
/// ```
public enum ReportServer {
    /// Runs the server until SIGTERM or SIGINT, then stops accepting, lets the requests in
    /// flight finish (up to ``ServerConfiguration/shutdownGrace``) and returns.
    ///
    /// Prints `listening on http://HOST:PORT` to standard output once ready.
    public static func run(_ configuration: ServerConfiguration) async throws {
        let logger = makeLogger(configuration.logFormat)
        let server = try await makeApplication(configuration, logger: logger) { port in
            // Written straight to the file descriptor: a supervisor or test reads it at once.
            FileHandle.standardOutput.write(Data("listening on http://\(configuration.host):\(port)\n".utf8))
        }
        var group = ServiceGroupConfiguration(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownGrace
        try await ServiceGroup(configuration: group).run()
    }

    /// The application (the HTTP server with its render pool as a service), not yet running.
    /// `onListening` receives the bound port (useful with port 0).
    package static func makeApplication(_ configuration: ServerConfiguration, logger: Logger,
                                        onListening: @escaping @Sendable (Int) async -> Void) async throws -> some Service {
        let registry = ServerMetrics.bootstrap()
        let ledgers = LedgerSource(path: configuration.ledgerPath, opener: configuration.openLedger, logger: logger)
        _ = try? ledgers.current()   // open early: the first request need not wait, and the log says if it fails
        let pool = RenderPool(threads: configuration.maxConcurrent, queueLimit: configuration.queueLimit,
                              timeout: configuration.requestTimeout, delay: configuration.renderDelay)
        let service = ReportService(configuration: configuration, ledgers: ledgers, pool: pool, logger: logger)
        let keys = await TokenKeys.hs256(secret: configuration.jwtSecret)

        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ProblemMiddleware())
        HealthRoutes(ledgers: ledgers, registry: registry).add(to: router)
        let v1 = router.group("v1")
            .add(middleware: TokenAuthenticator(keys: keys.keys))
            .add(middleware: IsAuthenticatedMiddleware())
        StatementRoutes(service: service).add(to: v1)
        TransactionRoutes(service: service).add(to: v1)
        AdminRoutes(service: service).add(to: v1)

        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            services: [pool],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
    }

    /// A logger writing text or JSON lines to standard error.
    package static func makeLogger(_ format: ServerConfiguration.LogFormat) -> Logger {
        switch format {
        case .text: return Logger(label: "ezreport.serve") { StreamLogHandler.standardError(label: $0) }
        case .json: return Logger(label: "ezreport.serve") { JSONLogHandler(label: $0) }
        }
    }
}

/// The process's metrics: swift-metrics bootstrapped once with a Prometheus registry, which
/// `/metrics` prints.
enum ServerMetrics {
    private static let registry = Mutex<PrometheusCollectorRegistry?>(nil)

    /// The registry, bootstrapping the metrics system on first use (once per process).
    static func bootstrap() -> PrometheusCollectorRegistry {
        registry.withLock { current in
            if let current { return current }
            let made = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: made))
            current = made
            return made
        }
    }
}
