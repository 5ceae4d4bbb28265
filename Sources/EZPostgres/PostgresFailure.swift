import EZLedger
import Foundation
import PostgresNIO

/// Turns PostgresNIO's and SwiftNIO's errors into one line a person can act on.
///
/// `PSQLError` prints a deliberately vague description (so that it never leaks data by accident);
/// the server's own message and SQLSTATE, or the network's reason, are what an operator needs.
/// No password is ever part of them.
enum PostgresFailure {
    /// The connection was closed (by the server, the network or a shutdown) before the query's answer.
    struct Lost: Error, CustomStringConvertible {
        var description: String { "the server closed the connection" }
    }

    /// The server did not answer a query within ``PostgresLocation/answerTimeoutSeconds``: it is
    /// frozen (a stopped process, a hung host) or the network silently drops the connection,
    /// which TCP alone does not notice. The session is closed; a run stops rather than hang.
    struct NoAnswer: Error, CustomStringConvertible {
        var seconds: Int
        var description: String { "the server did not answer a query within \(seconds) s (frozen or unreachable)" }
    }

    /// One line for `error`: the server's message with its SQLSTATE, or the network's reason.
    static func describe(_ error: any Error) -> String {
        let text: String
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] {
                let state = e.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                text = message + state
            } else if let underlying = e.underlying {
                text = describe(underlying)
            } else {
                switch e.code {
                case .serverClosedConnection, .uncleanShutdown: text = "the server closed the connection"
                case .clientClosedConnection: text = "the connection was closed"
                case .sslUnsupported: text = "the server does not support TLS (sslmode requires it)"
                case .authMechanismRequiresPassword: text = "the server asks for a password: set PGPASSWORD or --db-password-file (sample: --out-password-file)"
                default: text = "\(e.code)"
                }
            }
        } else if let e = error as? NIOConnectionError {
            text = e.connectionErrors.first.map { describe($0.error) } ?? e.dnsAAAAError.map(describe) ?? e.dnsAError.map(describe)
                ?? "cannot connect"
        } else if let e = error as? IOError {
            text = String(cString: strerror(e.errnoCode)).lowercased()
        } else if let e = error as? ChannelError {
            if case .connectTimeout = e { text = "connection timed out" } else { text = "\(e)" }
        } else if let e = error as? NIOSSLError {
            text = "TLS: \(e)"
        } else if let e = error as? LedgerError {
            text = e.description
        } else if let e = error as? Lost {
            text = e.description
        } else if let e = error as? NoAnswer {
            text = e.description
        } else {
            text = "\(error)"
        }
        return text.replacingOccurrences(of: "\n", with: " ")
    }

    /// Whether `error` means the connection is gone (the session must not be reused).
    static func isConnectionLost(_ error: any Error) -> Bool {
        guard let e = error as? PSQLError else { return error is IOError || error is ChannelError || error is Lost || error is NoAnswer }
        return [.serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError].contains(e.code)
    }
}
