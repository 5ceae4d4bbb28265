import EZCore
import EZLedger
import Foundation

/// `manifest.json`: what a run wrote, for whom, and how to verify it (docs/manifest.md).
///
/// It holds no clock time and no durations (those go to the log), so two runs over the same
/// ledger, period and as-of date write byte-identical manifests. Keys are snake_case and sorted.
package struct Manifest: Codable, Equatable, Sendable {
    /// The engine version that wrote it.
    package var engineVersion: String
    /// The ledger's path as given, and its main file's SHA-256 (with a WAL ledger, commits still in
    /// `-wal` are not in it: ``snapshotSha256`` names the content).
    package var ledgerPath: String
    package var ledgerSha256: String
    /// The SHA-256 of the one snapshot of the ledger every report of the run was read from (a copy
    /// holding exactly the ledger's committed content, WAL included; docs/manifest.md). Absent in
    /// manifests of earlier versions, and in a merged manifest whose shards read different snapshots.
    package var snapshotSha256: String?
    /// For a PostgreSQL ledger (``ledgerPath`` is then its URL, without password, and
    /// ``ledgerSha256`` empty): the server's WAL position when the run's one snapshot was taken
    /// (`pg_current_wal_lsn()`, or `pg_last_wal_replay_lsn()` on a replica), e.g. `0/1A2B3C8`.
    /// Absent for a SQLite ledger, and in a merged manifest whose shards read different snapshots.
    package var snapshotLsn: String? = nil
    /// The resolved period's name (also the folder's name) and its first and last dates.
    package var period: String
    package var periodStart: String
    package var periodEnd: String
    package var asOf: String
    /// The formats written.
    package var formats: [String]
    /// Which shard this manifest covers (`K/N`), absent for a whole run or a merged manifest.
    package var shard: String?
    /// One entry per user, in id order.
    package var users: [UserEntry]
    /// The admin usage report's files (absent when this run did not write it).
    package var admin: AdminEntry?
    /// Run totals.
    package var totals: Totals

    /// How a user's (or the admin report's) part of the run ended; JSON `"ok"` or `"failed"`.
    package enum Status: String, Codable, Equatable, Sendable {
        /// The files were written (or kept, unchanged, from an earlier run).
        case ok
        /// Nothing usable was written; `error` says why.
        case failed
    }

    /// One user's outcome.
    package struct UserEntry: Codable, Equatable, Sendable {
        package var id: Int64
        /// `ok` or `failed`. A user skipped as unchanged stays `ok`.
        package var status: Status
        /// The user's folder, relative to the period folder.
        package var folder: String
        package var currency: String?
        package var incomeMinor: Int64?
        package var expensesMinor: Int64?
        package var netMinor: Int64?
        /// Rows in the user's transactions.csv.
        package var transactionCount: Int?
        package var files: [FileEntry]
        package var quarantined: [QuarantineEntry]
        /// Why the user failed (absent when ok).
        package var error: String?
        /// A hash of the inputs that fed the report (rows, period, as-of, formats, engine version):
        /// an unchanged fingerprint lets a re-run skip the user.
        package var fingerprint: String?
        /// Headline figures for `ezreport deliver`'s e-mail (absent when failed).
        package var summary: StatementSummary?
        /// Whose statement this is: ``Manifest/accountDigest(id:username:)`` of the user's id and
        /// exact username. `deliver` mails the statement only to the user the ledger now holds
        /// under that id with that name: the folder name alone is a cleaned, shortened username,
        /// which another person's name (given a reused id) can clean up to as well.
        package var accountSha256: String?
        /// When the account was created (``Manifest/accountCreated(_:)`` of `users.created_at`):
        /// `deliver` mails the statement only while the ledger's user of that id was created then.
        /// An id and a username can both come back (the highest ids erased, SQLite gives the next
        /// sign-up the same id, who takes the freed username): the erased person's statement went
        /// to the newcomer (outside operations test). Absent in manifests written before it.
        package var accountCreatedAt: String? = nil
    }

    /// `created_at` as the manifest records it: `2024-01-01T00:00:00.000Z` for an instant (in UTC,
    /// to the millisecond), `2024-01-01` for a bare date.
    package static func accountCreated(_ time: LedgerTime) -> String {
        switch time {
        case .date(let day): return "\(day)"
        case .instant(let ms):
            let day = CivilDate(dayNumber: Int32((Double(ms) / 86_400_000).rounded(.down)))
            let inDay = ms - Int64(day.dayNumber) * 86_400_000
            let (h, m, s, f) = (inDay / 3_600_000, inDay / 60_000 % 60, inDay / 1000 % 60, inDay % 1000)
            return "\(day)T" + [h, m, s].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
                + "." + String(String(f + 1000).dropFirst()) + "Z"
        }
    }

    /// The SHA-256 (hex) of a user's id and exact username, as ``UserEntry/accountSha256`` holds it.
    package static func accountDigest(id: Int64, username: String) -> String {
        FileDigest.sha256(Array("\(id)\n\(username)".utf8))
    }

    /// One written file.
    package struct FileEntry: Codable, Equatable, Sendable {
        /// Relative to the period folder.
        package var path: String
        package var bytes: Int
        package var sha256: String
    }

    /// One quarantined row.
    package struct QuarantineEntry: Codable, Equatable, Sendable {
        package var table: String
        package var id: Int64
        package var reason: String
    }

    /// The admin usage report's files.
    package struct AdminEntry: Codable, Equatable, Sendable {
        package var status: Status
        package var files: [FileEntry]
        package var error: String?
        /// Users left out of the report's figures (their rows could not be read or converted
        /// into its currency): the report was written, but is incomplete. Absent when none.
        package var usersLeftOut: Int? = nil
    }

    /// Totals over the run.
    package struct Totals: Codable, Equatable, Sendable {
        package var users: Int
        package var ok: Int
        package var failed: Int
        package var files: Int
        package var bytes: Int
        package var transactionCount: Int
        package var quarantinedRows: Int
    }

    /// Recomputes ``totals`` from the entries.
    package mutating func recomputeTotals() {
        let files = users.flatMap(\.files) + (admin?.files ?? [])
        totals = Totals(
            users: users.count,
            ok: users.filter { $0.status == .ok }.count,
            failed: users.filter { $0.status != .ok }.count,
            files: files.count,
            bytes: files.reduce(0) { $0 + $1.bytes },
            transactionCount: users.reduce(0) { $0 + ($1.transactionCount ?? 0) },
            quarantinedRows: Set(users.flatMap { $0.quarantined.map { "\($0.table)#\($0.id)" } }).count)
    }

    /// The manifest as deterministic, human-readable JSON.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Reads a manifest written by ``encoded()``.
    package static func decode(_ data: Data) throws -> Manifest {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Manifest.self, from: data)
    }
}

/// Why manifests cannot be merged.
package enum ManifestMergeError: Error, Equatable, CustomStringConvertible {
    case noManifests
    case mismatch(field: String, first: String, other: String)
    case duplicateUser(Int64)
    /// The same shard given twice (`K/N`).
    case duplicateShard(String)
    /// Shards of the run with no manifest among those given (`K/N` each), so their users would be
    /// missing from the merge: `deliver` would then send them nothing, silently.
    case missingShards([String])
    package var description: String {
        switch self {
        case .noManifests: return "no manifests to merge"
        case .mismatch(let f, let a, let b): return "manifests disagree on \(f): '\(a)' vs '\(b)'"
        case .duplicateUser(let id): return "user \(id) appears in more than one manifest (overlapping shards?)"
        case .duplicateShard(let shard): return "shard \(shard) is given twice"
        case .missingShards(let shards):
            return "no manifest for shard\(shards.count > 1 ? "s" : "") \(shards.joined(separator: ", ")): their users would be missing "
                + "(re-run \(shards.count > 1 ? "those shards" : "that shard"), or give --allow-missing-shards to merge without them)"
        }
    }
}

extension Manifest {
    /// Joins the manifests of disjoint shards of one run into the manifest a single run would write.
    ///
    /// Shards' manifests (those with ``shard``) must all be of the same `N`, each `K` once, and,
    /// unless `allowingMissingShards`, every `K` from 0 to N − 1 present. Manifests without
    /// ``shard`` are joined as they are (their users must not overlap).
    package static func merge(_ parts: [Manifest], allowingMissingShards: Bool = false) throws(ManifestMergeError) -> Manifest {
        guard var merged = parts.first else { throw .noManifests }
        try checkShards(parts, allowingMissing: allowingMissingShards)
        for p in parts.dropFirst() {
            for (field, a, b) in [("engine_version", merged.engineVersion, p.engineVersion),
                                  ("ledger_sha256", merged.ledgerSha256, p.ledgerSha256),
                                  ("period", merged.period, p.period), ("as_of", merged.asOf, p.asOf),
                                  ("formats", merged.formats.joined(separator: ","), p.formats.joined(separator: ","))] where a != b {
                throw .mismatch(field: field, first: a, other: b)
            }
            // A server ledger has no file hash to compare: the shards must name the same server and
            // database (a SQLite file may be mounted at different paths; its hash already says it).
            if merged.ledgerSha256.isEmpty, merged.ledgerPath != p.ledgerPath {
                throw .mismatch(field: "ledger_path", first: merged.ledgerPath, other: p.ledgerPath)
            }
        }
        var seen = Set<Int64>()
        var users: [UserEntry] = []
        for u in parts.flatMap(\.users) {
            guard seen.insert(u.id).inserted else { throw .duplicateUser(u.id) }
            users.append(u)
        }
        merged.users = users.sorted { $0.id < $1.id }
        merged.admin = parts.compactMap(\.admin).first
        // Shards run apart read apart: one snapshot is named only when every shard read the same.
        if Set(parts.map(\.snapshotSha256)).count != 1 { merged.snapshotSha256 = nil }
        if Set(parts.map(\.snapshotLsn)).count != 1 { merged.snapshotLsn = nil }
        merged.shard = nil
        merged.recomputeTotals()
        return merged
    }

    /// The shards of `parts` (``merge(_:allowingMissingShards:)``): one `N`, each `K` once, and
    /// every `K` present unless `allowingMissing`.
    private static func checkShards(_ parts: [Manifest], allowingMissing: Bool) throws(ManifestMergeError) {
        let shards = parts.compactMap(\.shard)
        guard let first = shards.first else { return }
        guard shards.count == parts.count else {
            throw .mismatch(field: "shard", first: first, other: "(none: a manifest of a run that was not sharded)")
        }
        var given = Set<Int>()
        var count: Int?
        for text in shards {
            guard let shard = ShardText(text), count.map({ $0 == shard.count }) ?? true else {
                throw .mismatch(field: "shard", first: first, other: text)
            }
            count = shard.count
            guard given.insert(shard.index).inserted else { throw .duplicateShard(text) }
        }
        guard let count, !allowingMissing else { return }
        let missing = (0..<count).filter { !given.contains($0) }.map { "\($0)/\(count)" }
        guard missing.isEmpty else { throw .missingShards(missing) }
    }
}
