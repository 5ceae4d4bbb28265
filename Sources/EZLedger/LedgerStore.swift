import EZCore

/// A ledger the engine can read, whichever database holds it: a SQLite file (``Ledger``) or a
/// PostgreSQL server (EZPostgres's `PostgresLedger`).
///
/// Analytics, the batch, `check`, `serve` and `deliver` see only this protocol. Every backend
/// reaches its answers through the same rules (``LedgerBackend``'s shared implementations of
/// the per-user loader, ``RowValidator`` and ``TransactionDecoder``), so the same rows give the
/// same users, figures and quarantine on every backend.
///
/// ```swift
/// let ledger: any LedgerStore = try Ledger(path: "samples/ledger.sqlite")
/// let alice = try ledger.loadUser(id: 1, through: CivilDate(year: 2026, month: 10, day: 31))
/// ```
package protocol LedgerStore: AnyObject, Sendable {
    /// The ledger as errors and provenance name it: a file's path, or a URL without its password.
    var path: String { get }
    /// Exchange rates, loaded once at open (quarantined rate rows excluded).
    var rates: RateTable { get }
    /// Rate rows that break the contract.
    var quarantinedRates: [QuarantinedRow] { get }
    /// The optional additions to the contract this ledger has (detected at open).
    var features: LedgerFeatures { get }

    /// Every user, by id (deleted ones flagged), for planning a batch run.
    func userRefs() throws(LedgerError) -> [UserRef]
    /// Finds a live user by numeric id or by username.
    func findUser(_ idOrName: String) throws(LedgerError) -> Int64
    /// Everything one user's report may draw on, through local date `through`, in one snapshot.
    func loadUser(id: Int64, through: CivilDate) throws(LedgerError) -> UserLedger
    /// How many transactions user `id` has (their own, every date, quarantined rows included):
    /// one indexed count, so that a batch knows a statement is large before reading its rows.
    func transactionCount(user id: Int64) throws(LedgerError) -> Int
    /// The bare user rows of every user, deleted ones included; rows that break the contract are quarantined.
    func allUsers() throws(LedgerError) -> (users: [User], quarantined: [QuarantinedRow])
    /// Every row checked with the rules the reports use (`ezreport check`).
    func health() throws(LedgerError) -> LedgerHealth
    /// The quarantined rows that belong to no user's report: exchange-rate rows that break the
    /// contract, and rows whose user, family member or group does not exist. Every command
    /// counts them, so that its exit code (3) and quarantine agree with `check`'s.
    func quarantinedOutsideUsers() throws(LedgerError) -> [QuarantinedRow]
    /// A digest of the exchange_rates table's contents: when any rate changes, every report may change.
    func exchangeRatesDigest() throws(LedgerError) -> String
    /// Every user's delivery contact, by id, deleted ones flagged.
    func deliveryContacts() throws(LedgerError) -> [DeliveryContact]
    /// Runs `body` inside one read transaction (one consistent snapshot of the ledger).
    func readTransaction<T>(_ body: (LedgerReadTransaction) throws -> T) throws -> T
    /// Checks the ledger can still be read and matches the contract (for readiness probes).
    func checkReadable() throws(LedgerError)
    /// Takes one consistent snapshot of the ledger and opens `connections` readers of it (at least
    /// one): every report of a run reads the same committed state, whatever the app writes meanwhile.
    /// `scratch` names a private file path the backend may use (SQLite copies the ledger there).
    func snapshot(connections: Int, scratch: String) throws(LedgerError) -> LedgerSnapshotReaders
}

/// What names one snapshot of a ledger in a run's records.
package enum LedgerSnapshotIdentity: Hashable, Sendable {
    /// The SHA-256 of a SQLite snapshot copy (the committed content, WAL included).
    case sha256(String)
    /// The PostgreSQL server's WAL position when the snapshot was taken (`pg_current_wal_lsn()`,
    /// or `pg_last_wal_replay_lsn()` on a replica), e.g. `0/1A2B3C8`.
    case walLSN(String)

    /// A key that changes whenever the identity does (`lsn:` marks a WAL position).
    package var key: String {
        switch self {
        case .sha256(let digest): return digest
        case .walLSN(let lsn): return "lsn:" + lsn
        }
    }
}

/// Readers all pinned to one snapshot of a ledger (see ``LedgerStore/snapshot(connections:scratch:)``).
package struct LedgerSnapshotReaders: Sendable {
    /// One reader per worker; all see the same snapshot.
    package var connections: [any LedgerStore]
    /// What names the snapshot in the manifest.
    package var identity: LedgerSnapshotIdentity
    /// How long taking it took.
    package var seconds: Double

    package init(connections: [any LedgerStore], identity: LedgerSnapshotIdentity, seconds: Double) {
        self.connections = connections; self.identity = identity; self.seconds = seconds
    }
}

/// A ledger backend: how to run a body inside one read transaction. The rest of
/// ``LedgerStore`` comes from this protocol's extension, written once for every backend.
package protocol LedgerBackend: LedgerStore {
    /// The backend's read transaction.
    associatedtype Reader: LedgerReading
    /// Runs `body` inside one read transaction; errors become ``LedgerError``s naming the ledger.
    func withReader<T>(_ body: (Reader) throws -> T) throws(LedgerError) -> T
    /// The exchange rates for the snapshot `reader` reads: those read at open, or read again
    /// when the app changed them since (``LiveRates``).
    func rates(in reader: Reader) throws -> RateTable
    /// The backend's own errors (a failed query, a lost connection) as ``LedgerError``s; nil for
    /// any other error, which a caller's body threw on its own (``LedgerStore/readTransaction(_:)``
    /// passes those through unchanged).
    func classify(_ error: any Error) -> LedgerError?
}
