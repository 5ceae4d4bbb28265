import EZServer
import EZTestSupport
import Foundation
import HTTPTypes
import XCTest

/// Rotating the HS256 secret without a window of 401s: the server is started with the new secret
/// and the old one (`--jwt-previous-secret-file`) before the app switches, so a token signed with
/// either is accepted meanwhile.
final class SecretRotationTests: XCTestCase {
    private let previous = Array("the-previous-secret-0123456789-0123456789".utf8)
    private func csv(_ user: Int64) -> String { "/v1/users/\(user)/statement/2026-09/categories.csv?as_of=2026-10-01" }

    func testWhileRotatingATokenSignedWithTheNewOrThePreviousSecretIsAccepted() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret) { $0.previousJWTSecrets = [self.previous] }
        let withCurrent = try await fixture.token(fixture.alice)
        let withPrevious = try await TokenKeys.hs256(secret: previous).mint(userId: fixture.alice, ttl: 600)
        let withNeither = try await TokenKeys.hs256(secret: Array("neither-secret-0123456789-0123456789-xyz".utf8)).mint(userId: fixture.alice, ttl: 600)
        let expiredPrevious = try await TokenKeys.hs256(secret: previous).mint(userId: fixture.alice, ttl: 1, now: Date().addingTimeInterval(-120))
        var statuses: [HTTPResponse.Status] = []
        for token in [withCurrent, withPrevious, withNeither, expiredPrevious] {
            statuses.append(try await server.get(csv(fixture.alice), token: token).status)
        }
        // The previous secret grants no more than the current one: only what the ledger allows.
        let stranger = try await server.get(csv(fixture.dave), token: withPrevious).status
        await server.stop()
        XCTAssertEqual(statuses, [.ok, .ok, .unauthorized, .unauthorized])
        XCTAssertEqual(stranger, .notFound)
    }

    func testWithoutThePreviousSecretItsTokensAreRefused() async throws {
        let fixture = try ServerFixture()
        let server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
        let withPrevious = try await TokenKeys.hs256(secret: previous).mint(userId: fixture.alice, ttl: 600)
        let status = try await server.get(csv(fixture.alice), token: withPrevious).status
        await server.stop()
        XCTAssertEqual(status, .unauthorized)
    }

    /// The command reads every previous secret file as it reads the current one: a short one stops it.
    func testAPreviousSecretFileTooShortStopsTheServerNamingIt() throws {
        let fixture = try ServerFixture()
        let folder = fixture.ledger.folder.path
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/new.key", contents: Data(fixture.secret)), "could not create \(folder + "/new.key")")
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/old.key", contents: Data("short\n".utf8)), "could not create \(folder + "/old.key")")
        let outcome = try CLI.run(["serve", "--db", fixture.ledger.path, "--port", "0", "--jwt-secret-file", folder + "/new.key",
                                   "--jwt-previous-secret-file", folder + "/old.key"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.contains("cannot use JWT secret file '\(folder)/old.key': the secret is shorter than 32 bytes"), outcome.stderr)
    }

    /// A secret long enough but not random is refused, by `serve` and by `token`: 40 spaces, 33
    /// newlines, and the documentation's placeholder, which would let anyone who read the docs
    /// mint an admin's token, were accepted (outside server test).
    func testASecretThatIsNotRandomOrIsTheDocumentationsPlaceholderIsRefused() throws {
        let fixture = try ServerFixture()
        let folder = fixture.ledger.folder.path
        let cases = [("spaces.key", String(repeating: " ", count: 40), "the secret has fewer than 8 different bytes"),
                     ("newlines.key", String(repeating: "\n", count: 34), "the secret has fewer than 8 different bytes"),
                     ("placeholder.key", "replace-with-at-least-32-random-bytes-shared-with-the-app\n", "the secret is the documentation's placeholder")]
        for (name, contents, reason) in cases {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(contents.utf8)))
            for args in [["serve", "--db", fixture.ledger.path, "--port", "0"], ["token", "--user", "1"]] {
                let outcome = try CLI.run(args + ["--jwt-secret-file", folder + "/" + name])
                XCTAssertEqual(outcome.status, 1, "\(args[0]) \(name): \(outcome.stderr)")
                XCTAssertTrue(outcome.stderr.contains("cannot use JWT secret file '\(folder)/\(name)': \(reason)"), outcome.stderr)
                XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
            }
        }
    }

    // MARK: - Reading the secret files again on SIGHUP

    /// Waits (up to 5 s) until the server's log holds `text`.
    private func waitForLog(_ server: ServeProcess, _ text: String) async throws {
        for _ in 0..<100 where !server.stderr.contains(text) { try await Task.sleep(for: .milliseconds(50)) }
    }

    /// Kubernetes updates a mounted secret in place and the operator (or a sidecar) sends SIGHUP:
    /// the server reads the files again and accepts the new secret's tokens from then on, with
    /// no restart, and the secret left behind only while it is named a previous one.
    func testOnSIGHUPTheServerReadsTheSecretFilesAgain() async throws {
        let fixture = try ServerFixture()
        let server = try await ServeProcess(fixture: fixture)
        let folder = fixture.ledger.folder.path
        let newSecret = Array("the-rotated-secret-0123456789-0123456789".utf8)
        let withOld = try await fixture.token(fixture.alice)
        let withNew = try await TokenKeys.hs256(secret: newSecret).mint(userId: fixture.alice, ttl: 600)
        func status(_ token: String) async throws -> Int {
            Int(try await TestClientRequest.get(port: server.port, csv(fixture.alice), token: token).status.code)
        }
        let before = [try await status(withOld), try await status(withNew)]
        // The file is rewritten (as a mounted secret is), then the signal.
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/secret.key", contents: Data(newSecret + [0x0A])), "could not create \(folder + "/secret.key")")
        XCTAssertEqual(kill(server.process.processIdentifier, SIGHUP), 0)
        try await waitForLog(server, "JWT secrets reloaded")
        let after = [try await status(withOld), try await status(withNew)]
        XCTAssertTrue(server.process.isRunning, "SIGHUP must not end the server")
        let exit = try await server.stop()
        XCTAssertEqual(before, [200, 401])
        XCTAssertEqual(after, [401, 200])
        XCTAssertEqual(exit, 0)
        XCTAssertFalse(server.stderr.contains(String(decoding: newSecret, as: UTF8.self)), "a secret in the log")
    }

    /// A secret file caught half-written (too short) or removed is logged with its path and
    /// reason, and the keys in use stay: a bad reload never locks the app out.
    func testABadSecretFileOnSIGHUPKeepsTheKeysInUse() async throws {
        let fixture = try ServerFixture()
        let server = try await ServeProcess(fixture: fixture)
        let folder = fixture.ledger.folder.path
        let token = try await fixture.token(fixture.alice)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/secret.key", contents: Data("short\n".utf8)), "could not create \(folder + "/secret.key")")
        XCTAssertEqual(kill(server.process.processIdentifier, SIGHUP), 0)
        try await waitForLog(server, "JWT secrets not reloaded")
        let status = try await TestClientRequest.get(port: server.port, csv(fixture.alice), token: token).status
        try await server.stop()
        XCTAssertEqual(status, .ok)
        XCTAssertTrue(server.stderr.contains("JWT secrets not reloaded, the previous keys stay in use"), server.stderr)
        XCTAssertTrue(server.stderr.contains("cannot use JWT secret file '\(folder)/secret.key': the secret is shorter than 32 bytes"),
                      server.stderr)
    }
}
