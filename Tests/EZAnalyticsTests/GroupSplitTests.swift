import XCTest
import EZCore
import EZTestSupport
@testable import EZAnalytics

final class GroupSplitTests: XCTestCase {
    /// ann (1, viewer), bob (2), cy (3) in group 1 (EUR).
    func fixture(expenses: [Transaction], splits: [Int64: [Split]] = [:], members: [GroupMember]? = nil,
                 currency: Currency = eur) -> LedgerFixture {
        var f = LedgerFixture()
        let group = Group(id: 1, name: "Flat", ownerId: 1, currency: currency, createdAt: at("2025-01-01"))
        f.ledger.groups = [GroupLedger(group: group, members: members ?? [member(1, "ann"), member(2, "bob"), member(3, "cy")],
                                       expenses: expenses, splits: splits)]
        for e in expenses where e.userId == 1 { f.ledger.transactions.append(e) }
        return f
    }

    func testEqualSplitGivesRemainderCentsToLowestUserIds() throws {
        // 100.00 among three: 33.34 (ann), 33.33, 33.33.
        let f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 10_000, time: "2026-10-05T12:00:00Z", group: 1)])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.expenses, 3_334)
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.share), [3_334, 3_333, 3_333])
        XCTAssertEqual(g.members.map(\.paid), [0, 10_000, 0])
        XCTAssertEqual(g.members.map(\.net), [-3_334, 6_667, -3_333])
        XCTAssertEqual(g.members.reduce(0) { $0 + $1.outstanding }, 0)
    }

    func testAShareOfSomeoneElsesExpenseIsARowCountingTheShare() throws {
        let f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 9_000, time: "2026-10-05T12:00:00Z", group: 1, category: "Fun")])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let row = try XCTUnwrap(s.transactions.first)
        XCTAssertEqual(row.amount, 9_000)
        XCTAssertEqual(row.counted, 3_000)
        XCTAssertEqual(row.category, "Fun")
        XCTAssertEqual(row.group, "Flat")
        XCTAssertEqual(row.paidBy, "bob")
        XCTAssertFalse(row.paidByReader)
        XCTAssertEqual(row.balance, "")
    }

    func testWhatTheViewerPaidCountsOnlyTheirShareAndUnknownCategoriesGoToOthers() throws {
        let f = fixture(expenses: [groupExpense(id: 1, payer: 1, amount: 9_000, time: "2026-10-05T12:00:00Z", group: 1, category: "Bowling")])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.expenses, 3_000)
        XCTAssertEqual(s.transactions.map(\.counted), [3_000])
        XCTAssertEqual(s.transactions.map(\.paidBy), ["ann"])
        XCTAssertEqual(s.transactions.map(\.paidByReader), [true], "the reader's own payment, said as theirs in the PDF")
        XCTAssertEqual(s.categories.rows.map(\.name), ["Others"])
        XCTAssertEqual(s.groups.first?.members.map(\.outstanding), [6_000, -3_000, -3_000])
    }

    func testCategoryNamesMatchCaseSensitively() throws {
        let f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 300, time: "2026-10-05T12:00:00Z", group: 1, category: "groceries")])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.categories.rows.map(\.name), ["Others"])
    }

    func testExplicitSplitsAreUsedAndZeroSharesAreNotListed() throws {
        let f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 1_000, time: "2026-10-05T12:00:00Z", group: 1),
                                   groupExpense(id: 2, payer: 3, amount: 500, time: "2026-10-06T12:00:00Z", group: 1)],
                        splits: [1: [Split(transactionId: 1, userId: 1, shareMinor: 700), Split(transactionId: 1, userId: 2, shareMinor: 300)],
                                 2: [Split(transactionId: 2, userId: 1, shareMinor: 0), Split(transactionId: 2, userId: 3, shareMinor: 500)]])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.expenses, 700)
        XCTAssertEqual(s.transactions.map(\.id), [1])
        XCTAssertEqual(s.groups.first?.members.map(\.outstanding), [-700, 700, 0])
    }

    /// Whether a group expense in another currency is the viewer's row follows the share the
    /// group's books give them (the amount converted whole, then split), as its amount does: a
    /// share above zero only in the expense's own currency listed a row of 0.00 (and counted it),
    /// and a share above zero only in the group's currency was left out of the list and the counts.
    func testAForeignExpenseIsListedByTheShareTheGroupsBooksGive() throws {
        // 0.05 EUR at 40 is ¥2, split 1:2:2 → ¥0, ¥1, ¥1: ann's 0.01 EUR split is no yen at all.
        var none = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 5, time: "2026-10-05T12:00:00Z", group: 1)],
                           splits: [1: [Split(transactionId: 1, userId: 1, shareMinor: 1), Split(transactionId: 1, userId: 2, shareMinor: 2),
                                        Split(transactionId: 1, userId: 3, shareMinor: 2)]], currency: jpy)
        none.rate("EUR", "JPY", "40")
        let s = try StatementAnalytics.statement(for: none.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.groups.first?.members.map(\.share), [0, 1, 1])
        XCTAssertEqual(s.transactions.map(\.id), [], "no share in the group's books: not the viewer's row")
        XCTAssertEqual(s.kpis.transactionCount, 0)

        // 0.02 EUR at 0.25 is 5 fils among bob (2), cy (3) and ann (9): 2, 2, 1. Split in euros
        // first (1, 1, 0 cents) ann had none, yet the group's books give her a fils.
        let kwd = try Currency("KWD")
        var some = LedgerFixture(id: 9, name: "ann")
        let group = Group(id: 1, name: "Trip", ownerId: 2, currency: kwd, createdAt: at("2025-01-01"))
        some.ledger.groups = [GroupLedger(group: group, members: [member(2, "bob"), member(3, "cy"), member(9, "ann")],
                                          expenses: [groupExpense(id: 1, payer: 2, amount: 2, time: "2026-10-05T12:00:00Z", group: 1)],
                                          splits: [:])]
        some.rate("EUR", "KWD", "0.25")
        let t = try StatementAnalytics.statement(for: some.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(t.groups.first?.members.map(\.share), [2, 2, 1])
        XCTAssertEqual(t.transactions.map(\.id), [1], "a share of one fils is a share")
        XCTAssertEqual(t.transactions.map(\.counted), [0], "one fils is 0.004 EUR: it counts 0.00")
        XCTAssertEqual(t.kpis.transactionCount, 1)
        XCTAssertEqual(t.categories.rows.map(\.count), [], "a row that counts nothing is in no category's count")
    }

    /// An own expense that converts to nothing in the report currency (0.001 BHD is 0.00 EUR) is
    /// listed, but is in no category's count: categories.csv counted it where the statistics did not.
    func testARowThatConvertsToNothingIsInNoCategorysCount() throws {
        var f = LedgerFixture()
        f.rate("EUR", "BHD", "0.41")
        f.add(.expense, 1, "2026-10-05T12:00:00Z", category: LedgerFixture.rent, currency: try Currency("BHD"))
        f.add(.expense, 1_000, "2026-10-06T12:00:00Z", category: LedgerFixture.groceries)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.transactions.map(\.counted), [0, 1_000])
        XCTAssertEqual(s.categories.rows.map(\.name), ["Groceries"])
        XCTAssertEqual(s.categories.rows.map(\.count), [1])
        let stats = StatisticsFigures.of(s.transactions, currency: eur)
        XCTAssertEqual(stats.categories.map(\.count), s.categories.rows.map(\.count))
    }

    func testMembersShareOnlyWhileTheyBelongAndKeepTheirBalanceAfterLeaving() throws {
        let members = [member(1, "ann"), member(2, "bob", left: "2026-10-10"), member(3, "cy", joined: "2026-10-10")]
        let f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 1_000, time: "2026-10-05T12:00:00Z", group: 1),
                                   groupExpense(id: 2, payer: 1, amount: 1_000, time: "2026-10-12T12:00:00Z", group: 1)],
                        members: members)
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(s.kpis.expenses, 1_000)   // 500 + 500
        XCTAssertEqual(s.groups.first?.members.map(\.outstanding), [0, 500, -500])
        XCTAssertEqual(s.groups.first?.settlement.transfers, [Settlement(fromUserId: 3, fromUsername: "cy", toUserId: 2, toUsername: "bob", amount: 500)])
    }

    func testForeignExpensesAreConvertedOnceAndSharesStillNetToZero() throws {
        var f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 1_000, time: "2026-10-05T12:00:00Z", group: 1, currency: usd)])
        f.rate("EUR", "USD", "1.3")
        // 10.00 USD = 7.69 EUR in the group; the shares 3.34/3.33/3.33 USD become 2.57/2.56/2.56 EUR.
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.paid), [0, 769, 0])
        XCTAssertEqual(g.members.map(\.share), [257, 256, 256])
        XCTAssertEqual(g.members.reduce(0) { $0 + $1.net }, 0)
        XCTAssertEqual(s.kpis.expenses, 257)      // ann's 3.34 USD converted on its own
    }

    /// The viewer's expense for a group expense in a foreign currency is their share in the
    /// group's books (the expense converted whole, then shared), not their share in the expense's
    /// currency converted on its own: a member whose currency is the group's read one figure in
    /// transactions.csv and another in groups.csv, and the members' expenses did not add up to
    /// the group's total.
    func testAForeignExpenseCountsTheViewersShareAsTheGroupsBooksHaveIt() throws {
        // 10.00 USD at 1.1 = 9.09 EUR, shared 3.03/3.03/3.03; ann's 3.34 USD alone would be 3.04.
        var f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 1_000, time: "2026-10-05T12:00:00Z", group: 1, currency: usd)])
        f.rate("EUR", "USD", "1.1")
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.share), [303, 303, 303])
        XCTAssertEqual(s.transactions.map(\.counted), [303])
        XCTAssertEqual(s.kpis.expenses, g.members[0].share)

        // A viewer in a third currency converts that share from the group's currency.
        var yen = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 1_000, time: "2026-10-05T12:00:00Z", group: 1, currency: usd)])
        yen.ledger.user.currency = jpy
        yen.rate("EUR", "USD", "1.1")
        yen.rate("EUR", "JPY", "160")
        let t = try StatementAnalytics.statement(for: yen.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(t.transactions.map(\.counted), [485], "3.03 EUR at 160 = 484.8 JPY")
    }

    /// An equal split of an expense in another currency splits the converted amount equally: 33.33
    /// EUR at 162.61 is ¥5,420, so ¥2,710 each. (Splitting 16.67 / 16.66 EUR first and sharing the
    /// yen in that proportion gave ¥2,711 and ¥2,709, and a plan of ¥2,711 between two friends who
    /// owed each other the same.)
    func testAnEqualSplitOfAForeignExpenseSplitsTheConvertedAmountEqually() throws {
        var f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 3_333, time: "2026-10-05T12:00:00Z", group: 1, currency: eur)],
                        members: [member(1, "ann"), member(2, "bob")], currency: jpy)
        f.ledger.user.currency = jpy
        f.rate("EUR", "JPY", "162.61")
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.paid), [0, 5_420])
        XCTAssertEqual(g.members.map(\.share), [2_710, 2_710])
        XCTAssertEqual(s.transactions.map(\.counted), [2_710])
        XCTAssertEqual(s.kpis.expenses, 2_710)
        // An odd unit still goes to the lowest user id: ¥5,421 (33.34 EUR at 162.60) is 2,711 + 2,710.
        var odd = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 3_334, time: "2026-10-05T12:00:00Z", group: 1, currency: eur)],
                          members: [member(1, "ann"), member(2, "bob")], currency: jpy)
        odd.ledger.user.currency = jpy
        odd.rate("EUR", "JPY", "162.6")
        let t = try StatementAnalytics.statement(for: odd.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        XCTAssertEqual(try XCTUnwrap(t.groups.first).members.map(\.share), [2_711, 2_710])
    }

    func testOutstandingRunsFromTheGroupsStartToThePeriodsEnd() throws {
        let f = fixture(expenses: [groupExpense(id: 1, payer: 2, amount: 300, time: "2026-08-05T12:00:00Z", group: 1),
                                   groupExpense(id: 2, payer: 3, amount: 600, time: "2026-10-05T12:00:00Z", group: 1),
                                   groupExpense(id: 3, payer: 1, amount: 900, time: "2026-11-05T12:00:00Z", group: 1)])
        let s = try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.net), [-200, -200, 400])
        XCTAssertEqual(g.members.map(\.outstanding), [-300, 0, 300])
    }

    func testRandomGroupsNetToExactlyZero() throws {
        var rng = SplitMix(seed: 7)
        for round in 0..<50 {
            let n = Int(rng.next() % 6) + 2
            var expenses: [Transaction] = []
            for k in 0..<20 {
                expenses.append(groupExpense(id: Int64(k + 1), payer: Int64(rng.next() % UInt64(n)) + 1,
                                             amount: Int64(rng.next() % 100_000) + 1, time: "2026-10-0\(k % 9 + 1)T12:00:00Z",
                                             group: 1, currency: k % 3 == 0 ? usd : eur))
            }
            var f = fixture(expenses: expenses, members: (1...n).map { member(Int64($0), "u\($0)") })
            f.rate("EUR", "USD", "1.0873")
            let g = try XCTUnwrap(try StatementAnalytics.statement(for: f.ledger, period: month("2026-10"), asOf: day("2026-11-01")).groups.first)
            XCTAssertEqual(g.members.reduce(0) { $0 + $1.net }, 0, "round \(round)")
            XCTAssertEqual(g.members.reduce(0) { $0 + $1.outstanding }, 0, "round \(round)")
            XCTAssertEqual(g.members.reduce(0) { $0 + $1.paid }, g.members.reduce(0) { $0 + $1.share }, "round \(round)")
        }
    }
}

/// A group's section shows what its reader may see: the others' figures and the plan between them
/// only to someone who was a member during the period.
final class GroupVisibilityTests: XCTestCase {
    private func statement(ann: GroupMember, period: String = "2026-10") throws -> StatementFigures {
        var f = LedgerFixture()
        let group = Group(id: 1, name: "Book club", ownerId: 2, currency: eur, createdAt: at("2025-01-01"))
        let expenses = [groupExpense(id: 1, payer: 2, amount: 9_000, time: "2025-03-05T12:00:00Z", group: 1),
                        groupExpense(id: 2, payer: 3, amount: 6_000, time: "2026-10-05T12:00:00Z", group: 1)]
        f.ledger.groups = [GroupLedger(group: group, members: [ann, member(2, "bob"), member(3, "cy")], expenses: expenses, splits: [:])]
        return try StatementAnalytics.statement(for: f.ledger, period: month(period), asOf: day("2026-11-01"))
    }

    func testAMemberDuringThePeriodSeesTheWholeGroup() throws {
        let s = try statement(ann: member(1, "ann", left: "2026-10-20"))
        XCTAssertEqual(s.groups.first?.members.map(\.username), ["ann", "bob", "cy"])
    }

    /// ann left in 2025 owing bob her share of March's 90.00: she sees her own balance and what
    /// she owes, not bob's and cy's October, nor the plan between them.
    func testSomeoneWhoLeftBeforeThePeriodSeesOnlyTheirOwnLineWhileTheyOweSomething() throws {
        let s = try statement(ann: member(1, "ann", left: "2025-07-07"))
        let g = try XCTUnwrap(s.groups.first)
        XCTAssertEqual(g.members.map(\.username), ["ann"])
        XCTAssertEqual(g.members.first?.outstanding, -3_000)
        XCTAssertTrue(g.settlement.transfers.allSatisfy { $0.fromUserId == 1 || $0.toUserId == 1 }, "\(g.settlement.transfers)")
        XCTAssertFalse(g.settlement.transfers.isEmpty)
    }

    func testSomeoneWhoJoinedAfterThePeriodDoesNotSeeTheGroup() throws {
        let s = try statement(ann: member(1, "ann", joined: "2026-12-30"))
        XCTAssertTrue(s.groups.isEmpty, "\(s.groups)")
    }
}
