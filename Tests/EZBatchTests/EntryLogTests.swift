import Foundation
import Synchronization
import XCTest
@testable import EZBatch

/// The run's entry log: entries appended by several workers come back whole, by offset and by
/// user id; a line cut short by a kill does not damage the next append; compaction keeps order.
final class EntryLogTests: XCTestCase {
    private var folder: String!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("entrylog-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func entry(_ id: Int64, _ error: String? = nil) throws -> Manifest.UserEntry {
        let json = """
            {"id":\(id),"status":"\(error == nil ? "ok" : "failed")","folder":"users/\(id)-u","files":[],"quarantined":[]\(error.map { ",\"error\":\"\($0)\"" } ?? "")}
            """
        return try JSONDecoder().decode(Manifest.UserEntry.self, from: Data(json.utf8))
    }

    /// A full disk takes part of a line (a short write) and refuses the rest: the error named a
    /// stale errno ("No such file or directory") and the torn line stayed in the journal (outside
    /// faults test). A file-size limit fails the same way (EFBIG after a short write).
    func testAFullDiskNamesItsReasonAndLeavesOnlyWholeEntries() throws {
        let path = folder + "/.journal.jsonl"
        let log = try EntryLog(path: path)
        let first = try log.append(try entry(1))
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        var saved = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved), 0)
        var limited = saved
        limited.rlim_cur = rlim_t(size + 10)   // room for 10 bytes of the next line
        let handler = signal(SIGXFSZ, SIG_IGN)
        XCTAssertEqual(setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limited), 0)
        errno = ENOENT   // what a stale errno said
        let failure: (any Error)?
        do { _ = try log.append(try entry(2)); failure = nil } catch { failure = error }
        setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &saved)
        signal(SIGXFSZ, handler)
        let error = try XCTUnwrap(failure, "the append past the limit must fail")
        XCTAssertTrue("\(error)".contains(String(cString: strerror(EFBIG))), "\(error)")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size, "no torn line")
        XCTAssertEqual(try log.read(first), try entry(1))
        let after = try log.append(try entry(3))
        XCTAssertEqual(try log.read(after), try entry(3))
        XCTAssertEqual(Set(log.index().keys), [1, 3])
    }

    func testEntriesAppendedConcurrentlyReadBackWholeByOffsetAndById() throws {
        let log = try EntryLog(path: folder + "/journal.jsonl")
        let entries = try (1...200).map { try entry(Int64($0), $0 % 7 == 0 ? "boom \($0)" : nil) }
        let slots = Mutex<[EntryLog.Ref?]>(Array(repeating: nil, count: entries.count))
        DispatchQueue.concurrentPerform(iterations: entries.count) { i in
            let ref = try? log.append(entries[i])
            slots.withLock { $0[i] = ref }
        }
        for (i, ref) in slots.withLock({ $0 }).enumerated() {
            let ref = try XCTUnwrap(ref, "append \(i) failed")
            XCTAssertEqual(try log.read(ref), entries[i])
        }
        let index = log.index()
        XCTAssertEqual(index.count, 200)
        XCTAssertEqual(try log.read(try XCTUnwrap(index[140])).error, "boom 140")
    }

    func testALineCutShortByAKillDoesNotGlueToTheNextEntry() throws {
        let path = folder + "/journal.jsonl"
        do {
            let log = try EntryLog(path: path)
            _ = try log.append(try entry(1))
        }
        // A killed run's last write, cut mid-line.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"id":2,"status":"o"#.utf8))
        try handle.close()
        let reopened = try EntryLog(path: path)
        let ref = try reopened.append(try entry(3))
        XCTAssertEqual(try reopened.read(ref).id, 3)
        let index = reopened.index()
        XCTAssertEqual(Set(index.keys), [1, 3], "the cut line is skipped, not misread")
    }

    func testCompactionWritesTheHeaderAndTheChosenEntriesInOrder() throws {
        let log = try EntryLog(path: folder + "/journal.jsonl")
        let refs = try [5, 2, 9].map { try log.append(try entry(Int64($0))) }
        let header = EntryLog.Header(ledgerSha256: String(repeating: "a", count: 64), settings: "s", admin: nil)
        try log.compact([refs[1], refs[0], refs[2]], header: header, to: folder + "/entries.jsonl")
        let compacted = try EntryLog(path: folder + "/entries.jsonl")
        XCTAssertEqual(compacted.header(), header)
        let index = compacted.index()
        XCTAssertEqual(Set(index.keys), [2, 5, 9])
        let offsets = [2, 5, 9].map { index[Int64($0)]!.offset }
        XCTAssertEqual(offsets, offsets.sorted(), "entries in the order given (id order)")
    }
}
