@testable import EZBatch
import Foundation
import XCTest

/// Files appear whole or not at all, in folders made on demand.
final class AtomicFileTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "atomic-file-tests-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func testWriteCreatesMissingFoldersAndLeavesNoTemporaryFile() throws {
        let path = root + "/2026-10/users/42/charts/trend.png"
        try AtomicFile.write(Array("abc".utf8), to: path)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("abc".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/2026-10/users/42/charts"), ["trend.png"])
    }

    func testWriteReplacesAnExistingFileWhole() throws {
        let path = root + "/statement.csv"
        try AtomicFile.write(Array("old contents, longer".utf8), to: path)
        try AtomicFile.write(Array("new".utf8), to: path)
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("new".utf8))
    }

    func testAFailingProducerLeavesNeitherTheFileNorItsTemporary() throws {
        let path = root + "/out/statement.xlsx"
        XCTAssertThrowsError(try AtomicFile.write(to: path) { (temp: String) throws(OutputError) in
            FileManager.default.createFile(atPath: temp, contents: Data("half".utf8))
            throw OutputError.cannotWrite(path: path, reason: "disk full")
        })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/out"), [])
    }

    func testAFileWhereTheFolderShouldBeIsAClearError() throws {
        let blocker = root + "/blocked"
        FileManager.default.createFile(atPath: blocker, contents: Data())
        XCTAssertThrowsError(try AtomicFile.write(Array("x".utf8), to: blocker + "/file.csv")) { error in
            XCTAssertTrue("\(error)".contains("cannot create folder '\(blocker)'"), "\(error)")
        }
    }

    func testSplitAgreesWithFoundationsURL() {
        for path in ["/a/b/c.pdf", "a/b.csv", "c.png", "/top.txt", "/a/b/", "Reports/2026-10/x y/ü.pdf"] {
            let url = URL(fileURLWithPath: path)
            let (folder, name) = AtomicFile.split(path)
            XCTAssertEqual(name, url.lastPathComponent, path)
            if path.hasPrefix("/") { XCTAssertEqual(folder, url.deletingLastPathComponent().path, path) }
        }
        XCTAssertEqual(AtomicFile.split("c.png").folder, ".")
        XCTAssertEqual(AtomicFile.split("a/b.csv").folder, "a")
    }

    /// A folder under a path part that is a file used to fail with Foundation's "NSCocoaErrorDomain
    /// error 512", which names no cause.
    func testAFolderThatCannotBeCreatedSaysWhichPartIsAFile() throws {
        let root: String = self.root
        try FileManager.default.createDirectory(atPath: root + "/2026-10", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: root + "/2026-10/users", contents: Data("x".utf8))
        XCTAssertThrowsError(try AtomicFile.write(Array("a".utf8), to: root + "/2026-10/users/2-zoe/a.csv")) { error in
            XCTAssertEqual("\(error)", "cannot write '\(root)/2026-10/users/2-zoe/a.csv': cannot create folder '\(root)/2026-10/users/2-zoe': "
                           + "'\(root)/2026-10/users' is a file, not a folder")
        }
    }
}
