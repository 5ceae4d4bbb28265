import XCTest
import EZCore
@testable import EZAnalytics

/// Settle-up payments (`group_payments`): neither income nor expense, they move both members'
/// outstanding balances, are listed in the period they fall in, shrink the settlement plan, and
/// move the balances they name.
final class GroupPaymentTests: XCTestCase {
    /// ann (1, viewer), bob (2), cy (3) in group 1: bob paid 90.00 on 5 Sep, shared equally.
    func fixture(payments: [GroupPayment], currency: Currency = eur) -> LedgerFixture {
        var f = LedgerFixture()
        let group = Group(id: 1, name: "Flat", ownerId: 1, currency: currency, createdAt: at("2025-01-01"))
        f.ledger.groups = [GroupLedger(group: group, members: [member(1, "ann"), member(2, "bob"), member(3, "cy")],
                                       expenses: [groupExpense(id: 1, payer: 2, amount: 9_000, time: "2026-09-05T12:00:00Z", group: 1,
                                                               currency: currency)],
                                       splits: [:], payments: payments)]
        return f
    }

    func payment(_ id: Int64, from: Int64, to: Int64, _ amount: Int64, _ time: String, currency: Currency = eur,
                 fromBalance: Int64? = nil, toBalance: Int64? = nil) -> GroupPayment {
        let t = at(time)
        return GroupPayment(id: id, groupId: 1, fromUserId: from, toUserId: to, fromBalanceId: fromBalance, toBalanceId: toBalance,
                            amountMinor: amount, currency: currency, occurredAt: t, payerDate: t.localDate(in: rome), createdAt: t)
    }

    func testAPaymentMovesBothOutstandingBalancesAndIsNeitherIncomeNorExpense() throws {
        let f = fixture(payments: [payment(50, from: 1, to: 2, 3_000, "2026-10-04T09:00:00Z")])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual([s.kpis.income, s.kpis.expenses], [0, 0], "paying back is not spending")
        XCTAssertTrue(s.transactions.isEmpty)
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.outstanding), [0, 3_000, -3_000], "ann is square, bob is owed what cy owes")
        XCTAssertEqual(g.members.map(\.settled), [3_000, -3_000, 0])
        XCTAssertEqual(g.members.map(\.net), [0, 0, 0], "net is the period's expenses only")
        XCTAssertEqual(g.payments, [GroupPaymentLine(paymentId: 50, date: day("2026-10-04"), fromUserId: 1, fromUsername: "ann",
                                                     toUserId: 2, toUsername: "bob", amount: 3_000)])
        XCTAssertEqual(g.settlement.transfers.map { [$0.fromUserId, $0.toUserId, $0.amount] }, [[3, 2, 3_000]],
                       "the plan is only what is still owed")
    }

    func testPaymentsOutsideThePeriodCountInOutstandingButAreNotListed() throws {
        let f = fixture(payments: [payment(50, from: 1, to: 2, 3_000, "2026-09-20T09:00:00Z"),
                                   payment(51, from: 3, to: 2, 3_000, "2026-11-02T09:00:00Z")])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-05"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.outstanding), [0, 3_000, -3_000], "September's payment counts, November's not yet")
        XCTAssertEqual(g.members.map(\.settled), [0, 0, 0])
        XCTAssertTrue(g.payments.isEmpty)
    }

    func testEveryoneSquareAfterPayingBack() throws {
        let f = fixture(payments: [payment(50, from: 1, to: 2, 3_000, "2026-10-04T09:00:00Z"),
                                   payment(51, from: 3, to: 2, 3_000, "2026-10-06T09:00:00Z")])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.outstanding), [0, 0, 0])
        XCTAssertTrue(g.settlement.transfers.isEmpty)
        XCTAssertEqual(g.payments.map(\.paymentId), [50, 51])
        XCTAssertEqual(g.members.reduce(0) { $0 + $1.settled }, 0)
    }

    func testAPaymentInAnotherCurrencyIsConvertedOnThePayersDate() throws {
        var f = fixture(payments: [payment(50, from: 1, to: 2, 2_160, "2026-10-04T09:00:00Z", currency: usd)])
        f.rate("EUR", "USD", "1.08")
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.payments.first?.amount, 2_000)
        XCTAssertEqual(g.members.map(\.outstanding), [-1_000, 4_000, -3_000])
    }

    func testANamedBalanceMovesByThePaymentAndOnlyThen() throws {
        let wallet = LedgerFixture().balance(LedgerFixture.wallet)
        var without = fixture(payments: [])
        without.add(.income, 10_000, "2026-09-01T09:00:00Z")
        var with = fixture(payments: [payment(50, from: 1, to: 2, 3_000, "2026-10-04T09:00:00Z", fromBalance: wallet),
                                      payment(51, from: 2, to: 1, 500, "2026-10-05T09:00:00Z", toBalance: wallet)])
        with.add(.income, 10_000, "2026-09-01T09:00:00Z")
        let before = try StatementAnalytics.statement(for: without.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let after = try StatementAnalytics.statement(for: with.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let a = try XCTUnwrap(before.balances.first { $0.balanceId == wallet }), b = try XCTUnwrap(after.balances.first { $0.balanceId == wallet })
        XCTAssertEqual(b.values.last! - a.values.last!, -3_000 + 500)
        XCTAssertEqual(Array(b.values.dropLast()), Array(a.values.dropLast()), "earlier months are untouched")
        XCTAssertEqual(after.kpis.income, before.kpis.income)
    }
}
