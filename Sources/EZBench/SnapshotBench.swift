import EZLedger
import Foundation
import GRDB
import Synchronization

/// What one run's snapshot costs (docs/manifest.md, "One snapshot per run"): the online-backup copy
/// and its SHA-256, on the ledger as given, and, with `writer`, on a copy that an app-like writer
/// commits to every 5 ms during the snapshot, to show how long its commits wait (rollback-journal
/// mode) or that they do not (WAL).
enum SnapshotBench {
    static func run(db: String, rounds: Int, scratch: String, writer: String?) throws -> String {
        var lines: [String] = []
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var source = db
        if let mode = writer {
            source = scratch + "/snapshot-bench-ledger.sqlite"
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(source + suffix) }
            try FileManager.default.copyItem(atPath: db, toPath: source)
            if mode == "wal" { try DatabaseQueue(path: source).writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") } }
        }
        defer { if writer != nil { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(source + suffix) } } }
        for round in 1...rounds {
            let app = try writer.map { _ in try AppWriter(path: source) }
            app?.start()
            usleep(200_000)
            let start = Clock.now()
            let snapshot = try LedgerSnapshot.take(of: Ledger(path: source), into: scratch + "/.snapshot-bench.sqlite")
            let total = Clock.now() - start
            usleep(200_000)
            let waits = app?.stop()
            snapshot.release()
            var line = String(format: "round %d: %.1f MB, copy %.2f s, hash %.2f s, total %.2f s",
                              round, Double(snapshot.bytes) / 1e6, snapshot.copySeconds, total - snapshot.copySeconds, total)
            if let waits, let mode = writer {
                line += String(format: "; app (%@): %d commits, longest commit %.0f ms", mode, waits.commits, waits.longest * 1000)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// A writer committing one small row every 5 ms with a 60 s busy timeout, as an app would.
    private final class AppWriter: Sendable {
        let queue: DatabaseQueue
        let state = Mutex<(stop: Bool, commits: Int, longest: Double)>((false, 0, 0))
        let done = Mutex(false)

        init(path: String) throws {
            var config = Configuration()
            config.busyMode = .timeout(60)
            queue = try DatabaseQueue(path: path, configuration: config)
        }

        func start() {
            Thread.detachNewThread { [self] in
                while !state.withLock({ $0.stop }) {
                    let t = Clock.now()
                    try? queue.write { try $0.execute(sql: "INSERT INTO logins (user_id, at) VALUES (1, '2026-10-01T00:00:00Z')") }
                    let elapsed = Clock.now() - t
                    state.withLock { $0.commits += 1; $0.longest = max($0.longest, elapsed) }
                    usleep(5_000)
                }
                done.withLock { $0 = true }
            }
        }

        func stop() -> (commits: Int, longest: Double) {
            state.withLock { $0.stop = true }
            while !done.withLock({ $0 }) { usleep(1_000) }
            return state.withLock { ($0.commits, $0.longest) }
        }
    }
}
