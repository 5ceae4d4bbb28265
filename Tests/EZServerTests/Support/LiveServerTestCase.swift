import Foundation
import XCTest

/// A test case with a fresh test ledger (``ServerFixture``) and a live server over it on
/// 127.0.0.1, started before each test and stopped after it, even when the test fails.
class LiveServerTestCase: XCTestCase {
    var fixture: ServerFixture!
    var server: LiveServer!

    override func setUp() async throws {
        fixture = try ServerFixture()
        server = try await LiveServer.start(ledger: fixture.ledger.path, secret: fixture.secret)
    }

    override func tearDown() async throws {
        await server?.stop()
    }
}
