import Foundation
import XCTest

/// A test case with a sample ledger and its monthly run (``DeliveryFixture``) and a fresh SMTP
/// sink on 127.0.0.1, stopped after each test even when it fails.
class SMTPSinkTestCase: XCTestCase {
    var fixture: DeliveryFixture!
    var sink: SMTPSink!

    override func setUpWithError() throws {
        fixture = try DeliveryFixture()
        sink = try SMTPSink()
    }

    override func tearDown() {
        sink?.stop()
        sink = nil
        fixture = nil
    }

    /// `deliver`'s options for the sink: plain SMTP on loopback, no rate cap.
    var smtpArgs: [String] { ["--smtp", sink.url(), "--smtp-insecure", "--rate", "0"] }
}
