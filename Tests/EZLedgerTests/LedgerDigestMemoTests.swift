import Foundation
import Synchronization
import XCTest
@testable import EZLedger

/// `serve`'s in-memory ledger digest: hashed once per change of the files, however many requests
/// find it stale at the same moment.
final class LedgerDigestMemoTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "ezreport-memo-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Eight requests after a commit used to hash a rollback-journal ledger eight times over
    /// (~750 MB each for 10,000 users); they now wait for one hash and share its digest. The next
    /// change of the file is hashed again, once.
    func testConcurrentCallersAfterAChangeShareOneHash() throws {
        let path = folder + "/ledger.sqlite"
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        let calls = Atomic<Int>(0)
        let memo = LedgerDigestMemo(path: path) { file in
            calls.add(1, ordering: .relaxed)
            Thread.sleep(forTimeInterval: 0.2)   // a large file: long enough for every caller to arrive
            return try FileDigest.sha256(ofFile: file, cache: nil)
        }
        let expected = try FileDigest.sha256(ofFile: path, cache: nil)
        for round in 1...2 {
            let results = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let digest = (try? memo.current()) ?? "failed"
                results.withLock { $0.append(digest) }
            }
            XCTAssertEqual(calls.load(ordering: .relaxed), round, "round \(round): one hash for every caller")
            XCTAssertEqual(results.withLock { $0 }, Array(repeating: round == 1 ? expected : try FileDigest.sha256(ofFile: path, cache: nil), count: 8))
            XCTAssertEqual(try memo.current(), results.withLock { $0[0] }, "unchanged files: no hash")
            XCTAssertEqual(calls.load(ordering: .relaxed), round)
            // The app commits: the file's size and times change.
            try Data("second, longer \(round)".utf8).write(to: URL(fileURLWithPath: path))
        }
    }
}
