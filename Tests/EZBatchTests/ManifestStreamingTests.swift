import Foundation
import XCTest
@testable import EZBatch

/// The streamed manifest is byte for byte the encoder's manifest, so merged and single-run
/// manifests compare equal, while a run never holds every entry at once.
final class ManifestStreamingTests: XCTestCase {
    private func entry(_ id: Int64, files: Int, failed: Bool = false) -> Manifest.UserEntry {
        Manifest.UserEntry(
            id: id, status: failed ? .failed : .ok, folder: "users/\(id)-u\(id)", currency: failed ? nil : "EUR",
            incomeMinor: failed ? nil : 1_000 * id, expensesMinor: failed ? nil : 900, netMinor: failed ? nil : 1_000 * id - 900,
            transactionCount: failed ? nil : Int(id),
            files: (0..<files).map { Manifest.FileEntry(path: "users/\(id)-u\(id)/f\($0).csv", bytes: $0 * 10, sha256: String(repeating: "ab", count: 32)) },
            quarantined: id == 2 ? [Manifest.QuarantineEntry(table: "transactions", id: 7, reason: "unknown kind 'x/y'")] : [],
            error: failed ? "user \(id) is quarantined: unknown time zone" : nil, fingerprint: failed ? nil : "f\(id)")
    }

    private func streamed(_ manifest: Manifest) throws -> Data {
        var shell = manifest
        shell.users = []
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-manifest-\(UUID().uuidString).json").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try Manifest.stream(shell: shell, count: manifest.users.count, entries: { manifest.users[$0] }, to: handle)
        try handle.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func manifest(users: [Manifest.UserEntry], admin: Manifest.AdminEntry?) -> Manifest {
        var m = Manifest(engineVersion: "9.9.9", ledgerPath: "a/b.sqlite", ledgerSha256: "00", period: "2026-10",
                         periodStart: "2026-10-01", periodEnd: "2026-10-31", asOf: "2026-11-01", formats: ["pdf", "csv"],
                         shard: nil, users: users, admin: admin,
                         totals: Manifest.Totals(users: 0, ok: 0, failed: 0, files: 0, bytes: 0, transactionCount: 0, quarantinedRows: 0))
        m.recomputeTotals()
        return m
    }

    func testStreamingGivesTheEncodersBytes() throws {
        let m = manifest(users: [entry(1, files: 3), entry(2, files: 0), entry(3, files: 1, failed: true)],
                         admin: Manifest.AdminEntry(status: .ok, files: [Manifest.FileEntry(path: "admin/usage.csv", bytes: 5, sha256: "cd")], error: nil))
        XCTAssertEqual(String(decoding: try streamed(m), as: UTF8.self), String(decoding: try m.encoded(), as: UTF8.self))
    }

    func testStreamingWithNoUsersGivesTheEncodersBytes() throws {
        let m = manifest(users: [], admin: nil)
        XCTAssertEqual(try streamed(m), try m.encoded())
    }

    func testTotalsAddedUpAsUsersFinishEqualTheRecomputedOnes() {
        let users = [entry(1, files: 3), entry(2, files: 2), entry(3, files: 0, failed: true)]
        let admin = Manifest.AdminEntry(status: .ok, files: [Manifest.FileEntry(path: "admin/usage.csv", bytes: 5, sha256: "cd")], error: nil)
        var sum = TotalsAccumulator()
        for u in users.reversed() { sum.add(u) }
        sum.add(admin: admin)
        XCTAssertEqual(sum.totals, manifest(users: users, admin: admin).totals)
    }

    /// Shards read from two PostgreSQL databases (no file hash to compare) used to merge into one
    /// manifest naming the first; a server ledger's shards must name the same URL.
    func testShardsOfTwoServerLedgersDoNotMerge() throws {
        var a = manifest(users: [entry(1, files: 1)], admin: nil), b = manifest(users: [entry(2, files: 1)], admin: nil)
        for m in [\Manifest.ledgerSha256] { a[keyPath: m] = ""; b[keyPath: m] = "" }
        a.ledgerPath = "postgres://report@db:5432/wallet"
        b.ledgerPath = "postgres://report@db:5432/wallet_staging"
        XCTAssertThrowsError(try Manifest.merge([a, b])) { error in
            XCTAssertEqual("\(error)", "manifests disagree on ledger_path: 'postgres://report@db:5432/wallet' vs 'postgres://report@db:5432/wallet_staging'")
        }
        b.ledgerPath = a.ledgerPath
        XCTAssertEqual(try Manifest.merge([a, b]).users.map(\.id), [1, 2])
        // A SQLite file mounted at two paths is one ledger when its hash is the same.
        var c = manifest(users: [entry(3, files: 1)], admin: nil), d = manifest(users: [entry(4, files: 1)], admin: nil)
        c.ledgerPath = "/mnt/a/ledger.sqlite"; d.ledgerPath = "/mnt/b/ledger.sqlite"
        XCTAssertEqual(try Manifest.merge([c, d]).users.count, 2)
    }

    /// A merge missing a shard used to succeed: its users were simply absent, and `deliver`,
    /// which reads the merged manifest, sent them nothing without a word.
    func testAMergeMissingAShardIsRefusedUnlessAllowed() throws {
        var s0 = manifest(users: [entry(3, files: 1)], admin: nil), s1 = manifest(users: [entry(4, files: 1)], admin: nil)
        var s2 = manifest(users: [entry(5, files: 1)], admin: nil)
        s0.shard = "0/3"; s1.shard = "1/3"; s2.shard = "2/3"
        XCTAssertThrowsError(try Manifest.merge([s0, s2])) { error in
            XCTAssertEqual(error as? ManifestMergeError, .missingShards(["1/3"]))
            XCTAssertTrue("\(error)".hasPrefix("no manifest for shard 1/3: their users would be missing"), "\(error)")
        }
        XCTAssertThrowsError(try Manifest.merge([s1])) { error in
            XCTAssertEqual(error as? ManifestMergeError, .missingShards(["0/3", "2/3"]))
        }
        XCTAssertEqual(try Manifest.merge([s0, s2], allowingMissingShards: true).users.map(\.id), [3, 5])
        let whole = try Manifest.merge([s2, s0, s1])
        XCTAssertEqual(whole.users.map(\.id), [3, 4, 5])
        XCTAssertNil(whole.shard)
    }

    func testShardsOfDifferentSplitsOrGivenTwiceOrMixedWithAWholeRunDoNotMerge() throws {
        var a = manifest(users: [entry(2, files: 1)], admin: nil), b = manifest(users: [entry(3, files: 1)], admin: nil)
        a.shard = "0/2"; b.shard = "1/3"
        XCTAssertThrowsError(try Manifest.merge([a, b])) { error in
            XCTAssertEqual(error as? ManifestMergeError, .mismatch(field: "shard", first: "0/2", other: "1/3"))
        }
        b.shard = "0/2"
        XCTAssertThrowsError(try Manifest.merge([a, b])) { error in XCTAssertEqual(error as? ManifestMergeError, .duplicateShard("0/2")) }
        b.shard = nil
        XCTAssertThrowsError(try Manifest.merge([a, b])) { error in
            guard case .mismatch(field: "shard", _, _)? = error as? ManifestMergeError else { return XCTFail("\(error)") }
        }
        // Manifests of runs that were not sharded merge as before.
        a.shard = nil
        XCTAssertEqual(try Manifest.merge([a, b]).users.map(\.id), [2, 3])
    }
}
