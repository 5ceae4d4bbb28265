import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import Metrics
import NIOCore
import Prometheus
import ServiceLifecycle
import Synchronization
import UnixSignals

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
    /// Throws ``ListenError`` when the address cannot be bound (in use, not this machine's, not
    /// allowed).
    public static func run(_ configuration: ServerConfiguration) async throws {
        let logger = makeLogger(configuration.logFormat)
        if let raised = OpenFileLimit.raise() {
            logger.info("open file limit raised", metadata: ["from": "\(raised.before)", "to": "\(raised.after)"])
        }
        let configuration = fittingOpenFileLimit(configuration, logger: logger)
        let listening = Atomic<Bool>(false)
        let services = try await makeServices(configuration, logger: logger) { port in
            listening.store(true, ordering: .releasing)
            // Written straight to the file descriptor: a supervisor or test reads it at once.
            try? FileHandle.standardOutput.write(contentsOf: Data("listening on http://\(configuration.host):\(port)\n".utf8))
        }
        do {
            try await ServiceGroup(configuration: serviceGroupConfiguration(services, configuration, logger: logger,
                                                                           signals: [.sigterm, .sigint])).run()
        } catch let error as IOError where !listening.load(ordering: .acquiring) {
            throw ListenError(host: configuration.host, port: configuration.port, reason: String(cString: strerror(error.errnoCode)))
        }
    }

    /// `configuration` with its connections kept under the open-file limit (see
    /// ``OpenFileLimit/connections(allowedBy:)``), said in a warning when that lowers them.
    static func fittingOpenFileLimit(_ configuration: ServerConfiguration, logger: Logger) -> ServerConfiguration {
        guard let limit = OpenFileLimit.current() else { return configuration }
        let allowed = OpenFileLimit.connections(allowedBy: limit)
        guard allowed < configuration.maxConnections else { return configuration }
        logger.warning("open file limit too low for --max-connections: connections lowered",
                       metadata: ["open_files": "\(limit)", "max_connections": "\(configuration.maxConnections)", "to": "\(allowed)"])
        var fitted = configuration
        fitted.maxConnections = allowed
        return fitted
    }

    /// The server could not listen on its address: `cannot listen on 127.0.0.1:8080: Address
    /// already in use` (SwiftNIO's own message names its system call, not the address).
    public struct ListenError: Error, CustomStringConvertible {
        /// The `--host` asked for.
        public let host: String
        /// The `--port` asked for.
        public let port: Int
        /// The system's reason (`strerror`).
        public let reason: String
        public var description: String { "cannot listen on \(host):\(port): \(reason)" }
    }

    /// How the services run together: stopped gracefully on `signals`, escalated to cancellation
    /// once ``ServerConfiguration/shutdownGrace`` has passed.
    package static func serviceGroupConfiguration(_ services: [any Service], _ configuration: ServerConfiguration,
                                                  logger: Logger, signals: [UnixSignal]) -> ServiceGroupConfiguration {
        var group = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: signals, logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownGrace
        return group
    }

    /// The HTTP server and its render pool, not yet running, in the order a service group needs
    /// (the pool last, so that it hears of a shutdown first: see ``RenderPool/run()``).
    /// `onListening` receives the bound port (useful with port 0).
    package static func makeServices(_ configuration: ServerConfiguration, logger: Logger,
                                     onListening: @escaping @Sendable (Int) async -> Void) async throws -> [any Service] {
        let registry = ServerMetrics.bootstrap()
        let ledgers = LedgerSource(path: configuration.ledgerPath, opener: configuration.openLedger, logger: logger)
        _ = try? ledgers.current()   // open early: the first request need not wait, and the log says if it fails
        let pool = RenderPool(threads: configuration.maxConcurrent, queueLimit: configuration.queueLimit,
                              timeout: configuration.requestTimeout, shutdownGrace: configuration.shutdownGrace,
                              delay: configuration.renderDelay)
        let service = ReportService(configuration: configuration, ledgers: ledgers, pool: pool, logger: logger)
        let keyring = await TokenKeyring.make(secrets: [configuration.jwtSecret] + configuration.previousJWTSecrets)
        let connections = ConnectionLimit(limit: configuration.maxConnections)

        let router = Router(context: ServerContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: NoSniffMiddleware())
        router.add(middleware: AccessLogMiddleware(logger: logger))
        router.add(middleware: RequestMetricsMiddleware())
        router.add(middleware: ProblemMiddleware())
        router.add(middleware: EmptySegmentMiddleware())
        HealthRoutes(ledgers: ledgers, registry: registry).add(to: router)
        let v1 = router.group("v1")
            .add(middleware: TokenAuthenticator(keyring: keyring, audience: configuration.jwtAudience))
            .add(middleware: IsAuthenticatedMiddleware())
        StatementRoutes(service: service).add(to: v1)
        TransactionRoutes(service: service).add(to: v1)
        AdminRoutes(service: service).add(to: v1)

        let application = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [connections.handler(), HTTPHygieneHandler(logger: logger),
                                                                            SendTimeout(timeout: TimeAmount(configuration.idleTimeout))],
                                                idleTimeout: TimeAmount(configuration.idleTimeout))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger
        )
        // The secret files are read again on SIGHUP; trapping it now, before the server listens,
        // means a SIGHUP never ends the process.
        guard let files = configuration.jwtSecretFiles else { return [application, pool] }
        let reload = SecretReloadService(files: files, keyring: keyring, hangups: await UnixSignalsSequence(trapping: .sighup),
                                         logger: logger)
        return [reload, application, pool]
    }

    /// A logger writing text or JSON lines to standard error.
    package static func makeLogger(_ format: ServerConfiguration.LogFormat) -> Logger {
        Logger(label: "ezreport.serve") { ServerLogHandler(label: $0, format: format) }
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
