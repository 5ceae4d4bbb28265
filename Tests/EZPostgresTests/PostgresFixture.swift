import EZSample
import EZTestSupport
import Foundation
import Synchronization

/// One sample ledger for this target, as a SQLite file and the same rows in a database of the
/// throw-away cluster (filled by `ezreport sample --out postgres://…`, as a user would fill it).
final class PostgresFixture: Sendable {
    let cluster: PostgresCluster
    /// The SQLite file.
    let sqlite: String
    /// The PostgreSQL URL of the same rows (no password: PGPASSWORD is set for this process).
    let url: String
    let folder: String
    /// The package's root folder (scripts/, samples/).
    static var packageRoot: URL { CLI.packageRoot }
    static let sampleArguments = ["--users", "16", "--months", "13", "--end", "2026-09", "--seed", "3"]
    let period = "2026-09"
    let asOf = "2026-10-01"

    private static let made = Mutex<PostgresFixture?>(nil)
    static let root = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-pgtests-\(getpid())").path

    static func shared() throws -> PostgresFixture {
        try made.withLock { made in
            if let made { return made }
            let f = try PostgresFixture()
            made = f
            return f
        }
    }

    private init() throws {
        cluster = try PostgresCluster.shared()
        setenv("PGPASSWORD", cluster.password, 1)
        folder = Self.root
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: PostgresFixture.root) }
        sqlite = folder + "/ledger.sqlite"
        try Self.expect(CLI.run(["sample", "--out", sqlite] + Self.sampleArguments), "sample into SQLite")
        url = try cluster.createDatabase("wallet")
        try Self.expect(CLI.run(["sample", "--out", url] + Self.sampleArguments), "sample into PostgreSQL")
    }

    /// A new empty database of the cluster, with the sample's rows copied when `filled`.
    func database(_ name: String, filled: Bool) throws -> String {
        let url = try cluster.createDatabase(name)
        if filled { try Self.expect(CLI.run(["sample", "--out", url] + Self.sampleArguments), "sample into \(name)") }
        return url
    }

    static func expect(_ outcome: CLI.Outcome, _ what: String) throws {
        guard outcome.status == 0 else {
            throw PostgresCluster.Failure(description: "\(what) exited \(outcome.status): \(outcome.stderr)")
        }
    }
}
