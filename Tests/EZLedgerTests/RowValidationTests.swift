import EZCore
import EZTestSupport
import XCTest
@testable import EZLedger

/// Every kind of row that breaks the contract is quarantined with its reason, left out of the
/// user's slice, and found by `check`.
final class RowValidationTests: XCTestCase {
    let october = CivilDate(year: 2026, month: 10, day: 31)

    private func quarantined(_ build: (TestLedger, Int64) throws -> Int64) throws -> (QuarantinedRow?, LedgerHealth, UserLedger) {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.expense(alice, 500, on: "2026-10-01")   // one good row
        let badId = try build(ledger, alice)
        let opened = try Ledger(path: ledger.path)
        let health = try opened.health()
        let slice = try opened.loadUser(id: alice, through: october)
        XCTAssertFalse(slice.transactions.contains { $0.id == badId }, "a quarantined row reached the user's slice")
        XCTAssertTrue(slice.transactions.contains { $0.amountMinor == 500 }, "the good row was lost")
        XCTAssertEqual(slice.quarantined.map(\.id), health.quarantined.filter { $0.table == "transactions" }.map(\.id))
        return (health.quarantined.first { $0.id == badId }, health, slice)
    }

    func testUnknownKindIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in try l.transaction(u, kind: "refund", 100, on: "2026-10-02") }
        XCTAssertEqual(row?.reason, "unknown kind 'refund'")
    }

    func testNonPositiveAmountIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in try l.transaction(u, kind: "expense", 0, on: "2026-10-02") }
        XCTAssertEqual(row?.reason, "amount_minor must be a positive integer (got 0)")
    }

    func testFractionalAmountIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in
            let id = try l.expense(u, 100, on: "2026-10-02")
            try l.execute("UPDATE transactions SET amount_minor = 12.5 WHERE id = ?", [id])
            return id
        }
        XCTAssertEqual(row?.reason, "amount_minor must be a positive integer (got 12.5)")
    }

    func testUnparseableTimestampIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in try l.expense(u, 100, on: "last tuesday") }
        XCTAssertEqual(row?.reason, "occurred_at 'last tuesday' is not an ISO-8601 timestamp")
    }

    func testImpossibleDateIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in try l.expense(u, 100, on: "2026-02-30T10:00:00Z") }
        XCTAssertEqual(row?.reason, "occurred_at '2026-02-30T10:00:00Z' is not an ISO-8601 timestamp")
    }

    func testCurrencyWithNoRateIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in try l.expense(u, 100, on: "2026-10-02", currency: "USD") }
        XCTAssertEqual(row?.reason, "no exchange rate USD→EUR on or before 2026-10-02")
    }

    /// The contract's currency is an ISO 4217 code: any three capital letters used to pass
    /// (`XXQ` counted with two decimals), and ISO's test code and gold quarantined nothing.
    func testACodeThatIsNotISO4217MoneyIsQuarantined() throws {
        for code in ["XXQ", "ABC", "XTS", "XAU"] {
            let (row, _, _) = try quarantined { l, u in
                try l.rate("2026-09-01", code, "EUR", 1.5)
                return try l.expense(u, 100, on: "2026-10-02", currency: code)
            }
            XCTAssertEqual(row?.reason, "invalid currency '\(code)'", code)
        }
        XCTAssertTrue(ISO4217.isMoney("CLF") && ISO4217.isMoney("XOF") && ISO4217.isMoney("VES"))
        XCTAssertEqual(try Currency("CLF").exponent, 4, "ISO 4217 counts the UF to four decimals")
    }

    func testRateAfterTheDateDoesNotCount() throws {
        let (row, _, _) = try quarantined { l, u in
            try l.rate("2026-10-05", "EUR", "USD", 1.08)
            return try l.expense(u, 100, on: "2026-10-02", currency: "USD")
        }
        XCTAssertEqual(row?.reason, "no exchange rate USD→EUR on or before 2026-10-02")
    }

    func testDanglingCategoryIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in try l.expense(u, 100, on: "2026-10-02", category: 424242) }
        XCTAssertEqual(row?.reason, "category_id 424242 does not exist")
    }

    func testAnotherUsersCategoryIsQuarantined() throws {
        let (row, _, _) = try quarantined { l, u in
            let bob = try l.user("bob")
            let bobs = try l.category(bob, "Food")
            return try l.expense(u, 100, on: "2026-10-02", category: bobs)
        }
        XCTAssertEqual(row?.reason.hasSuffix("belongs to another user"), true)
    }

    func testSplitsThatDoNotAddUpAreQuarantined() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob")
        let trip = try ledger.group("Trip", owner: alice, members: [alice, bob])
        let good = try ledger.expense(alice, 1000, on: "2026-10-02", group: trip)
        try ledger.splits(good, [(alice, 400), (bob, 600)])
        let bad = try ledger.expense(alice, 1000, on: "2026-10-03", group: trip)
        try ledger.splits(bad, [(alice, 400), (bob, 500)])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: bob, through: october)
        XCTAssertEqual(slice.groups.first?.expenses.map(\.id), [good])
        XCTAssertEqual(slice.groups.first?.splits[good]?.map(\.shareMinor), [400, 600])
        XCTAssertEqual(slice.quarantined, [QuarantinedRow(table: "transactions", id: bad, reason: "splits add up to 900, not the amount 1000")])
        XCTAssertEqual(try opened.health().quarantined.map(\.id), [bad])
    }

    /// A split giving a share to someone who never was in the group showed as their debt in the
    /// group's figures, while their own statement (which reads the groups they are in) never
    /// saw it (outside audit). The expense is quarantined; a former member's share still counts,
    /// and a zero share to an outsider gives them nothing, so it changes nothing.
    func testASplitGivingAShareToSomeoneOutsideTheGroupIsQuarantined() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice"), bob = try ledger.user("bob"), xavier = try ledger.user("xavier")
        let carol = try ledger.user("carol")
        let trip = try ledger.group("Trip", owner: alice, members: [alice, bob])
        try ledger.execute("INSERT INTO group_members (group_id, user_id, joined_at, left_at) VALUES (?, ?, '2024-01-01', '2026-09-01')", [trip, carol])
        let outsider = try ledger.expense(alice, 1000, on: "2026-10-02", group: trip)
        try ledger.splits(outsider, [(alice, 400), (xavier, 600)])
        let former = try ledger.expense(alice, 1000, on: "2026-10-03", group: trip)
        try ledger.splits(former, [(alice, 400), (carol, 600)])
        let zero = try ledger.expense(alice, 1000, on: "2026-10-04", group: trip)
        try ledger.splits(zero, [(alice, 400), (bob, 600), (xavier, 0)])
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: october)
        XCTAssertEqual(slice.groups.first?.expenses.map(\.id), [former, zero])
        let reason = "a split gives user \(xavier) a share of group \(trip), which they are not a member of"
        XCTAssertEqual(slice.quarantined, [QuarantinedRow(table: "transactions", id: outsider, reason: reason)])
        XCTAssertEqual(try opened.health().quarantined, [QuarantinedRow(table: "transactions", id: outsider, reason: reason)])
        XCTAssertTrue(try opened.loadUser(id: xavier, through: october).groups.isEmpty)
    }

    /// A group whose currency breaks the contract was quarantined alone: its expenses vanished
    /// from the payer's and the members' figures with nothing to say so. They are now quarantined
    /// with it, naming the group, in the reports' lists and in `check`'s.
    func testTheExpensesOfAQuarantinedGroupAreQuarantinedWithIt() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob")
        let trip = try ledger.group("Trip", owner: alice, members: [alice, bob], currency: "euro")
        let dinner = try ledger.expense(alice, 1000, on: "2026-10-02", group: trip)
        let opened = try Ledger(path: ledger.path)
        let reason = "its group \(trip) breaks the contract: invalid currency 'euro'"
        for viewer in [alice, bob] {
            let slice = try opened.loadUser(id: viewer, through: october)
            XCTAssertTrue(slice.groups.isEmpty)
            XCTAssertEqual(slice.quarantined, [QuarantinedRow(table: "groups", id: trip, reason: "invalid currency 'euro'"),
                                               QuarantinedRow(table: "transactions", id: dinner, reason: reason)].sorted())
        }
        XCTAssertTrue(try opened.health().quarantined.contains(QuarantinedRow(table: "transactions", id: dinner, reason: reason)))
    }

    func testUnknownTimeZoneQuarantinesTheUser() throws {
        let ledger = try TestLedger()
        let mars = try ledger.user("marvin", timezone: "Mars/Olympus_Mons")
        try ledger.expense(mars, 100, on: "2026-10-02")
        let opened = try Ledger(path: ledger.path)
        let health = try opened.health()
        XCTAssertEqual(health.quarantined, [QuarantinedRow(table: "users", id: mars, reason: "unknown time zone 'Mars/Olympus_Mons'")])
        XCTAssertThrowsError(try opened.loadUser(id: mars, through: october))
    }

    func testTransactionOfNonexistentUserIsFoundByCheck() throws {
        let ledger = try TestLedger()
        try ledger.user("alice")
        try ledger.execute("PRAGMA foreign_keys = OFF")
        try ledger.execute("INSERT INTO transactions (id, user_id, kind, amount_minor, currency, occurred_at, created_at) VALUES (77, 999999, 'expense', 5, 'EUR', '2026-10-01', '2026-10-01')")
        let health = try Ledger(path: ledger.path).health()
        XCTAssertEqual(health.quarantined, [QuarantinedRow(table: "transactions", id: 77, reason: "user_id 999999 does not exist")])
    }

    func testBadRateRowIsQuarantinedAndOthersStillWork() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.rate("2026-10-01", "EUR", "USD", 1.08)
        try ledger.execute("INSERT INTO exchange_rates (day, base, quote, rate) VALUES ('2026-10-02', 'EUR', 'USD', -3)")
        try ledger.expense(alice, 100, on: "2026-10-02", currency: "USD")
        let opened = try Ledger(path: ledger.path)
        XCTAssertEqual(opened.quarantinedRates.map(\.reason), ["rate '-3.0' is not a positive number"])
        XCTAssertEqual(try opened.loadUser(id: alice, through: october).transactions.count, 1)
    }

    func testEveryKindOfBadRateRowIsQuarantinedWithItsReasonAndGoodRowsStillConvert() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        try ledger.rate("2026-10-01", "EUR", "USD", 1.08)
        try ledger.rate("2026-10-01", "EUR", "JPY", 160.5)
        let bad: [(day: String, base: String, quote: String, rate: String)] = [
            ("'2026-10-1'", "'EUR'", "'USD'", "1.1"),       // not ten characters
            ("'2026-13-01'", "'EUR'", "'USD'", "1.1"),      // no such month
            ("20261001", "'EUR'", "'GBP'", "1.1"),          // an integer, not a date
            ("'2026-10-02'", "'eur'", "'USD'", "1.1"),      // lower case
            ("'2026-10-02'", "'EURO'", "'USD'", "1.1"),     // four letters
            ("'2026-10-02'", "'EUR'", "'U' || char(0) || 'D'", "1.1"),  // a NUL byte
            ("'2026-10-02'", "'EUR'", "'ÜSD'", "1.1"),      // not ASCII
            ("'2026-10-03'", "'EUR'", "'USD'", "'n/a'"),    // text (a numeric text would become a REAL)
            ("'2026-10-04'", "'EUR'", "'USD'", "0"),        // not positive
            ("'2026-10-05'", "'EUR'", "'XXQ'", "1.1"),      // not an ISO 4217 code
            ("'2026-10-05'", "'EUR'", "'EUR'", "2.0"),      // the same currency twice
            ("'2026-10-05'", "'XAU'", "'EUR'", "1900"),     // gold: not money the ledger counts in
        ]
        for row in bad {
            try ledger.execute("INSERT INTO exchange_rates (day, base, quote, rate) VALUES (\(row.day), \(row.base), \(row.quote), \(row.rate))")
        }
        try ledger.expense(alice, 10_000, on: "2026-10-05", currency: "USD")
        let opened = try Ledger(path: ledger.path)
        XCTAssertEqual(opened.quarantinedRates.map(\.reason), [
            "day '2026-10-1' is not a date",
            "day '2026-13-01' is not a date",
            "day '20261001' is not a date",
            "invalid currency pair 'eur'/'USD'",
            "invalid currency pair 'EURO'/'USD'",
            "invalid currency pair 'EUR'/'U\u{FFFD}D'",
            "invalid currency pair 'EUR'/'ÜSD'",
            "rate 'n/a' is not a positive number",
            "rate '0.0' is not a positive number",
            "invalid currency pair 'EUR'/'XXQ' (not an ISO 4217 currency money is kept in)",
            "invalid currency pair 'EUR'/'EUR' (the same currency twice)",
            "invalid currency pair 'XAU'/'EUR' (not an ISO 4217 currency money is kept in)",
        ])
        let rates = opened.rates
        let eur = Currency.eur, usd = try Currency("USD"), jpy = try Currency("JPY")
        XCTAssertEqual(try rates.convert(10_000, from: usd, to: eur, on: try XCTUnwrap(CivilDate(iso: "2026-10-05"))), 9_259)
        XCTAssertEqual(try rates.convert(1_000, from: eur, to: jpy, on: try XCTUnwrap(CivilDate(iso: "2026-10-05"))), 1_605)
        XCTAssertFalse(rates.hasPair(eur, try Currency("GBP")))
        XCTAssertEqual(try opened.loadUser(id: alice, through: october).transactions.count, 1)
    }

    /// A group expense the group's rules quarantine (its splits, or its group) is read with the
    /// payer's own rows first: it must leave those too, or it still moves the payer's balance.
    func testAQuarantinedGroupExpenseLeavesThePayersOwnRows() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        let bob = try ledger.user("bob")
        let trip = try ledger.group("Trip", owner: alice, members: [alice, bob])
        let good = try ledger.expense(alice, 1000, on: "2026-10-02", group: trip)
        try ledger.splits(good, [(alice, 400), (bob, 600)])
        let bad = try ledger.expense(alice, 1000, on: "2026-10-03", group: trip)
        try ledger.splits(bad, [(alice, 500), (bob, 499)])
        let broken = try ledger.group("Broken", owner: alice, members: [alice, bob], currency: "XXQ")
        let orphan = try ledger.expense(alice, 300, on: "2026-10-04", group: broken)
        let own = try ledger.expense(alice, 200, on: "2026-10-05")
        let opened = try Ledger(path: ledger.path)
        let slice = try opened.loadUser(id: alice, through: october)
        XCTAssertEqual(Set(slice.quarantined.filter { $0.table == "transactions" }.map(\.id)), [bad, orphan])
        XCTAssertEqual(slice.transactions.map(\.id), [good, own])
        let window = try opened.readTransaction { try $0.loadWindow(id: alice, from: CivilDate(year: 2026, month: 10, day: 1), through: october) }
        XCTAssertEqual(window.transactions.map(\.id), [good, own])
    }

    func testSoftDeletedRowsAreIgnoredNotQuarantined() throws {
        let (_, health, slice) = try quarantined { l, u in
            try l.transaction(u, kind: "refund", 100, on: "2026-10-02", deletedAt: "2026-10-03T00:00:00Z")
        }
        XCTAssertTrue(health.isClean)
        XCTAssertEqual(slice.transactions.count, 1)
    }

    func testGroupedQuarantineCountsByReasonShape() throws {
        let ledger = try TestLedger()
        let alice = try ledger.user("alice")
        for d in 1...7 { try ledger.transaction(alice, kind: "refund\(d % 2)", 100, on: "2026-10-0\(d)") }
        let groups = try Ledger(path: ledger.path).health().groupedQuarantine(firstIds: 3)
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(groups.first?.count, 7)
        XCTAssertEqual(groups.first?.reason, "unknown kind '…'")
        XCTAssertEqual(groups.first?.firstIds.count, 3)
    }
}

/// The check summary groups reasons by their shape, keeping words and blanking values.
final class ReasonShapeTests: XCTestCase {
    func testNumbersAndQuotedValuesAreBlankedButWordsWithDigitsStay() {
        XCTAssertEqual(LedgerHealth.reasonShape("occurred_at 'yesterday' is not an ISO-8601 timestamp"),
                       "occurred_at '…' is not an ISO-8601 timestamp")
        XCTAssertEqual(LedgerHealth.reasonShape("splits add up to 900, not the amount 1000"), "splits add up to #, not the amount #")
        XCTAssertEqual(LedgerHealth.reasonShape("no exchange rate USD→EUR on or before 2026-10-02"), "no exchange rate USD→EUR on or before #")
        XCTAssertEqual(LedgerHealth.reasonShape("amount_minor must be a positive integer (got -5)"), "amount_minor must be a positive integer (got #)")
        // The rule's own numbers stay; only the row's value is blanked.
        XCTAssertEqual(LedgerHealth.reasonShape("month_start_day must be an integer from 1 to 28 (got 31)"),
                       "month_start_day must be an integer from 1 to 28 (got #)")
        XCTAssertEqual(LedgerHealth.reasonShape("month_start_day must be an integer from 1 to 28 (got 'payday')"),
                       "month_start_day must be an integer from 1 to 28 (got '…')")
        // An apostrophe inside a word is text, not a quote.
        XCTAssertEqual(LedgerHealth.reasonShape("balance_id 12 is not one of the user's balances"),
                       "balance_id # is not one of the user's balances")
        XCTAssertEqual(LedgerHealth.reasonShape("name 'o'brien' is the user's"), "name '…' is the user's")
    }
}
