import EZCore
import Synchronization

/// A ledger's exchange rates, kept current while the app goes on writing: a long-lived reader
/// (`ezreport serve`) sees the rates the app adds or corrects without reopening the file.
///
/// Each read transaction asks ``rates(in:)`` for its rates. While the database is unchanged that
/// costs one `PRAGMA data_version` (``LedgerQuery/dataVersion``: it moves whenever another
/// connection commits). When it has moved, at most once per ``recheckInterval``, the
/// `exchange_rates` rows of the transaction's snapshot are fingerprinted (a scan, no parsing),
/// and only when the fingerprint differs are they read again through the contract's rules, in
/// that same snapshot. So a report never mixes rates of one snapshot with rows of another
/// except for that interval's lag after a write, and a ledger the app writes to constantly
/// costs a fingerprint a second, not a reload per request.
package final class LiveRates: Sendable {
    /// The least time between two fingerprints of the rates after writes.
    package static let recheckInterval: Duration = .seconds(1)

    private struct State {
        var table: RateTable
        var quarantined: [QuarantinedRow]
        /// The `data_version` the table was last checked at (nil: not yet read).
        var version: Int64?
        /// The fingerprint of the rows the table was read from (nil: not yet taken).
        var fingerprint: Int?
        var checked: ContinuousClock.Instant
    }
    private let state: Mutex<State>

    /// Rates read at open, with the snapshot's version (taken in the same transaction).
    package init(table: RateTable, quarantined: [QuarantinedRow], version: Int64?) {
        state = Mutex(State(table: table, quarantined: quarantined, version: version, fingerprint: nil, checked: .now))
    }

    /// The rates as last read.
    package var table: RateTable { state.withLock { $0.table } }
    /// The rate rows that broke the contract when the rates were last read.
    package var quarantined: [QuarantinedRow] { state.withLock { $0.quarantined } }

    /// The rates for the snapshot `reader` reads, read again when the table changed.
    package func rates<Reader: LedgerReading>(in reader: Reader) throws -> RateTable {
        let now = ContinuousClock.now
        let known = state.withLock { ($0.version, $0.checked, $0.table, $0.fingerprint) }
        let version = try Self.dataVersion(reader)
        guard version != known.0, now - known.1 >= Self.recheckInterval else { return known.2 }
        let fingerprint = try Self.fingerprint(reader)
        if fingerprint == known.3 {
            state.withLock { $0.version = version; $0.checked = now }
            return known.2
        }
        let (table, bad) = try loadExchangeRates(reader)
        state.withLock { $0 = State(table: table, quarantined: bad, version: version, fingerprint: fingerprint, checked: now) }
        return table
    }

    /// The database's `data_version` as seen by this snapshot.
    package static func dataVersion<Reader: LedgerReading>(_ reader: Reader) throws -> Int64 {
        let rows = try reader.rows(.dataVersion, [])
        return try rows.next() ? rows.int64(0) : 0
    }

    /// A hash of every `exchange_rates` row as stored (compared only within this process).
    static func fingerprint<Reader: LedgerReading>(_ reader: Reader) throws -> Int {
        var hasher = Hasher()
        let rows = try reader.rows(.exchangeRates, [])
        var count = 0
        while try rows.next() {
            hasher.combine(rows.int64(0))
            hasher.combine(rows.string(1))
            hasher.combine(rows.string(2))
            hasher.combine(rows.string(3))
            let numeric = rows.type(4) == .real || rows.type(4) == .integer
            hasher.combine(numeric ? rows.double(4).bitPattern : 0)
            if !numeric { hasher.combine(rows.string(4)) }
            count += 1
        }
        hasher.combine(count)
        return hasher.finalize()
    }
}
