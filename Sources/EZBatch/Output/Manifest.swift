import EZCore
import Foundation

/// `manifest.json`: what a run wrote, for whom, and how to verify it (docs/manifest.md).
///
/// It holds no clock time and no durations (those go to the log), so two runs over the same
/// ledger, period and as-of date write byte-identical manifests. Keys are snake_case and sorted.
public struct Manifest: Codable, Equatable, Sendable {
    /// The engine version that wrote it.
    public var engineVersion: String
    /// The ledger's path as given, and its main file's SHA-256 (with a WAL ledger, commits still in
    /// `-wal` are not in it: ``snapshotSha256`` names the content).
    public var ledgerPath: String
    public var ledgerSha256: String
    /// The SHA-256 of the one snapshot of the ledger every report of the run was read from (a copy
    /// holding exactly the ledger's committed content, WAL included; docs/manifest.md). Absent in
    /// manifests of earlier versions, and in a merged manifest whose shards read different snapshots.
    public var snapshotSha256: String?
    /// The resolved period's name (also the folder's name) and its first and last dates.
    public var period: String
    public var periodStart: String
    public var periodEnd: String
    public var asOf: String
    /// The formats written.
    public var formats: [String]
    /// Which shard this manifest covers (`K/N`), absent for a whole run or a merged manifest.
    public var shard: String?
    /// One entry per user, in id order.
    public var users: [UserEntry]
    /// The admin usage report's files (absent when this run did not write it).
    public var admin: AdminEntry?
    /// Run totals.
    public var totals: Totals

    /// How a user's (or the admin report's) part of the run ended; JSON `"ok"` or `"failed"`.
    public enum Status: String, Codable, Equatable, Sendable {
        /// The files were written (or kept, unchanged, from an earlier run).
        case ok
        /// Nothing usable was written; `error` says why.
        case failed
    }

    /// One user's outcome.
    public struct UserEntry: Codable, Equatable, Sendable {
        public var id: Int64
        /// `ok` or `failed`. A user skipped as unchanged stays `ok`.
        public var status: Status
        /// The user's folder, relative to the period folder.
        public var folder: String
        public var currency: String?
        public var incomeMinor: Int64?
        public var expensesMinor: Int64?
        public var netMinor: Int64?
        /// Rows in the user's transactions.csv.
        public var transactionCount: Int?
        public var files: [FileEntry]
        public var quarantined: [QuarantineEntry]
        /// Why the user failed (absent when ok).
        public var error: String?
        /// A hash of the inputs that fed the report (rows, period, as-of, formats, engine version):
        /// an unchanged fingerprint lets a re-run skip the user.
        public var fingerprint: String?
    }

    /// One written file.
    public struct FileEntry: Codable, Equatable, Sendable {
        /// Relative to the period folder.
        public var path: String
        public var bytes: Int
        public var sha256: String
    }

    /// One quarantined row.
    public struct QuarantineEntry: Codable, Equatable, Sendable {
        public var table: String
        public var id: Int64
        public var reason: String
    }

    /// The admin usage report's files.
    public struct AdminEntry: Codable, Equatable, Sendable {
        public var status: Status
        public var files: [FileEntry]
        public var error: String?
    }

    /// Totals over the run.
    public struct Totals: Codable, Equatable, Sendable {
        public var users: Int
        public var ok: Int
        public var failed: Int
        public var files: Int
        public var bytes: Int
        public var transactionCount: Int
        public var quarantinedRows: Int
    }

    /// Recomputes ``totals`` from the entries.
    public mutating func recomputeTotals() {
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
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Reads a manifest written by ``encoded()``.
    public static func decode(_ data: Data) throws -> Manifest {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Manifest.self, from: data)
    }
}

/// Why manifests cannot be merged.
public enum ManifestMergeError: Error, Equatable, CustomStringConvertible {
    case noManifests
    case mismatch(field: String, first: String, other: String)
    case duplicateUser(Int64)
    public var description: String {
        switch self {
        case .noManifests: return "no manifests to merge"
        case .mismatch(let f, let a, let b): return "manifests disagree on \(f): '\(a)' vs '\(b)'"
        case .duplicateUser(let id): return "user \(id) appears in more than one manifest (overlapping shards?)"
        }
    }
}

extension Manifest {
    /// Joins the manifests of disjoint shards of one run into the manifest a single run would write.
    public static func merge(_ parts: [Manifest]) throws(ManifestMergeError) -> Manifest {
        guard var merged = parts.first else { throw .noManifests }
        for p in parts.dropFirst() {
            for (field, a, b) in [("engine_version", merged.engineVersion, p.engineVersion),
                                  ("ledger_sha256", merged.ledgerSha256, p.ledgerSha256),
                                  ("period", merged.period, p.period), ("as_of", merged.asOf, p.asOf),
                                  ("formats", merged.formats.joined(separator: ","), p.formats.joined(separator: ","))] where a != b {
                throw .mismatch(field: field, first: a, other: b)
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
        merged.shard = nil
        merged.recomputeTotals()
        return merged
    }
}
