import EZCore
import EZTestSupport
import GRDB
import XCTest
@testable import EZLedger

/// `group_payments`, an optional table of the contract: a valid payment reaches every member's
/// slice; each rule it can break quarantines it with its reason, in the slices and in `check`
/// alike; a ledger without the table reads as before.
final class GroupPaymentRulesTests: XCTestCase {
    let october = CivilDate(year: 2026, month: 10, day: 31)

    /// Ann and Bob in a group, Cy outside it; `build` adds one payment and returns its id.
    private func payment(_ build: (TestLedger, _ group: Int64, _ ann: Int64, _ bob: Int64, _ cy: Int64) throws -> Int64)
        throws -> (row: QuarantinedRow?, slice: UserLedger, id: Int64) {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob"), cy = try ledger.user("cy")
        let group = try ledger.group("Flat", owner: ann, members: [ann, bob])
        try ledger.groupPayment(group, from: bob, to: ann, 1_000, on: "2026-10-01T10:00:00Z")   // one good payment
        let id = try build(ledger, group, ann, bob, cy)
        let opened = try Ledger(path: ledger.path)
        let health = try opened.health()
        let slice = try opened.loadUser(id: ann, through: october)
        XCTAssertEqual(slice.groups.first?.payments.contains { $0.amountMinor == 1_000 }, true, "the good payment was lost")
        XCTAssertFalse(slice.groups.first?.payments.contains { $0.id == id } ?? false, "a quarantined payment reached the slice")
        XCTAssertEqual(Set(slice.quarantined.filter { $0.table == "group_payments" }),
                       Set(health.quarantined.filter { $0.table == "group_payments" && $0.id == id }),
                       "the report and check quarantine the same rows")
        return (health.quarantined.first { $0.table == "group_payments" && $0.id == id }, slice, id)
    }

    func testAValidPaymentReachesBothMembersWithItsBalances() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        let group = try ledger.group("Flat", owner: ann, members: [ann, bob])
        let id = try ledger.groupPayment(group, from: bob, to: ann, 2_500, on: "2026-10-03T10:00:00+02:00",
                                         fromBalance: ledger.defaultBalance(bob), toBalance: ledger.defaultBalance(ann))
        let opened = try Ledger(path: ledger.path)
        XCTAssertTrue(opened.features.groupPayments)
        XCTAssertTrue(try opened.health().isClean)
        for user in [ann, bob] {
            let p = try XCTUnwrap(try opened.loadUser(id: user, through: october).groups.first?.payments.first)
            XCTAssertEqual([p.id, p.fromUserId, p.toUserId, p.amountMinor], [id, bob, ann, 2_500])
            XCTAssertEqual(p.fromBalanceId, ledger.defaultBalance(bob))
            XCTAssertEqual(p.toBalanceId, ledger.defaultBalance(ann))
            XCTAssertEqual(p.payerDate, CivilDate(year: 2026, month: 10, day: 3))
        }
    }

    func testAPaymentToOneselfIsQuarantined() throws {
        let (row, _, _) = try payment { l, g, ann, _, _ in try l.groupPayment(g, from: ann, to: ann, 500, on: "2026-10-02") }
        XCTAssertEqual(row?.reason.hasPrefix("a payment from user"), true, row?.reason ?? "not quarantined")
        XCTAssertEqual(row?.reason.hasSuffix("to themselves"), true)
    }

    func testAPaymentFromOrToANonMemberIsQuarantined() throws {
        let (from, _, _) = try payment { l, g, ann, _, cy in try l.groupPayment(g, from: cy, to: ann, 500, on: "2026-10-02") }
        XCTAssertEqual(from?.reason.hasPrefix("from_user_id "), true, from?.reason ?? "not quarantined")
        XCTAssertEqual(from?.reason.contains("is not a member of group"), true)
        let (to, _, _) = try payment { l, g, ann, _, cy in try l.groupPayment(g, from: ann, to: cy, 500, on: "2026-10-02") }
        XCTAssertEqual(to?.reason.hasPrefix("to_user_id "), true, to?.reason ?? "not quarantined")
    }

    func testANonPositiveOrFractionalAmountIsQuarantined() throws {
        let (zero, _, _) = try payment { l, g, ann, bob, _ in try l.groupPayment(g, from: bob, to: ann, 0, on: "2026-10-02") }
        XCTAssertEqual(zero?.reason, "amount_minor must be a positive integer (got 0)")
        let (negative, _, _) = try payment { l, g, ann, bob, _ in try l.groupPayment(g, from: bob, to: ann, -5, on: "2026-10-02") }
        XCTAssertEqual(negative?.reason, "amount_minor must be a positive integer (got -5)")
        let (fraction, _, _) = try payment { l, g, ann, bob, _ in
            let id = try l.groupPayment(g, from: bob, to: ann, 100, on: "2026-10-02")
            try l.execute("UPDATE group_payments SET amount_minor = 12.5 WHERE id = ?", [id])
            return id
        }
        XCTAssertEqual(fraction?.reason, "amount_minor must be a positive integer (got 12.5)")
    }

    func testABadCurrencyOrAMissingRateIsQuarantined() throws {
        let (bad, _, _) = try payment { l, g, ann, bob, _ in try l.groupPayment(g, from: bob, to: ann, 100, on: "2026-10-02", currency: "EURO") }
        XCTAssertEqual(bad?.reason, "invalid currency 'EURO'")
        let (rate, _, _) = try payment { l, g, ann, bob, _ in try l.groupPayment(g, from: bob, to: ann, 100, on: "2026-10-02", currency: "USD") }
        XCTAssertEqual(rate?.reason, "no exchange rate USD→EUR on or before 2026-10-02")
    }

    func testAnUnknownOrSomeoneElsesBalanceIsQuarantined() throws {
        let (unknown, _, _) = try payment { l, g, ann, bob, _ in
            try l.groupPayment(g, from: bob, to: ann, 100, on: "2026-10-02", fromBalance: 987_654)
        }
        XCTAssertEqual(unknown?.reason.hasPrefix("from_balance_id 987654 is not one of user"), true, unknown?.reason ?? "not quarantined")
        let (theirs, _, _) = try payment { l, g, ann, bob, _ in
            try l.groupPayment(g, from: bob, to: ann, 100, on: "2026-10-02", toBalance: l.defaultBalance(bob))
        }
        XCTAssertEqual(theirs?.reason.hasPrefix("to_balance_id "), true, theirs?.reason ?? "not quarantined")
    }

    func testBadTimestampsAreQuarantined() throws {
        let (occurred, _, _) = try payment { l, g, ann, bob, _ in try l.groupPayment(g, from: bob, to: ann, 100, on: "yesterday") }
        XCTAssertEqual(occurred?.reason, "occurred_at 'yesterday' is not an ISO-8601 timestamp")
        let (created, _, _) = try payment { l, g, ann, bob, _ in
            try l.groupPayment(g, from: bob, to: ann, 100, on: "2026-10-02", createdAt: "2026-13-01")
        }
        XCTAssertEqual(created?.reason, "created_at '2026-13-01' is not an ISO-8601 timestamp")
    }

    func testAPaymentOfAGroupThatDoesNotExistIsFoundByCheck() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        let id = try ledger.groupPayment(424_242, from: bob, to: ann, 100, on: "2026-10-02")
        let health = try Ledger(path: ledger.path).health()
        XCTAssertEqual(health.quarantined, [QuarantinedRow(table: "group_payments", id: id, reason: "group_id 424242 does not exist")])
        XCTAssertTrue(health.rowCounts.contains { $0.table == "group_payments" && $0.rows == 1 })
    }

    /// A quarantined group's expenses were listed with it, but its settle-up payments were left
    /// out of the members' balances without a word (outside audit): they are listed with it too,
    /// in the members' reports and in `check` alike.
    func testThePaymentsOfAQuarantinedGroupAreListedWithIt() throws {
        let ledger = try TestLedger()
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        let group = try ledger.group("Flat", owner: ann, members: [ann, bob])
        let paid = try ledger.groupPayment(group, from: bob, to: ann, 1_000, on: "2026-10-01T10:00:00Z")
        try ledger.execute("UPDATE groups SET currency = 'EURO' WHERE id = ?", [group])
        let opened = try Ledger(path: ledger.path)
        let expected = QuarantinedRow(table: "group_payments", id: paid, reason: "its group \(group) breaks the contract: invalid currency 'EURO'")
        let health = try opened.health()
        XCTAssertTrue(health.quarantined.contains(expected), "\(health.quarantined)")
        for member in [ann, bob] {
            let slice = try opened.loadUser(id: member, through: october)
            XCTAssertTrue(slice.groups.isEmpty)
            XCTAssertTrue(slice.quarantined.contains(expected), "\(slice.quarantined)")
        }
    }

    func testSoftDeletedPaymentsAndPaymentsOfADeletedGroupAreIgnored() throws {
        let (row, slice, id) = try payment { l, g, ann, bob, _ in
            let id = try l.groupPayment(g, from: bob, to: ann, 0, on: "2026-10-02")
            try l.execute("UPDATE group_payments SET deleted_at = '2026-10-03' WHERE id = ?", [id])
            return id
        }
        XCTAssertNil(row, "a soft-deleted row is ignored, not quarantined")
        XCTAssertFalse(slice.groups.first!.payments.contains { $0.id == id })
    }

    func testALedgerWithoutTheTableReadsAsBefore() throws {
        let schema = try String(contentsOf: TestLedger.schemaURL, encoding: .utf8)
        let start = try XCTUnwrap(schema.range(of: "CREATE TABLE group_payments ("))
        let end = try XCTUnwrap(schema.range(of: ");\n\n", range: start.upperBound..<schema.endIndex))
        var trimmed = schema.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
        trimmed = trimmed.replacingOccurrences(of: "CREATE INDEX group_payments_by_group_time ON group_payments(group_id, occurred_at);\n", with: "")
        XCTAssertFalse(trimmed.contains("group_payments"))
        let ledger = try TestLedger(schema: trimmed)
        let ann = try ledger.user("ann"), bob = try ledger.user("bob")
        try ledger.group("Flat", owner: ann, members: [ann, bob])
        let opened = try Ledger(path: ledger.path)
        XCTAssertFalse(opened.features.groupPayments)
        XCTAssertEqual(try opened.loadUser(id: ann, through: october).groups.first?.payments.count, 0)
        XCTAssertTrue(try opened.health().isClean)
    }

    func testATableMissingAColumnIsASchemaMismatch() throws {
        let ledger = try TestLedger()
        try ledger.execute("DROP TABLE group_payments")
        try ledger.execute("CREATE TABLE group_payments (id INTEGER PRIMARY KEY, group_id INTEGER)")
        XCTAssertThrowsError(try Ledger(path: ledger.path)) { error in
            XCTAssertTrue("\(error)".contains("table 'group_payments' lacks columns"), "\(error)")
        }
    }
}
