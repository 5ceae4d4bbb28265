@testable import EZServer
import EZLedger
import Logging
import Synchronization
import XCTest

/// What the server's view of the ledger file costs a readiness probe.
final class LedgerSourceTests: XCTestCase {
    /// `/readyz` checked the file by hashing it. A rollback-journal ledger changes with every
    /// commit of the app, so a probe after one hashed the whole file (~750 MB for 10,000 users)
    /// and outlasted Kubernetes' 1 s probe timeout: the pod flapped unready. The probe now checks
    /// that the file can be read; the digest is left to the requests that state it.
    func testTheReadinessCheckDoesNotHashTheLedger() throws {
        let fixture = try ServerFixture()
        let hashes = Atomic<Int>(0)
        let memo = LedgerDigestMemo(path: fixture.ledger.path) { path in
            hashes.add(1, ordering: .relaxed)
            return try LedgerDigest.sha256(ofLedger: path)
        }
        let source = LedgerSource(path: fixture.ledger.path, logger: Logger(label: "test"), digests: memo)
        XCTAssertTrue(source.isReady())
        XCTAssertEqual(hashes.load(ordering: .relaxed), 0, "the probe hashed the ledger")
        XCTAssertEqual(try source.digest(), try LedgerDigest.sha256(ofLedger: fixture.ledger.path))
        XCTAssertEqual(hashes.load(ordering: .relaxed), 1)
        // A file that is no ledger is still not ready.
        try Data("not a database".utf8).write(to: URL(fileURLWithPath: fixture.ledger.path))
        XCTAssertFalse(source.isReady())
    }
}
