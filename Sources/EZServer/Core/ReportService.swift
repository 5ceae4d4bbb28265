import EZAnalytics
import EZBatch
import EZCore
import EZLedger
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Answers the `/v1` requests: checks in the request's snapshot of the ledger that the caller
/// may see what they ask for, then makes the response on the render pool, with ETags.
final class ReportService: Sendable {
    let configuration: ServerConfiguration
    let ledgers: LedgerSource
    let pool: RenderPool
    let etags = ETagMemo()
    let logger: Logger

    init(configuration: ServerConfiguration, ledgers: LedgerSource, pool: RenderPool, logger: Logger) {
        self.configuration = configuration
        self.ledgers = ledgers
        self.pool = pool
        self.logger = logger
    }

    /// What one request about a user's data needs from the ledger, read in one snapshot.
    struct UserInputs: Sendable {
        /// The user's rows (and their children's, for a parent).
        var slice: UserLedger
        /// The ledger's SHA-256, for provenance.
        var digest: String
    }

    /// A response about user `target` (the path's `{id}`), which the caller must be allowed to
    /// see: themselves, or a child of theirs when they are a parent; never for an admin.
    ///
    /// `key` names the response (route, format, parameters): with the inputs' rows it forms the
    /// fingerprint that a matching `If-None-Match` is answered from with 304, without rendering.
    func userResponse(caller: TokenSubject, target: String, through: CivilDate, key: String,
                      request: Request, produce: @escaping @Sendable (UserInputs) throws -> Produced) async throws -> Response {
        let condition = request.headers[.ifNoneMatch]
        let outcome = try await pool.run { [self] () throws -> Outcome in
            let inputs = try self.load(caller: caller, target: target, through: through)
            let fingerprint = InputFingerprint.of(inputs.slice, settings: "\(EngineVersion.current)|\(key)|\(configuration.ledgerPath)|\(inputs.digest)",
                                                  ratesDigest: inputs.digest)
            if let tag = etags.tag(for: fingerprint), ifNoneMatch(condition, matches: tag) { return .notModified(tag) }
            let produced = try produce(inputs)
            let tag = "\"" + FileDigest.sha256(produced.bytes) + "\""
            etags.remember(tag, for: fingerprint)
            if ifNoneMatch(condition, matches: tag) { return .notModified(tag) }
            return .made(produced, tag)
        }
        return outcome.response
    }

    /// A response for an administrator (403 for anyone else).
    func adminResponse(caller: TokenSubject, produce: @escaping @Sendable (any LedgerStore, String) throws -> Produced) async throws -> Response {
        let outcome = try await pool.run { [self] () throws -> Outcome in
            let ledger = try ledgers.current()
            let digest = try ledgers.digest()
            let account = try readLedger(ledger) { try $0.account(caller.userId) }
            guard let account else { throw Problem.unauthorized }
            guard account.isAdmin else { throw Problem.forbidden }
            let produced = try produce(ledger, digest)
            return .made(produced, "\"" + FileDigest.sha256(produced.bytes) + "\"")
        }
        return outcome.response
    }

    /// Reads the caller's and the target's rights and the target's rows in one snapshot.
    private func load(caller: TokenSubject, target: String, through: CivilDate) throws -> UserInputs {
        let ledger = try ledgers.current()
        let digest = try ledgers.digest()
        let slice = try readLedger(ledger) { snapshot throws -> UserLedger in
            guard let account = try snapshot.account(caller.userId) else { throw Problem.unauthorized }
            // Not a decimal id, an admin asking for anyone's data, someone else's id: all the
            // same 404 as an id that does not exist.
            guard !account.isAdmin, let id = Int64(target), id > 0, String(id) == target else { throw Problem.notFound }
            if id != caller.userId {
                guard try snapshot.isParent(caller.userId, of: id) else { throw Problem.notFound }
            }
            guard try snapshot.account(id) != nil else { throw Problem.notFound }
            return try snapshot.loadUser(id: id, through: through)
        }
        return UserInputs(slice: slice, digest: digest)
    }

    /// Runs `body` in one snapshot; a ledger that fails to read is dropped (reopened next time) and answers 503.
    private func readLedger<T>(_ ledger: any LedgerStore, _ body: (LedgerReadTransaction) throws -> T) throws -> T {
        do {
            return try ledger.readTransaction(body)
        } catch let problem as Problem {
            throw problem
        } catch let error as LedgerError {
            if case .unknownUser = error { throw Problem.notFound }
            logger.warning("ledger read failed", metadata: ["reason": "\(error)"])
            ledgers.invalidate()
            throw LedgerSource.unavailable
        }
    }

    /// The result of a pool job, turned into a response on the way out.
    enum Outcome: Sendable {
        case made(Produced, String)
        case notModified(String)

        var response: Response {
            var headers = HTTPFields()
            headers[.cacheControl] = "private, no-cache"
            switch self {
            case .notModified(let tag):
                headers[.eTag] = tag
                return Response(status: .notModified, headers: headers)
            case .made(let produced, let tag):
                headers[.eTag] = tag
                headers[.contentType] = produced.contentType
                if let name = produced.fileName {
                    headers[.contentDisposition] = "attachment; filename=\"\(name)\""
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: produced.bytes)))
            }
        }
    }
}
