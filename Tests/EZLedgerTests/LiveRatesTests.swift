import EZCore
import EZTestSupport
import Foundation
import XCTest
@testable import EZLedger

/// A ledger kept open (as `ezreport serve` keeps it) sees the exchange rates the app adds or
/// corrects afterwards, in the snapshot it reads them with; other writes never reload them.
final class LiveRatesTests: XCTestCase {
    private let usd = try! Currency("USD"), eur = try! Currency("EUR")
    private let day = CivilDate(year: 2026, month: 9, day: 15)

    /// Converts $100.00 on 15 September with the rates of one read transaction.
    private func hundredDollars(_ ledger: Ledger) throws -> Int64 {
        try ledger.readTransaction { snapshot in try snapshot.rates.convert(10_000, from: usd, to: eur, on: day) }
    }

    /// Waits out ``LiveRates/recheckInterval`` so that the next read looks at the rates again.
    private func pastRecheckInterval() {
        Thread.sleep(forTimeInterval: Double(LiveRates.recheckInterval.components.seconds) + 0.2)
    }

    func testARateTheAppAddsIsUsedWithoutReopeningTheLedger() throws {
        let fixture = try TestLedger()
        try fixture.rate("2026-09-01", "USD", "EUR", 0.9)
        let ledger = try Ledger(path: fixture.path)
        XCTAssertEqual(try hundredDollars(ledger), 9_000)

        try fixture.rate("2026-09-10", "USD", "EUR", 0.5)
        pastRecheckInterval()
        XCTAssertEqual(try hundredDollars(ledger), 5_000)
        XCTAssertEqual(ledger.rates.rate(from: usd, to: eur, on: day)?.rate.description, "0.5")
    }

    func testACorrectedRateReplacesTheOneReadAtOpen() throws {
        let fixture = try TestLedger()
        try fixture.rate("2026-09-01", "USD", "EUR", 0.9)
        let ledger = try Ledger(path: fixture.path)
        XCTAssertEqual(try hundredDollars(ledger), 9_000)

        try fixture.execute("UPDATE exchange_rates SET rate = 0.8 WHERE base = 'USD'")
        pastRecheckInterval()
        XCTAssertEqual(try hundredDollars(ledger), 8_000)
    }

    func testARateRowThatBreaksTheContractIsQuarantinedWhenReadAgain() throws {
        let fixture = try TestLedger()
        try fixture.rate("2026-09-01", "USD", "EUR", 0.9)
        let ledger = try Ledger(path: fixture.path)
        XCTAssertEqual(ledger.quarantinedRates, [])

        try fixture.execute("INSERT INTO exchange_rates (day, base, quote, rate) VALUES ('2026-09-12', 'USD', 'EUR', -1)")
        pastRecheckInterval()
        XCTAssertEqual(try hundredDollars(ledger), 9_000, "a negative rate is never used")
        XCTAssertEqual(ledger.quarantinedRates.map(\.table), ["exchange_rates"])
    }
}
