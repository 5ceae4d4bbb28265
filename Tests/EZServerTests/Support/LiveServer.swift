import EZServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle

/// A real `ezreport serve` application listening on 127.0.0.1 and an ephemeral port, in this
/// process, with a client that talks real HTTP to it. Always `stop()` it (in a `defer`-like
/// `addTeardownBlock`): the server's service group is shut down gracefully.
final class LiveServer: Sendable {
    let port: Int
    let group: ServiceGroup
    let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port; self.group = group; self.task = task
    }

    /// Starts a server on `ledger` with `secret`; `configure` may change any setting.
    static func start(ledger: String, secret: [UInt8], configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> LiveServer {
        var configuration = ServerConfiguration(ledgerPath: ledger, host: "127.0.0.1", port: 0, jwtSecret: secret, maxConcurrent: 2)
        configure(&configuration)
        var logger = Logger(label: "ezserver-tests")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let services = try await ReportServer.makeServices(configuration, logger: logger) { port in continuation.yield(port) }
        let group = ServiceGroup(configuration: ReportServer.serviceGroupConfiguration(services, configuration, logger: logger, signals: []))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw StartError() }
        return LiveServer(port: port, group: group, task: task)
    }

    struct StartError: Error {}

    /// Shuts the server down gracefully and waits until it has stopped.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    /// `GET path` over a fresh connection, with a bearer token when given.
    func get(_ path: String, token: String? = nil, headers: HTTPFields = [:]) async throws -> TestClient.Response {
        try await TestClientRequest.get(port: port, path, token: token, headers: headers)
    }

    /// `method path` over a fresh connection, with a bearer token when given.
    func request(_ method: HTTPRequest.Method, _ path: String, token: String? = nil) async throws -> TestClient.Response {
        var fields = HTTPFields()
        if let token { fields[.authorization] = "Bearer " + token }
        // Hummingbird's test client sends no Host unless given an authority; every real client does.
        let request = TestClient.Request(path, method: method, authority: "127.0.0.1:\(port)", headers: fields)
        return try await TestClient.withClient(host: "127.0.0.1", port: port) { client in try await client.execute(request) }
    }
}

/// One real HTTP request to 127.0.0.1 over a fresh connection.
enum TestClientRequest {
    /// `GET path` with a bearer token when given.
    static func get(port: Int, _ path: String, token: String? = nil, headers: HTTPFields = [:]) async throws -> TestClient.Response {
        var fields = headers
        if let token { fields[.authorization] = "Bearer " + token }
        // Hummingbird's test client sends no Host unless given an authority; every real client does.
        let request = TestClient.Request(path, method: .get, authority: "127.0.0.1:\(port)", headers: fields)
        return try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.execute(request)
        }
    }
}

extension TestClient.Response {
    /// The body's bytes (empty when none).
    var bytes: [UInt8] { body.map { Array($0.readableBytesView) } ?? [] }
    /// The body as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try (JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]) ?? [:]
    }
}
