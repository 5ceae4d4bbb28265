import Foundation
import XCTest
@testable import EZDelivery

/// One SMTP session through libcurl, against the real test server: what is left of the
/// connection after a message fails.
final class SMTPConnectionTests: XCTestCase {
    /// A message whose whole-message time ran out (a slow server: its "554" came 3 s late) left
    /// libcurl's connection open and out of step: the late reply was read as the answer to the next
    /// message's `MAIL FROM`, failing a message that never went out. A failed message now closes
    /// the connection, and the next one is sent on a new one.
    func testAFailedMessageLeavesNoConnectionForTheNextToReadItsLateReply() throws {
        let sink = try SMTPSink()
        defer { sink.stop() }
        try sink.setRules(["late_reply_once": ["user2@example.com": [3, "554 5.7.1 rejected as spam"]]])
        var settings = SMTPSettings(url: sink.url(), insecure: true, user: nil, password: nil, caFile: nil)
        settings.replyTimeout = 30
        settings.messageTimeout = 1
        let connection = try SMTPConnection(settings: settings)
        let from = try XCTUnwrap(MailAddress("statements@ezwallet.example"))
        func message(_ to: String) -> Data {
            Data("From: statements@ezwallet.example\r\nTo: \(to)\r\nSubject: test\r\n\r\nHello.\r\n".utf8)
        }
        XCTAssertThrowsError(try connection.send(message("user2@example.com"), from: from, to: try XCTUnwrap(MailAddress("user2@example.com")))) { error in
            XCTAssertEqual((error as? SMTPError)?.kind, .uncertain, "\(error)")
        }
        let reply = try connection.send(message("user3@example.com"), from: from, to: try XCTUnwrap(MailAddress("user3@example.com")))
        XCTAssertEqual(reply.code, 250, reply.text ?? "")
        XCTAssertEqual(try sink.accepted().map(\.rcptTos), [["user3@example.com"]])
        XCTAssertEqual(sink.connections(), 2, "the second message on a new connection")
    }
}
