import ArgumentParser
import EZServer
import Foundation

extension EZReport {
    /// `ezreport serve`: the report server for the app's backend.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve statements, transaction exports, statistics and the admin report over HTTP.",
            discussion: """
                Every /v1 request needs 'Authorization: Bearer <JWT>' (HS256, signed with the
                secret file's bytes). /healthz, /readyz and /metrics need no token. Stops
                gracefully on SIGTERM or SIGINT; reads the secret files again on SIGHUP.
                See docs/api.md.

                Example:
                  ezreport serve --db ledger.sqlite --jwt-secret-file secret.key --port 8080
                """
        )

        @OptionGroup var ledger: LedgerOptions

        /// The ledger as given (`--db`).
        var db: String { ledger.db }

        @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "host"))
        var host: String = "127.0.0.1"

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "port"))
        var port: Int = 8080

        @Option(name: .customLong("jwt-secret-file"), help: ArgumentHelp("File holding the HS256 secret (its bytes; a trailing newline ignored).", valueName: "file"))
        var jwtSecretFile: String

        @Option(name: .customLong("jwt-previous-secret-file"),
                help: ArgumentHelp("While rotating the secret: a file holding a secret tokens may also be signed with (repeatable).", valueName: "file"))
        var jwtPreviousSecretFiles: [String] = []

        @Option(name: .customLong("jwt-audience"),
                help: ArgumentHelp("Accept tokens whose aud claim names this (without it, a token with an aud is refused).", valueName: "name"))
        var jwtAudience: String?

        @Option(name: .customLong("max-concurrent"), parsing: .unconditional, help: ArgumentHelp("Renders at once (default: the number of cores).", valueName: "n"))
        var maxConcurrent: Int?

        @Option(name: .customLong("max-connections"), parsing: .unconditional,
                help: ArgumentHelp("Connections open at once; one more is closed as it opens.", valueName: "n"))
        var maxConnections: Int = 512

        @Option(name: .customLong("log-format"), help: ArgumentHelp("text or json.", valueName: "format"))
        var logFormat: String = "text"

        @Option(name: .customLong("debug-render-delay-ms"), help: ArgumentHelp("Slows every render down (tests of shutdown only).", visibility: .hidden))
        var debugRenderDelayMs: Int = 0

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("invalid --port \(port): expected 0...65535") }
            if let maxConcurrent, !(1...256).contains(maxConcurrent) {
                throw ValidationError("invalid --max-concurrent \(maxConcurrent): expected 1...256")
            }
            guard (1...65_536).contains(maxConnections) else {
                throw ValidationError("invalid --max-connections \(maxConnections): expected 1...65536")
            }
            guard ServerConfiguration.LogFormat(rawValue: logFormat) != nil else {
                throw ValidationError("invalid --log-format '\(logFormat)': expected text or json")
            }
        }

        func run() async throws {
            let format = ServerConfiguration.LogFormat(rawValue: logFormat) ?? .text
            do {
                let secret = try JWTSecretFile.read(jwtSecretFile)
                var configuration = ServerConfiguration(
                    ledgerPath: db, host: host, port: port, jwtSecret: secret,
                    maxConcurrent: maxConcurrent ?? ProcessInfo.processInfo.activeProcessorCount,
                    logFormat: format)
                configuration.previousJWTSecrets = try jwtPreviousSecretFiles.map { path throws(JWTSecretFile.SecretError) in try JWTSecretFile.read(path) }
                configuration.jwtSecretFiles = .init(current: jwtSecretFile, previous: jwtPreviousSecretFiles)
                configuration.debugRenderDelay = .milliseconds(max(0, debugRenderDelayMs))
                configuration.maxConnections = maxConnections
                configuration.jwtAudience = jwtAudience
                // A table another session has locked (a migration) is waited for 10 s, as a locked
                // SQLite file is, then answered 503 Retry-After 5: the render held its slot for the
                // whole request time, and every slot soon waited (outside PostgreSQL test). A frozen
                // server is given up after 30 s, a request's own limit, freeing the render thread.
                if ledger.isPostgres {
                    configuration.openLedger = try ledger.unreportedOpener(lockTimeoutSeconds: 10, answerTimeoutSeconds: 30)
                }
                try await ReportServer.run(configuration)
            } catch {
                throw failServing(error, format: format)
            }
        }

        /// The error that ends the server, reported as `fail` reports it (one line,
        /// `ezreport: <message>`), or with `--log-format json` as one JSON log line (level
        /// `critical`), so that a collector parsing the server's lines parses this one too.
        private func failServing(_ error: any Error, format: ServerConfiguration.LogFormat) -> any Error {
            guard format == .json, !(error is ExitCode || error is ExitStatus) else { return fail(error) }
            ReportServer.makeLogger(.json).critical("\(error)")
            return ExitStatus.unusable
        }
    }
}
