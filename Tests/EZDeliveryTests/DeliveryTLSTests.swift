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

    /// A server that wants a login the run did not give (530 on the first message) stops the run
    /// at once with exit 1 (it used to record every user `failed`, and a plain re-run then sent
    /// nobody); once the credentials are set, a plain run sends everyone, the first user too.
    func testAServerAskingForAuthenticationStopsTheRunAndTheNextPlainRunSendsEveryone() throws {
        let sink = try SMTPSink(starttls: (cert, key), auth: "mailer:\(password)")
        self.sink = sink
        let refused = try fixture.deliver(["--smtp", sink.url(), "--smtp-ca-file", cert, "--rate", "0"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("asks for authentication"), refused.stderr)
        XCTAssertEqual(try sink.accepted().count, 0)
        let tried = try fixture.journal().filter { ($0["smtp_code"] as? NSNumber)?.intValue == 530 }
        XCTAssertEqual(tried.count, 1, "only the first user was tried")
        let first = try XCTUnwrap((tried.first?["user_id"] as? NSNumber)?.int64Value)
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-ca-file", cert, "--rate", "0"],
                                      environment: ["EZREPORT_SMTP_USER": "mailer", "EZREPORT_SMTP_PASSWORD": password])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count)
        XCTAssertEqual(try fixture.state()[first], "sent")
    }

    /// `--smtp-insecure` allows plain text when a server offers no STARTTLS, but never with a
    /// login: the password went out in clear (`AUTH PLAIN`) to a server whose STARTTLS had been
    /// stripped or refused (outside delivery test). TLS stays required; nothing is sent.
    func testALoginIsNeverSentInPlainTextEvenWithInsecure() throws {
        let sink = try SMTPSink(auth: "mailer:\(password)")
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "0"],
                                      environment: ["EZREPORT_SMTP_USER": "mailer", "EZREPORT_SMTP_PASSWORD": password])
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("a login is never sent in plain text, even with --smtp-insecure"), run.stderr)
        XCTAssertEqual(sink.authAttempts(), 0, "no AUTH over the plain connection")
        XCTAssertEqual(try sink.received().count, 0)
        XCTAssertFalse(run.stderr.contains(password))
        // Without a login, --smtp-insecure still sends to the same kind of server in plain text.
        let open = try SMTPSink()
        defer { open.stop() }
        XCTAssertEqual(try fixture.deliver(["--smtp", open.url(), "--smtp-insecure", "--rate", "0", "--users", "1"]).status, 0)
    }

    /// A password without a user would be dropped by libcurl without a word: refused as a bad
    /// argument (64) before anything is read, recorded or sent.
    func testAPasswordWithoutAUserIsABadArgument() throws {
        let run = try fixture.deliver(["--smtp", "smtp://127.0.0.1:9", "--smtp-insecure"],
                                      environment: ["EZREPORT_SMTP_PASSWORD": password])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("set EZREPORT_SMTP_USER"), run.stderr)
        XCTAssertFalse(run.stderr.contains(password))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }

    /// A malformed --smtp URL is refused without echoing the password it holds (the argument
    /// parser used to print the whole value, once or twice).
    func testABadSMTPURLNeverEchoesItsPassword() throws {
        for url in ["smtps://ops:\(password)@mail.example.com:465 ", "smtp:/ops:\(password)@mail.example.com:587",
                    "http://ops:\(password)@mail.example.com", "smtp://ops:\(password)@mail.example.com:25\r\n"] {
            let run = try fixture.deliver(["--smtp", url])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertFalse(run.stderr.contains(password) || run.stderr.contains("Pässword"), run.stderr)
            XCTAssertTrue(run.stderr.contains("--smtp"), run.stderr)
        }
    }
}
