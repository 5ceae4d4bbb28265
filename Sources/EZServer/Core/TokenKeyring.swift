import JWTKit
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The keys tokens are checked with: the current secret's, then each previous secret's. The set
/// is replaced whole when the secret files are read again (``SecretReloadService``), so a
/// request checks its token against one set, old or new, never a mix.
final class TokenKeyring: Sendable {
    private let collections: Mutex<[JWTKeyCollection]>

    /// A keyring holding `secrets`' keys, the current secret first.
    static func make(secrets: [[UInt8]]) async -> TokenKeyring {
        TokenKeyring(await keys(for: secrets))
    }

    private init(_ collections: [JWTKeyCollection]) {
        self.collections = Mutex(collections)
    }

    /// The key collections to try, in order.
    var current: [JWTKeyCollection] { collections.withLock { $0 } }

    /// Replaces the keys with `secrets`' (the current secret first).
    func replace(secrets: [[UInt8]]) async {
        let made = await Self.keys(for: secrets)
        collections.withLock { $0 = made }
    }

    /// One collection per secret: jwt-kit picks a key by the token's `kid`, which the app's
    /// tokens need not carry, so each secret is tried in turn.
    private static func keys(for secrets: [[UInt8]]) async -> [JWTKeyCollection] {
        var made: [JWTKeyCollection] = []
        for secret in secrets { made.append(await TokenKeys.hs256(secret: secret).keys) }
        return made
    }
}

/// Reads the JWT secret files again when the process gets SIGHUP (`systemctl reload`, `kill
/// -HUP`, or after Kubernetes updates a mounted secret), so the secret is rotated without a
/// restart: tokens signed with the new secret are accepted from the next request on.
///
/// A file that cannot be used (missing, unreadable, shorter than 32 bytes) is logged with its
/// path and reason, and the keys in use are kept: a half-written secret never locks the app out.
/// The secrets themselves never reach the log.
struct SecretReloadService: Service {
    /// The files to read: the current secret, then the previous ones.
    let files: ServerConfiguration.JWTSecretFiles
    let keyring: TokenKeyring
    /// Created before the server listens, so that a SIGHUP from then on is never the default
    /// action (which ends the process).
    let hangups: UnixSignalsSequence
    let logger: Logger

    func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            await reload()
        }
    }

    /// Reads every file; replaces the keys only when all of them can be used.
    func reload() async {
        do {
            let secrets = try ([files.current] + files.previous).map { path throws(JWTSecretFile.SecretError) in
                try JWTSecretFile.read(path)
            }
            await keyring.replace(secrets: secrets)
            logger.info("JWT secrets reloaded", metadata: ["files": "\(secrets.count)"])
        } catch {
            logger.error("JWT secrets not reloaded, the previous keys stay in use", metadata: ["error": "\(error)"])
        }
    }
}
