import XCTest
import EZCore
import EZTestSupport
@testable import EZAnalytics

final class SettlementPlannerTests: XCTestCase {
    func balances(_ nets: [Int64]) -> [(userId: Int64, username: String, net: Int64)] {
        nets.enumerated().map { (Int64($0 + 1), "u\($0 + 1)", $1) }
    }

    /// Applies `plan` to `nets` and returns what is left.
    func settle(_ nets: [Int64], _ plan: SettlementPlan) -> [Int64] {
        var left = nets
        for t in plan.transfers {
            XCTAssertGreaterThan(t.amount, 0)
            left[Int(t.fromUserId) - 1] += t.amount
            left[Int(t.toUserId) - 1] -= t.amount
        }
        return left
    }

    func testAHandComputedPlan() {
        let plan = SettlementPlanner.plan(balances: balances([30, -10, -20]))
        XCTAssertEqual(plan.method, .exact)
        XCTAssertEqual(plan.transfers.map { [$0.fromUserId, $0.toUserId, $0.amount] }, [[3, 1, 20], [2, 1, 10]])
        XCTAssertEqual(plan.transfers.first?.fromUsername, "u3")
    }

    func testExactPlanFindsPairsThatGreedyMisses() {
        // Greedy pays 9→… in 4 transfers; the exact plan sees {+5,-5} and {+4,+3,-7}: 3 transfers.
        let nets: [Int64] = [5, 4, 3, -5, -7]
        let plan = SettlementPlanner.plan(balances: balances(nets))
        XCTAssertEqual(plan.transfers.count, 3)
        XCTAssertEqual(SettlementPlanner.greedyPlan(nets: nets).count, 4)
        XCTAssertEqual(settle(nets, plan), [0, 0, 0, 0, 0])
    }

    func testSettledGroupNeedsNoTransfers() {
        XCTAssertEqual(SettlementPlanner.plan(balances: balances([0, 0])).transfers, [])
        XCTAssertEqual(SettlementPlanner.plan(balances: []).transfers, [])
    }

    func testRandomPlansSettleEveryoneWithAtMostNMinusOneTransfersAndNeverMoreThanGreedy() {
        var rng = SplitMix(seed: 42)
        for round in 0..<300 {
            let nets = randomNets(&rng, count: Int(rng.next() % 9) + 2, zeroSumPairs: round % 3 == 0)
            let plan = SettlementPlanner.plan(balances: balances(nets))
            let nonZero = nets.filter { $0 != 0 }.count
            XCTAssertEqual(plan.method, .exact)
            XCTAssertEqual(settle(nets, plan), [Int64](repeating: 0, count: nets.count), "\(nets)")
            XCTAssertLessThanOrEqual(plan.transfers.count, max(0, nonZero - 1), "\(nets)")
            XCTAssertLessThanOrEqual(plan.transfers.count, SettlementPlanner.greedyPlan(nets: nets).count, "\(nets)")
        }
    }

    func testPayingThePlanInOrderLeavesTheRestOfThePlanUnchanged() {
        var rng = SplitMix(seed: 9)
        for count in [3, 5, 8, 12, 15, 18] {
            let nets = randomNets(&rng, count: count, zeroSumPairs: true)
            let plan = SettlementPlanner.plan(balances: balances(nets))
            var current = nets
            for (k, t) in plan.transfers.enumerated() {
                current[Int(t.fromUserId) - 1] += t.amount
                current[Int(t.toUserId) - 1] -= t.amount
                let again = SettlementPlanner.plan(balances: balances(current))
                XCTAssertEqual(again.transfers, Array(plan.transfers[(k + 1)...]), "\(nets) after \(k + 1) payments")
            }
        }
    }

    func testTheSameBalancesInAnotherOrderGiveTheSamePlan() {
        let b = balances([12, -7, 3, -8, 0, 5, -5])
        XCTAssertEqual(SettlementPlanner.plan(balances: b), SettlementPlanner.plan(balances: b.reversed()))
    }

    func testMoreThanFifteenNonZeroMembersAreMarkedGreedyAndStillSettled() {
        var rng = SplitMix(seed: 3)
        let nets = randomNets(&rng, count: 20, zeroSumPairs: false)
        let plan = SettlementPlanner.plan(balances: balances(nets))
        XCTAssertEqual(plan.method, .greedy)
        XCTAssertEqual(settle(nets, plan), [Int64](repeating: 0, count: 20))
        XCTAssertLessThanOrEqual(plan.transfers.count, 19)
    }

    func testFifteenNonZeroMembersArePlannedExactly() {
        var rng = SplitMix(seed: 5)
        let nets = randomNets(&rng, count: 15, zeroSumPairs: true)
        XCTAssertEqual(nets.filter { $0 != 0 }.count, 15)
        let plan = SettlementPlanner.plan(balances: balances(nets))
        XCTAssertEqual(plan.method, .exact)
        XCTAssertLessThanOrEqual(plan.transfers.count, SettlementPlanner.greedyPlan(nets: nets).count)
    }

    /// Non-zero nets summing to zero; with `zeroSumPairs`, some come as ±x pairs so exact can beat greedy.
    func randomNets(_ rng: inout SplitMix, count: Int, zeroSumPairs: Bool) -> [Int64] {
        var nets: [Int64] = []
        while nets.count < count - 1 {
            let v = Int64(rng.next() % 2_000) + 1
            if zeroSumPairs, nets.count + 2 < count, rng.next() % 2 == 0 { nets += [v, -v]; continue }
            nets.append(rng.next() % 2 == 0 ? v : -v)
        }
        var last = -nets.reduce(0, +)
        if last == 0 { nets[0] += 1; last = -1 }
        nets.append(last)
        return nets
    }
}
