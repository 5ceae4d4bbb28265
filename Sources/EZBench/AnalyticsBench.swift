import EZAnalytics
import EZCore
import EZLedger
import Foundation

/// The analytics over a whole ledger on one core: every live user's statement figures for one
/// period (which include its 12-month trend), with the ledger reads timed apart from the figures.
///
/// "Transactions" counts each user's own ledger rows once (a parent's children and a group's
/// shared expenses are read again for the parent and the other members, but not counted again),
/// so the figure compares with a `GROUP BY` over the `transactions` table.
enum AnalyticsBench {
    struct Result {
        var users = 0
        var transactions = 0
        var loadWall = 0.0, loadCPU = 0.0
        var analyticsWall = 0.0, analyticsCPU = 0.0
        var checksum: Int64 = 0
    }

    static func run(db: String, period: Period, asOf: CivilDate, limit: Int) throws -> Result {
        let ledger = try Ledger(path: db)
        let refs = try ledger.userRefs().filter { !$0.deleted }.prefix(limit)
        let through = max(period.end, asOf)
        var r = Result()
        for ref in refs {
            let w0 = Clock.now(), c0 = Clock.threadCPU()
            let slice = try ledger.loadUser(id: ref.id, through: through)
            let w1 = Clock.now(), c1 = Clock.threadCPU()
            let figures = try StatementAnalytics.statement(for: slice, period: period, asOf: asOf)
            let w2 = Clock.now(), c2 = Clock.threadCPU()
            r.loadWall += w1 - w0; r.loadCPU += c1 - c0
            r.analyticsWall += w2 - w1; r.analyticsCPU += c2 - c1
            r.users += 1
            r.transactions += slice.transactions.count
            r.checksum &+= figures.kpis.expenses &+ Int64(figures.trend.points.count)
        }
        return r
    }

    static func report(_ r: Result) -> String {
        func rate(_ s: Double) -> String { s > 0 ? String(format: "%.2f M tx/s", Double(r.transactions) / s / 1e6) : "-" }
        return """
        users: \(r.users)   transactions (own rows, each once): \(r.transactions)   checksum: \(r.checksum)
        stage                      wall s     cpu s    rate (cpu)
        ledger reads (SQL+checks)  \(String(format: "%7.2f   %7.2f", r.loadWall, r.loadCPU))    \(rate(r.loadCPU))
        analytics (figures+trend)  \(String(format: "%7.2f   %7.2f", r.analyticsWall, r.analyticsCPU))    \(rate(r.analyticsCPU))
        reads + analytics          \(String(format: "%7.2f   %7.2f", r.loadWall + r.analyticsWall, r.loadCPU + r.analyticsCPU))    \(rate(r.loadCPU + r.analyticsCPU))
        """
    }
}
