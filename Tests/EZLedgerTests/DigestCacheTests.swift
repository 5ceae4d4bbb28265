import Foundation
import XCTest
@testable import EZLedger

/// The ledger digest cache: a hit must never hide a change to the file.
final class DigestCacheTests: XCTestCase {
    private var folder = ""

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "ezreport-digest-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func makeLargeFile(byte: UInt8) throws -> String {
        let path = folder + "/ledger.sqlite"
        try Data(repeating: byte, count: Int(DigestCache.minimumSize)).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testCachedDigestEqualsTheHashAndIsRecordedOnce() throws {
        let path = try makeLargeFile(byte: 7)
        let cache = DigestCache(folder: folder + "/cache")
        let uncached = try FileDigest.sha256(ofFile: path, cache: nil)
        XCTAssertEqual(try FileDigest.sha256(ofFile: path, cache: cache), uncached)
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache")
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(try FileDigest.sha256(ofFile: path, cache: cache), uncached)
    }

    func testRewritingTheFileInPlaceInvalidatesTheEntry() throws {
        let path = try makeLargeFile(byte: 7)
        let cache = DigestCache(folder: folder + "/cache")
        let before = try FileDigest.sha256(ofFile: path, cache: cache)
        // Same size, same inode: only the contents (and so mtime/ctime) change.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([8]))
        try handle.close()
        let after = try FileDigest.sha256(ofFile: path, cache: cache)
        XCTAssertNotEqual(after, before)
        XCTAssertEqual(after, try FileDigest.sha256(ofFile: path, cache: nil))
    }

    func testRestoringTheOldModificationTimeAfterAWriteDoesNotHideTheChange() throws {
        let path = try makeLargeFile(byte: 7)
        let cache = DigestCache(folder: folder + "/cache")
        _ = try FileDigest.sha256(ofFile: path, cache: cache)
        // Restoring the old mtime after a write still changes ctime, so the entry must not match.
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data([9]))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: attributes[.modificationDate]!], ofItemAtPath: path)
        XCTAssertEqual(try FileDigest.sha256(ofFile: path, cache: cache), try FileDigest.sha256(ofFile: path, cache: nil))
    }
}
