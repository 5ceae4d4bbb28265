import Foundation
import XCTest
@testable import EZDelivery

/// `delivery.jsonl`: whole lines only, so that every line is a record `jq` can read.
final class DeliveryJournalTests: XCTestCase {
    /// A run killed mid-write leaves half a line; it used to stay (a newline was added after it),
    /// and the documented `jq` filters stopped there with a parse error. Opening the journal cuts
    /// it off; the whole lines before it are kept.
    func testAHalfWrittenLastLineIsCutOffWhenTheJournalIsOpened() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = #"{"address":"a@example.com","at":null,"attempt":1,"message_id":null,"reason":null,"smtp_code":null,"smtp_text":null,"statement_sha256":null,"status":"sending","user_id":2}"#
        try Data((whole + "\n" + #"{"address":"a@exa"#).utf8).write(to: URL(fileURLWithPath: path))
        let journal = try DeliveryJournal(path: path)
        try journal.append(DeliveryRecord(userId: 2, address: "a@example.com", messageId: nil, statementSha256: nil, status: .uncertain))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, "two records and the final newline: \(lines)")
        XCTAssertEqual(String(lines[0]), whole)
        XCTAssertEqual(lines[2], "")
        XCTAssertEqual(try DeliveryJournal.records(at: path).map(\.status), [.sending, .uncertain])
        for line in lines.dropLast() { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8))) }
    }
}

/// Which `failed` lines leave a user to the next plain run: deferred ones (a temporary failure),
/// including those an earlier version wrote before it said "deferred".
final class DeferredLineTests: XCTestCase {
    private func line(_ reason: String, code: Int?) -> DeliveryRecord {
        DeliveryRecord(userId: 5, address: "a@example.com", messageId: nil, statementSha256: nil, status: .failed,
                       reason: reason, smtpCode: code)
    }

    func testDeferredLinesOfThisAndEarlierVersionsAreSentAgainAndRefusalsAreNot() {
        XCTAssertTrue(line(DeliveryRecord.deferredReason("MAIL failed: 451 (SMTP 451: 451 later)", attempts: 3), code: 451).isDeferred)
        // Written before "deferred" existed: an outage's users were left `failed` for good.
        XCTAssertTrue(line("MAIL failed: 451 (SMTP 451: 451 later) (after 3 attempts)", code: 451).isDeferred)
        XCTAssertTrue(line("Couldn't connect to server: Failed to connect to 127.0.0.1 port 2524 (after 3 attempts)", code: nil).isDeferred)
        // Their silent-server timeouts carried the 250 of the command before (outside re-test).
        XCTAssertTrue(line("Timeout was reached: server response timeout (SMTP 250: 250 2.1.0 OK) (after 3 attempts)", code: 250).isDeferred)
        XCTAssertFalse(line("RCPT failed: 550 (SMTP 550: 550 no such user)", code: 550).isDeferred)
        XCTAssertFalse(line("something (after 3 attempts)", code: 550).isDeferred, "a 5xx is final, whatever the words")
        XCTAssertFalse(line(DeliveryRecord.retryingReason("MAIL failed: 451", delay: 1), code: 451).isDeferred)
    }
}

/// Whose a temporary failure is: the server's (it counts toward stopping the run) or one
/// recipient's, by the command and the enhanced status code (RFC 3463).
final class ServerFailureTests: XCTestCase {
    private func error(_ code: Int, _ text: String?, curl: String = "Failed sending data to the peer: RCPT failed: 452") -> SMTPError {
        SMTPError(curlCode: 55, curlMessage: curl, smtpCode: code, smtpText: text, dataHandedOver: false)
    }

    func testTheMailSystemsOwnStatusIsTheServersAndAFullMailboxIsTheRecipients() {
        XCTAssertTrue(error(452, "452 4.3.1 Insufficient system storage").isAboutTheServer, "storage full: every RCPT alike")
        XCTAssertTrue(error(451, "451 4.4.1 No answer from host").isAboutTheServer)
        XCTAssertFalse(error(452, "452 4.2.2 Mailbox full").isAboutTheServer)
        XCTAssertFalse(error(450, "450 Mailbox busy").isAboutTheServer, "no enhanced code: RCPT TO is about the recipient")
        XCTAssertTrue(error(451, "451 Temporary local problem", curl: "Failed sending data to the peer: MAIL failed: 451").isAboutTheServer)
        XCTAssertTrue(error(421, "421 4.7.0 closing").isAboutTheServer)
        XCTAssertTrue(error(0, nil, curl: "Timeout was reached").isAboutTheServer)
    }
}
