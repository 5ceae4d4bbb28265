import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// Folder names made from usernames fit the file system's 255-byte limit, are cut between
/// characters (never inside a letter and its marks), and stay unique by their id prefix.
final class SafeNameTests: XCTestCase {
    /// 60 four-byte letters, then letters with two combining marks each (5 bytes apiece): 64 characters, 260 bytes.
    static let longName = String(repeating: "𝒜", count: 60) + String(repeating: "e\u{0301}\u{0323}", count: 4)

    func testAUserFolderFitsIn255BytesAndIsCutBetweenCharacters() {
        let folder = SafeName.userFolder(id: 1234567, username: Self.longName)
        XCTAssertLessThanOrEqual(folder.utf8.count, SafeName.maxComponentBytes)
        XCTAssertTrue(folder.hasPrefix("1234567-"))
        let kept = String(folder.dropFirst("1234567-".count))
        XCTAssertEqual(Array(kept), Array(Self.longName.prefix(kept.count)), "a character was cut inside or changed")
        XCTAssertEqual(kept.count, 61, "as many whole characters as fit: 240 + 5 bytes after an 8-byte prefix (the next would make 258)")
        XCTAssertEqual(kept.unicodeScalars.last, "\u{0323}", "the last letter keeps its marks")
    }

    func testCutNamesStayUniqueByTheirIdAndShortNamesAreUnchanged() {
        let a = SafeName.userFolder(id: 7, username: Self.longName + "x")
        let b = SafeName.userFolder(id: 8, username: Self.longName + "y")
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(a.dropFirst(2), b.dropFirst(2), "both names are cut to the same text: only the id tells them apart")
        XCTAssertEqual(SafeName.userFolder(id: 2, username: "zoë"), "2-zoë")
        XCTAssertEqual(SafeName.userFolder(id: 5, username: "../../etc"), "5-_._.._etc")
        XCTAssertEqual(SafeName.sanitise(String(repeating: "a", count: 80)), String(repeating: "a", count: 64), "still 64 characters at most")
        XCTAssertEqual(SafeName.sanitise("e" + String(repeating: "\u{0301}", count: 300)), "_", "one letter too long to fit at all")
    }

    func testAUserWithFourByteLettersGetsAStatementFromMonthlyAndFromExportWithoutOut() throws {
        let ledger = try TestLedger()
        let user = try ledger.user(Self.longName)
        try ledger.expense(user, 1_250, on: "2026-09-10T10:00:00+02:00")
        let work = SampleFixture.scratch("safename")
        let monthly = try CLI.run(["monthly", "--db", ledger.path, "--period", "2026-09", "--as-of", "2026-10-01",
                                   "--out", work + "/Reports", "--formats", "pdf,csv", "--quiet"])
        XCTAssertEqual(monthly.status, 0, monthly.stderr)
        let manifest = try OutputTree.manifest(work + "/Reports/2026-09")
        let entry = try XCTUnwrap(manifest.users.first { $0.id == user })
        XCTAssertEqual(entry.status, .ok, entry.error ?? "")
        XCTAssertEqual(entry.folder, "users/" + SafeName.userFolder(id: user, username: Self.longName))
        XCTAssertTrue(FileManager.default.fileExists(atPath: work + "/Reports/2026-09/" + entry.folder + "/statement.pdf"))

        let export = try CLI.run(["export", "--db", ledger.path, "--user", Self.longName, "--period", "2026-09",
                                  "--as-of", "2026-10-01", "--format", "csv"], in: work)
        XCTAssertEqual(export.status, 0, export.stderr)
        let folder = work + "/Reports/exports/2026-09/" + SafeName.userFolder(id: user, username: Self.longName)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder + "/transactions.csv"), export.text)
        XCTAssertLessThanOrEqual(SafeName.userFolder(id: user, username: Self.longName).utf8.count, 255)
    }
}
