import EZBatch
import EZCore
import EZLedger
import EZTestSupport
import Foundation
import Synchronization
import XCTest

/// `ezreport admin` (``AdminRun``): a ledger lost part-way is the run's failure, not a user's.
final class AdminRunTests: XCTestCase {
    /// A PostgreSQL connection killed during `admin` was taken as "a user was left out": an admin
    /// report of the users read before it was written, exit 2, and the next users read over a new
    /// connection, another snapshot (outside PostgreSQL test). A lost ledger now stops the run
    /// (exit 1, as `monthly` does) and writes nothing.
    func testALedgerLostPartWayStopsTheRunAndWritesNoReport() throws {
        let fixture = try SampleFixture.shared()
        let asOf = try XCTUnwrap(CivilDate(iso: fixture.asOf))
        let out = SampleFixture.scratch("admin-ledger-lost")
        let settings = ReportSettings(ledgerPath: fixture.ledger, ledgerSHA256: try FileDigest.sha256(ofFile: fixture.ledger),
                                      period: try Period.parse(fixture.period, asOf: asOf), asOf: asOf, formats: [.pdf, .csv, .xlsx],
                                      openLedger: { try LostAfterLoads(try Ledger(path: fixture.ledger), loads: 3) })
        XCTAssertThrowsError(try AdminRun.run(settings: settings, folder: out, log: RunLog(quiet: true))) { error in
            guard case .cannotOpen? = error as? LedgerError else { return XCTFail("not the ledger lost: \(error)") }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/admin/usage.csv"), "no report of the users read before")

        // A user whose own rows cannot be read is still left out, and the report written.
        let oneBad = ReportSettings(ledgerPath: fixture.ledger, ledgerSHA256: settings.ledgerSHA256, period: settings.period,
                                    asOf: asOf, formats: [.csv],
                                    openLedger: { try LostAfterLoads(try Ledger(path: fixture.ledger), loads: 3, as: .readFailed(path: fixture.ledger, reason: "one user's rows")) })
        let result = try AdminRun.run(settings: oneBad, folder: out, log: RunLog(quiet: true))
        XCTAssertGreaterThan(result.usersLeftOut, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out + "/admin/usage.csv"))
    }
}

/// A real SQLite ledger whose user reads fail after `loads` of them: with ``LedgerError/cannotOpen``
/// as a PostgreSQL ledger whose connection is lost reports it, or with another error.
private final class LostAfterLoads: LedgerStore {
    let real: Ledger
    let loads: Int
    let failure: LedgerError
    private let count = Mutex(0)

    init(_ real: Ledger, loads: Int, as failure: LedgerError? = nil) {
        self.real = real
        self.loads = loads
        self.failure = failure ?? .cannotOpen(path: real.path, reason: "the server closed the connection")
    }

    var path: String { real.path }
    var rates: RateTable { real.rates }
    var quarantinedRates: [QuarantinedRow] { real.quarantinedRates }
    var features: LedgerFeatures { real.features }
    func userRefs() throws(LedgerError) -> [UserRef] { try real.userRefs() }
    func findUser(_ idOrName: String) throws(LedgerError) -> Int64 { try real.findUser(idOrName) }
    func loadUser(id: Int64, through: CivilDate) throws(LedgerError) -> UserLedger {
        let n = count.withLock { $0 += 1; return $0 }
        if n > loads { throw failure }
        return try real.loadUser(id: id, through: through)
    }
    func transactionCount(user id: Int64) throws(LedgerError) -> Int { try real.transactionCount(user: id) }
    func allUsers() throws(LedgerError) -> (users: [User], quarantined: [QuarantinedRow]) { try real.allUsers() }
    func health() throws(LedgerError) -> LedgerHealth { try real.health() }
    func quarantinedOutsideUsers() throws(LedgerError) -> [QuarantinedRow] { try real.quarantinedOutsideUsers() }
    func exchangeRatesDigest() throws(LedgerError) -> String { try real.exchangeRatesDigest() }
    func deliveryContacts() throws(LedgerError) -> [DeliveryContact] { try real.deliveryContacts() }
    func readTransaction<T>(_ body: (LedgerReadTransaction) throws -> T) throws -> T { try real.readTransaction(body) }
    func checkReadable() throws(LedgerError) { try real.checkReadable() }
    func snapshot(connections: Int, scratch: String) throws(LedgerError) -> LedgerSnapshotReaders {
        try real.snapshot(connections: connections, scratch: scratch)
    }
}
