import EZBatch
import Foundation

/// EZBench: in-process measurements that a whole-process timing cannot split apart.
/// `scripts/bench.sh` runs it; see docs/performance.md.
enum EZBenchUsage {
    static let text = """
    usage: EZBench analytics --db PATH [--period 2026-10] [--as-of 2026-11-01] [--limit N]
           EZBench stages    --db PATH [--period …] [--as-of …] [--user ID | --limit N] [--rounds R] [--scratch DIR (kept)]
           EZBench render    --db PATH [--period …] [--as-of …] [--limit N] [--rounds R] [--dump DIR]
           EZBench png       --db PATH [--user ID] [--rounds R] [--dump DIR]
           EZBench png-sizes --db PATH [--limit N]
           EZBench png-time  --db PATH [--limit N] [--rounds R]
           EZBench digest    --db PATH [--rounds R]
           EZBench snapshot  --db PATH [--rounds R] [--scratch DIR] [--writer rollback|wal]
    """
}

do {
    let args = try Arguments(CommandLine.arguments)
    let db = try args.string("db")
    switch args.mode {
    case "analytics":
        let (period, asOf) = try args.periodAndAsOf()
        let r = try AnalyticsBench.run(db: db, period: period, asOf: asOf, limit: try args.int("limit", default: Int.max))
        print(AnalyticsBench.report(r))
    case "stages":
        let (period, asOf) = try args.periodAndAsOf()
        let user = try args.int("user", default: 0)
        let given = try? args.string("scratch")
        let scratch = given ?? NSTemporaryDirectory() + "ezbench-stages-\(getpid())"
        let (times, count) = try StageBench.run(db: db, period: period, asOf: asOf, userIds: user > 0 ? [Int64(user)] : nil,
                                                limit: try args.int("limit", default: 20), rounds: try args.int("rounds", default: 1),
                                                scratch: scratch, keepScratch: given != nil)
        print("statements: \(count)")
        print(times.table(per: count, unit: "user"))
    case "render":
        let (period, asOf) = try args.periodAndAsOf()
        print(try RenderBench.run(db: db, period: period, asOf: asOf, limit: try args.int("limit", default: 20),
                                  rounds: try args.int("rounds", default: 5), dump: try? args.string("dump")))
    case "png":
        let (period, asOf) = try args.periodAndAsOf()
        print(try PNGBench.run(db: db, period: period, asOf: asOf, userId: Int64(try args.int("user", default: 42)),
                               rounds: try args.int("rounds", default: 3), dump: try? args.string("dump")))
    case "png-sizes":
        let (period, asOf) = try args.periodAndAsOf()
        print(try PNGBench.sizes(db: db, period: period, asOf: asOf, limit: try args.int("limit", default: 50)))
    case "png-time":
        let (period, asOf) = try args.periodAndAsOf()
        print(try PNGBench.time(db: db, period: period, asOf: asOf, limit: try args.int("limit", default: 50),
                                rounds: try args.int("rounds", default: 7)))
    case "digest":
        print(try DigestBench.run(db: db, rounds: try args.int("rounds", default: 3)))
    case "snapshot":
        let scratch = (try? args.string("scratch")) ?? (db as NSString).deletingLastPathComponent
        print(try SnapshotBench.run(db: db, rounds: try args.int("rounds", default: 3), scratch: scratch,
                                    writer: try? args.string("writer")))
    default:
        throw BenchError.usage
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
