import EZTestSupport
import Foundation
import XCTest

/// TLS and authentication against aiosmtpd with a self-signed certificate made by openssl for
/// 127.0.0.1: STARTTLS, implicit TLS (smtps://), AUTH with credentials from the environment or
/// a password file, and refusals that leave nothing sent.
final class DeliveryTLSTests: XCTestCase {
    var fixture: DeliveryFixture!
    var sink: SMTPSink?
    var cert = "", key = ""
    let password = "s3cret-Pässword"

    override func setUpWithError() throws {
        fixture = try DeliveryFixture()
        cert = fixture.folder.appendingPathComponent("cert.pem").path
        key = fixture.folder.appendingPathComponent("key.pem").path
        _ = try CLI.tool("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                              "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
    }

    override func tearDown() {
        sink?.stop()
        sink = nil
        fixture = nil
    }

    func testSTARTTLSWithAuthFromTheEnvironmentSendsAndNeverPrintsThePassword() throws {
        let sink = try SMTPSink(starttls: (cert, key), auth: "mailer:\(password)")
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-ca-file", cert, "--rate", "0"],
                                      environment: ["EZREPORT_SMTP_USER": "mailer", "EZREPORT_SMTP_PASSWORD": password])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count)
        XCTAssertEqual(sink.connections(), 1)
        let journal = try String(contentsOfFile: fixture.periodFolder + "/delivery.jsonl", encoding: .utf8)
        XCTAssertFalse(journal.contains(password) || run.stderr.contains(password))
    }

    func testAPasswordFileWorksAndAWrongPasswordSendsNothingAndExits1() throws {
        let sink = try SMTPSink(starttls: (cert, key), auth: "mailer:\(password)")
        self.sink = sink
        let file = fixture.folder.appendingPathComponent("password").path
        try Data("wrong-password\n".utf8).write(to: URL(fileURLWithPath: file))
        let refused = try fixture.deliver(["--smtp", sink.url(), "--smtp-ca-file", cert, "--smtp-password-file", file],
                                          environment: ["EZREPORT_SMTP_USER": "mailer"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("nothing was sent"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("wrong-password"))
        XCTAssertEqual(try sink.received().count, 0)
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-ca-file", cert, "--smtp-password-file", file, "--rate", "0"],
                                      environment: ["EZREPORT_SMTP_USER": "mailer"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count)
    }

    func testAnUntrustedCertificateIsRefusedBeforeAnythingIsSent() throws {
        let sink = try SMTPSink(starttls: (cert, key))
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url()])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(try sink.received().count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }

    func testSmtpsSpeaksTLSFromTheFirstByte() throws {
        let sink = try SMTPSink(smtps: (cert, key))
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(scheme: "smtps"), "--smtp-ca-file", cert, "--rate", "0", "--users", "1,2,3"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sink.accepted().count, 3)
        let messages = try ParsedMessage.parse(try sink.accepted().map { sink.path(of: $0) })
        XCTAssertEqual(messages.map { $0.attachments.count }, [1, 1, 1])
    }
}
