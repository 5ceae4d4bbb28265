import EZBatch
import EZTestSupport
import Foundation
import GRDB
import XCTest

/// A user's folder holds only what that user may see; admin files identify no one.
final class IsolationTests: XCTestCase {
    var fixture: SampleFixture!
    var folder: String!

    override func setUpWithError() throws {
        fixture = try SampleFixture.shared()
        let run = try fixture.cleanRun()
        XCTAssertEqual(run.outcome.status, 0, run.outcome.stderr)
        folder = run.folder
    }

    /// The readable text of every file of the run that has text (CSV, PDF, XLSX), by path.
    func texts() throws -> [String: String] {
        var out: [String: String] = [:]
        for path in OutputTree.snapshot(folder).keys where path != "manifest.json" {
            if let text = try OutputTree.text(of: folder + "/" + path) { out[path] = text }
        }
        return out
    }

    func testMarkerInOneUsersDescriptionsAppearsInNoOtherUsersFilesNorTheAdminReport() throws {
        XCTAssertGreaterThanOrEqual(fixture.markedRows, 3)
        let manifest = try OutputTree.manifest(folder)
        let owner = try XCTUnwrap(manifest.users.first { $0.id == fixture.markedUser })
        let texts = try texts()
        // Positive control: the marker does reach its owner's files (so searching for it means something).
        XCTAssertTrue(texts[owner.folder + "/transactions.csv"]?.contains(fixture.marker) ?? false)
        XCTAssertTrue(texts[owner.folder + "/statement.xlsx"]?.contains(fixture.marker) ?? false)
        XCTAssertTrue(texts.keys.contains { $0.hasSuffix(".pdf") })
        for (path, text) in texts where !path.hasPrefix(owner.folder + "/") {
            XCTAssertFalse(text.contains(fixture.marker), "the marker leaked into \(path)")
        }
        // Nor in the raw bytes of any other file (PNG and compressed streams included).
        for (path, data) in OutputTree.snapshot(folder) where !path.hasPrefix(owner.folder + "/") && path != "manifest.json" {
            XCTAssertNil(data.range(of: Data(fixture.marker.utf8)), "the marker leaked into \(path)")
        }
    }

    func testNoFileHoldsAPasswordHashOrAnotherUsersEmail() throws {
        let db = try DatabaseQueue(path: fixture.ledger, configuration: { var c = Configuration(); c.readonly = true; return c }())
        let users = try db.read { db in
            try Row.fetchAll(db, sql: "SELECT id, email, password_hash FROM users ORDER BY id").map { (id: $0[0] as Int64, email: $0[1] as String, hash: $0[2] as String?) }
        }
        let hashes = users.compactMap(\.hash).filter { $0.count >= 8 }
        XCTAssertFalse(hashes.isEmpty, "the sample has password hashes to look for")
        let manifest = try OutputTree.manifest(folder)
        let folderOwner = Dictionary(uniqueKeysWithValues: manifest.users.map { ($0.folder, $0.id) })
        let all = try texts().merging(["manifest.json": String(decoding: OutputTree.snapshot(folder)["manifest.json"]!, as: UTF8.self)]) { a, _ in a }
        for (path, text) in all {
            for h in hashes { XCTAssertFalse(text.contains(String(h.suffix(24))), "a password hash in \(path)") }
            let owner = folderOwner.first { path.hasPrefix($0.key + "/") }?.value
            for u in users where u.id != owner {
                XCTAssertFalse(OutputTree.containsToken(text, u.email), "user \(u.id)'s e-mail in \(path)")
            }
        }
    }

    /// A username that is an absolute path (and one that is only dots) still lands under users/.
    func testAbsolutePathAndDotUsernamesStayInsideTheOutputFolder() throws {
        let ledger = try TestLedger()
        let root = try ledger.user("/root")
        let dots = try ledger.user("..")
        let slash = try ledger.user("a/../../b")
        for u in [root, dots, slash] { try ledger.expense(u, 1250, on: "2026-09-10T12:00:00+02:00", description: "lunch") }
        let out = ledger.folder.appendingPathComponent("out").path
        let run = try CLI.run(["monthly", "--db", ledger.path, "--period", "2026-09", "--as-of", "2026-10-01",
                               "--out", out, "--formats", "csv", "--quiet"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let names = try FileManager.default.contentsOfDirectory(atPath: out + "/2026-09/users").sorted()
        XCTAssertEqual(names, ["\(root)-_root", "\(dots)-__", "\(slash)-a_.._.._b"].sorted())
        // Nothing appeared anywhere else: the ledger's folder holds the ledger and out/ only.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: ledger.folder.path).sorted(), ["ledger.sqlite", "out"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), ["2026-09"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/root/transactions.csv"))
        let manifest = try OutputTree.manifest(out + "/2026-09")
        for u in manifest.users {
            XCTAssertTrue(u.folder.hasPrefix("users/") && !u.folder.dropFirst(6).contains("/"), u.folder)
            XCTAssertEqual(try CSVReader.rows(out + "/2026-09/" + u.folder + "/transactions.csv").count, 1)
        }
    }

    /// A symbolic link in place of a user's folder (or of `users`, or `admin`) had the re-run write
    /// that user's statement wherever it pointed, overwriting another folder's files, and the
    /// manifest list them as written (outside operations test). The links are removed and the
    /// files written into real folders; what the links pointed at is untouched.
    func testALinkInPlaceOfAUsersFolderIsNotWrittenThrough() throws {
        let ledger = try TestLedger()
        let zoe = try ledger.user("zoë")
        try ledger.expense(zoe, 1250, on: "2026-09-10T12:00:00+02:00", description: "lunch")
        let out = ledger.folder.appendingPathComponent("out").path
        let victim = ledger.folder.appendingPathComponent("victim").path
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: victim + "/transactions.csv"))
        let args = ["monthly", "--db", ledger.path, "--period", "2026-09", "--as-of", "2026-10-01", "--out", out, "--formats", "csv", "--quiet"]
        XCTAssertEqual(try CLI.run(args).status, 0)
        let period = out + "/2026-09"
        let userFolder = period + "/users/\(zoe)-zoë"
        try FileManager.default.removeItem(atPath: userFolder)
        try FileManager.default.createSymbolicLink(atPath: userFolder, withDestinationPath: victim)
        try FileManager.default.removeItem(atPath: period + "/admin")
        try FileManager.default.createSymbolicLink(atPath: period + "/admin", withDestinationPath: victim)
        let rerun = try CLI.run(args)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim + "/transactions.csv", encoding: .utf8), "theirs", "nothing written through a link")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim), ["transactions.csv"])
        for folder in [userFolder, period + "/admin"] {
            let kind = try FileManager.default.attributesOfItem(atPath: folder)[.type] as? FileAttributeType
            XCTAssertEqual(kind, .typeDirectory, folder)
        }
        XCTAssertEqual(try CSVReader.rows(userFolder + "/transactions.csv").count, 1)
    }
}

