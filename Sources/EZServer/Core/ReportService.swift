import EZAnalytics
import EZBatch
import EZCore
import EZLedger
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Answers the `/v1` requests: checks in the request's snapshot of the ledger that the caller
/// may see what they ask for, then makes the response on the render pool, with ETags.
final class ReportService: Sendable {
    let configuration: ServerConfiguration
    let ledgers: LedgerSource
    let pool: RenderPool
    let etags = ETagMemo()
    /// The finished responses still waiting for their readers: new renders wait while they hold too much.
    let unsent: UnsentResponses
    let logger: Logger
    /// Each caller's share of the render pool.
    let shares: CallerShares

    init(configuration: ServerConfiguration, ledgers: LedgerSource, pool: RenderPool, logger: Logger) {
        self.configuration = configuration
        self.ledgers = ledgers
        self.pool = pool
        self.unsent = UnsentResponses(limit: configuration.unsentResponseLimit)
        self.shares = CallerShares(poolCapacity: configuration.maxConcurrent + configuration.queueLimit, threads: configuration.maxConcurrent)
        self.logger = logger
    }

    /// Runs `job` for `caller` on the render pool, unless the responses already made but not yet
    /// read hold more than ``ServerConfiguration/unsentResponseLimit``, or the caller already has
    /// their share of the pool (``CallerShares``): then 503, like a full pool.
    private func runRender(for caller: TokenSubject, on channel: any Channel,
                           _ job: @escaping @Sendable () throws -> Outcome) async throws -> Response {
        guard unsent.admitsRender else {
            throw Problem.unavailable("too many finished reports are still being sent; try again shortly")
        }
        guard shares.take(caller.userId) else {
            throw Problem.unavailable("too many of this account's reports are being made at once; try again shortly")
        }
        // The share is given back when the render really ends, not when its request is answered:
        // a render cut at the time limit runs on, and with its share given back at the 503 an
        // account's retries came on top of the renders it still had running (outside scale test).
        let shares = self.shares, id = caller.userId
        return try await pool.run(job, whenEnded: { shares.giveBack(id) }).response(unsent, channel: channel)
    }

    /// What one request about a user's data needs from the ledger, read in one snapshot.
    struct UserInputs: Sendable {
        /// The user's rows (and their children's, for a parent).
        var slice: UserLedger
        /// The ledger's SHA-256, for provenance.
        var digest: String
    }

    /// Which of the target's rows a response needs.
    enum Reach: Sendable {
        /// Every row from the ledger's beginning through the date, and the rest of the user's
        /// data: a statement (running balances, trends, budgets, savings, family).
        case history(through: CivilDate)
        /// Only the transactions and group expenses that can fall in the range, with the user's
        /// categories and balances: a transaction list or the statistics over the range.
        case window(Period)
    }

    /// A response about user `target` (the path's `{id}`), which the caller must be allowed to
    /// see: themselves, or a child of theirs when they are a parent; never for an admin.
    ///
    /// `key` names the response (route, format, parameters): with the inputs' rows it forms the
    /// fingerprint that a matching `If-None-Match` is answered from with 304, without rendering.
    func userResponse(caller: TokenSubject, target: String, reach: Reach, key: String,
                      request: Request, context: ServerContext, produce: @escaping @Sendable (UserInputs) throws -> Produced) async throws -> Response {
        let condition = request.headers[.ifNoneMatch]
        return try await runRender(for: caller, on: context.channel) { [self] () throws -> Outcome in
            let inputs = try self.load(caller: caller, target: target, reach: reach)
            let fingerprint = InputFingerprint.of(inputs.slice, settings: "\(EngineVersion.current)|\(key)|\(configuration.ledgerPath)|\(inputs.digest)",
                                                  // The file's digest covers a SQLite ledger's rates; a server's ledger has
                                                  // none, and its rates may change under the same rows (LiveRates).
                                                  ratesDigest: inputs.digest + "|" + String(inputs.slice.rates.identity))
            if let tag = etags.tag(for: fingerprint), ifNoneMatch(condition, matches: tag) { return .notModified(tag) }
            let produced = try produce(inputs)
            let tag = "\"" + FileDigest.sha256(produced.bytes) + "\""
            etags.remember(tag, for: fingerprint)
            if ifNoneMatch(condition, matches: tag) { return .notModified(tag) }
            return .made(produced, tag)
        }
    }

    /// A response for an administrator (403 for anyone else): `figures` computes what the
    /// report shows from one snapshot of the whole ledger (the one the caller's role was read
    /// in), then `render` makes the bytes outside the read transaction.
    ///
    /// The snapshot is read on a connection of its own, opened for the request: the pass reads
    /// every user, and the shared connection goes on serving the other requests meanwhile.
    ///
    /// `key` names the response (format, period, as-of date). For a SQLite ledger, the file's
    /// digest covers every row the report reads, so a matching `If-None-Match` is answered 304
    /// without the pass while the file is unchanged; a PostgreSQL ledger has no such digest and
    /// always renders (the response still carries its ETag).
    func adminResponse<Figures: Sendable>(caller: TokenSubject, key: String, request: Request, context: ServerContext,
                                          figures: @escaping @Sendable (LedgerReadTransaction) throws -> Figures,
                                          render: @escaping @Sendable (Figures, String) throws -> Produced) async throws -> Response {
        let condition = request.headers[.ifNoneMatch]
        return try await runRender(for: caller, on: context.channel) { [self] () throws -> Outcome in
            // The cheap check first, on the shared connection: a non-admin costs no extra connection.
            try readCurrentLedger { snapshot in try Self.requireAdmin(caller, in: snapshot) }
            // The digest alone is not enough under WAL: commits land in the -wal file and leave the
            // main file (and its digest) as they were until a checkpoint; the files' identity moves
            // with every commit. Taken before the pass, so a commit during it only costs a render.
            let identity = ledgers.identity()
            let digest = try ledgers.digest()
            let fingerprint = digest.isEmpty || identity == nil
                ? nil : "admin|\(EngineVersion.current)|\(key)|\(configuration.ledgerPath)|\(digest)|\(identity!)"
            if let fingerprint, let tag = etags.tag(for: fingerprint), ifNoneMatch(condition, matches: tag) { return .notModified(tag) }
            let own: any LedgerStore
            do { own = try configuration.openLedger?() ?? Ledger(path: configuration.ledgerPath) } catch {
                logger.warning("ledger unavailable", metadata: ["reason": "\(error)"])
                throw LedgerSource.unavailable
            }
            let made = try readLedger(own, retryingCorrupt: false) { snapshot throws -> Figures in
                try Self.requireAdmin(caller, in: snapshot)
                return try figures(snapshot)
            }
            let produced = try render(made, digest)
            let tag = "\"" + FileDigest.sha256(produced.bytes) + "\""
            if let fingerprint { etags.remember(tag, for: fingerprint) }
            if ifNoneMatch(condition, matches: tag) { return .notModified(tag) }
            return .made(produced, tag)
        }
    }

    /// 401 for a caller the snapshot does not know (or knows as deleted), 403 for a non-admin.
    private static func requireAdmin(_ caller: TokenSubject, in snapshot: LedgerReadTransaction) throws {
        guard let account = try snapshot.account(caller.userId) else { throw Problem.unauthorized }
        guard account.isAdmin else { throw Problem.forbidden }
    }

    /// Reads the caller's and the target's rights and the target's rows in one snapshot.
    private func load(caller: TokenSubject, target: String, reach: Reach) throws -> UserInputs {
        let digest = try ledgers.digest()
        let slice = try readCurrentLedger { snapshot throws -> UserLedger in
            guard let account = try snapshot.account(caller.userId) else { throw Problem.unauthorized }
            // Not a decimal id, an admin asking for anyone's data, someone else's id: all the
            // same 404 as an id that does not exist.
            guard !account.isAdmin, let id = Int64(target), id > 0, String(id) == target else { throw Problem.notFound }
            if id != caller.userId {
                guard try snapshot.isParent(caller.userId, of: id) else { throw Problem.notFound }
            }
            guard try snapshot.account(id) != nil else { throw Problem.notFound }
            switch reach {
            case .history(let through): return try snapshot.loadUser(id: id, through: through)
            case .window(let range): return try snapshot.loadWindow(id: id, from: range.start, through: range.end)
            }
        }
        return UserInputs(slice: slice, digest: digest)
    }

    /// Runs `body` in one snapshot of the live ledger (``LedgerSource/current()``).
    ///
    /// While the app writes to the file (WAL), a read can, rarely, fail with SQLITE_CORRUPT
    /// although the file is sound (an integrity check right after finds nothing; seen at ~2,000
    /// rows written a second, about one request in fifty): such a read is tried once more on a
    /// freshly opened connection before the request answers 503. A file that is really damaged
    /// fails twice and answers 503 as before.
    private func readCurrentLedger<T>(_ body: (LedgerReadTransaction) throws -> T) throws -> T {
        do {
            return try readLedger(try ledgers.current(), body)
        } catch let retry as TransientCorruptRead {
            logger.info("ledger read retried", metadata: ["reason": "\(retry.error)"])
            return try readLedger(try ledgers.current(), retryingCorrupt: false, body)
        }
    }

    /// A read that met SQLITE_CORRUPT, to be tried once more (``readCurrentLedger(_:)``).
    private struct TransientCorruptRead: Error { let error: LedgerError }

    /// Runs `body` in one snapshot; a ledger that fails to read is dropped (reopened next time) and answers 503.
    private func readLedger<T>(_ ledger: any LedgerStore, retryingCorrupt: Bool = true,
                               _ body: (LedgerReadTransaction) throws -> T) throws -> T {
        do {
            return try ledger.readTransaction(body)
        } catch let problem as Problem {
            throw problem
        } catch let error as LedgerError {
            if case .unknownUser = error { throw Problem.notFound }
            if case .quarantinedUser = error {
                logger.notice("account cannot be reported", metadata: ["reason": "\(error)"])
                throw Problem.accountUnreportable
            }
            if retryingCorrupt, let code = error.sqliteCode, code & 0xFF == 11 {   // SQLITE_CORRUPT
                ledgers.invalidate()
                throw TransientCorruptRead(error: error)
            }
            logger.warning("ledger read failed", metadata: ["reason": "\(error)"])
            ledgers.invalidate()
            throw LedgerSource.unavailable
        }
    }

    /// The result of a pool job, turned into a response on the way out.
    enum Outcome: Sendable {
        case made(Produced, String)
        case notModified(String)

        /// The response; a body is counted in `unsent` until its client has taken it.
        /// - Throws: 503 (``Problem/unavailable(_:)``) when the responses waiting for their
        ///   readers have no room for this one (``UnsentResponses/body(_:channel:)``).
        func response(_ unsent: UnsentResponses, channel: any Channel) throws -> Response {
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
                guard let body = unsent.body(produced.bytes, channel: channel) else {
                    throw Problem.unavailable("too many finished reports are still being sent; try again shortly")
                }
                return Response(status: .ok, headers: headers, body: body)
            }
        }
    }
}
