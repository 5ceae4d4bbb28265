@testable import EZBatch
import Foundation
import XCTest

/// Files appear whole or not at all, in folders made on demand.
final class AtomicFileTests: XCTestCase {
    /// A full disk while the entries record or the manifest was written printed Foundation's
    /// whole error (`Error Domain=NSCocoaErrorDomain Code=640 "There isn’t enough space." UserInfo={…}`);
    /// the line now gives the system's words, which the full-disk check also recognises.
    func testAFoundationWriteErrorIsReportedInTheSystemsWords() {
        let full = NSError(domain: NSCocoaErrorDomain, code: 640,
                           userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        XCTAssertEqual(OutputError.reason(full), String(cString: strerror(ENOSPC)))
        XCTAssertEqual(OutputError.reason(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))), String(cString: strerror(EACCES)))
        XCTAssertFalse(OutputError.reason(full).contains("Domain="))
    }

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
            XCTAssertTrue(FileManager.default.createFile(atPath: temp, contents: Data("half".utf8)), "could not create \(temp)")
            throw OutputError.cannotWrite(path: path, reason: "disk full")
        })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/out"), [])
    }

    func testAFileWhereTheFolderShouldBeIsAClearError() throws {
        let blocker = root + "/blocked"
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data()), "could not create \(blocker)")
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
        XCTAssertTrue(FileManager.default.createFile(atPath: root + "/2026-10/users", contents: Data("x".utf8)), "could not create \(root + "/2026-10/users")")
        XCTAssertThrowsError(try AtomicFile.write(Array("a".utf8), to: root + "/2026-10/users/2-zoe/a.csv")) { error in
            XCTAssertEqual("\(error)", "cannot write '\(root)/2026-10/users/2-zoe/a.csv': cannot create folder '\(root)/2026-10/users/2-zoe': "
                           + "'\(root)/2026-10/users' is a file, not a folder")
        }
    }

    /// A run killed under a parent that does not reap it stays a zombie, which kill(2) still
    /// finds: its temporary files were kept for good. Leftovers of a zombie, of a pid now held
    /// by another program, and of a pid that is gone are removed (and this process's own, which
    /// no write of its is using between runs); a live run of this program counts as alive.
    func testLeftoversOfZombiesAndOfPidsHeldByOtherProgramsAreRemoved() throws {
        var zombie: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&zombie, "/bin/true", nil, nil, argv, environ), 0)
        // Not waited for yet: once it has exited it is a zombie.
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, (try? String(contentsOfFile: "/proc/\(zombie)/stat", encoding: .utf8))?.contains(") Z ") != true {
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertEqual(kill(zombie, 0), 0, "kill(2) still finds a zombie")
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate(); sleeper.waitUntilExit() }

        let folder = root + "/2026-10/users/3-josé"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for pid in [zombie, sleeper.processIdentifier, Int32.max - 1, getpid()] {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/.statement.pdf.tmp-\(pid)", contents: Data()), "could not create \(folder + "/.statement.pdf.tmp-\(pid)")")
        }
        AtomicFile.removeLeftovers(in: root)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
        XCTAssertFalse(ProcessLiveness.isLiveRun(zombie))
        XCTAssertFalse(ProcessLiveness.isLiveRun(sleeper.processIdentifier), "another program holds the pid")
        XCTAssertTrue(ProcessLiveness.isLiveRun(getpid()))
        var status: Int32 = 0
        waitpid(zombie, &status, 0)
    }
}
