import EZTestSupport
import Foundation
import XCTest

/// Who gets what: hostile usernames and addresses never add a header or a recipient, unusable
/// addresses and opt-outs are skipped with a reason, `--skip-empty`, ledgers with and without the
/// optional `statement_email` column, and `--dry-run`.
final class RecipientRulesTests: XCTestCase {
    var ledger: TestLedger!
    var sink: SMTPSink?
    var ids: [String: Int64] = [:]

    override func setUpWithError() throws {
        ledger = try TestLedger()
        func user(_ key: String, _ name: String, email: String, active: Bool = true) throws {
            let id = try ledger.user(name, currency: "EUR", locale: "it_IT", email: email)
            ids[key] = id
            if active {
                try ledger.income(id, 250_000, on: "2026-10-01T09:00:00+02:00")
                try ledger.expense(id, 123_456, on: "2026-10-03T12:00:00+02:00", category: try ledger.category(id, "Spesa"))
            }
        }
        try user("plain", "alice", email: "alice@example.com")
        try user("accents", "Zoë Müller-Łukasz 山田", email: "zoe@example.com")
        try user("specials", "Boss, \"the\" <admin>", email: "boss@example.com")
        try user("crlfName", "eve\r\nBcc: victim@evil.example", email: "eve@example.com")
        try user("crlfAddress", "mallory", email: "mallory@example.com\r\nBcc: victim@evil.example")
        try user("twoAddresses", "trent", email: "trent@example.com, victim@evil.example")
        try user("noAddress", "nobody", email: "")
        try user("optedOut", "oscar", email: "oscar@example.com")
        try user("badFlag", "bart", email: "bart@example.com")
        try user("idle", "ivan", email: "ivan@example.com", active: false)
        try user("nulAddress", "nina", email: "nina@example.com")
        try user("longName", String(repeating: "A", count: 1_200), email: "long@example.com")
        try user("wordName", "=?UTF-8?B?QmNjOiB4QGV2aWwudGVzdA==?=", email: "word@example.com")
        // SQLite keeps the NUL inside the text; read up to the NUL it would be a valid, other address.
        try ledger.execute("UPDATE users SET email = 'nina@example.com' || char(0) || 'evil@x.test' WHERE id = ?", [ids["nulAddress"]!])
        try ledger.execute("UPDATE users SET statement_email = 0 WHERE id = ?", [ids["optedOut"]!])
        try ledger.execute("UPDATE users SET statement_email = 'yes' WHERE id = ?", [ids["badFlag"]!])
    }

    override func tearDown() {
        sink?.stop()
        sink = nil
        ledger = nil
    }

    private func reason(_ fixture: DeliveryFixture, _ key: String) throws -> String? {
        try fixture.journal().last { ($0["user_id"] as? NSNumber)?.int64Value == ids[key] }?["reason"] as? String
    }

    func testHostileNamesAndAddressesNeverAddAHeaderOrARecipient() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path)
        let sink = try SMTPSink()
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "0"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // An address that cannot be used is named on standard error, as the dry run names it (a
        // real run said only "skipped 6": outside delivery test); an opt-out is a choice, not named.
        XCTAssertTrue(run.stderr.contains("user \(ids["noAddress"]!) skipped: unusable address: no address"), run.stderr)
        XCTAssertTrue(run.stderr.contains("user \(ids["crlfAddress"]!) skipped: unusable address: "), run.stderr)
        XCTAssertFalse(run.stderr.contains("user \(ids["optedOut"]!) skipped"), run.stderr)
        let accepted = try sink.accepted()
        XCTAssertEqual(Set(accepted.flatMap(\.rcptTos)),
                       ["alice@example.com", "zoe@example.com", "boss@example.com", "eve@example.com", "ivan@example.com",
                        "long@example.com", "word@example.com"])
        XCTAssertFalse(accepted.flatMap(\.rcptTos).contains { $0.contains("evil") })
        let messages = try ParsedMessage.parse(accepted.map { sink.path(of: $0) })
        for message in messages {
            XCTAssertEqual(message.toAddresses.count, 1, message.to)
            XCTAssertFalse(message.headerNames.contains("Bcc") || message.headerNames.contains("Cc"), "\(message.headerNames)")
            XCTAssertEqual(message.defects, [])
            XCTAssertTrue(message.crlf)
            for (name, value) in message.rawHeaders {
                XCTAssertTrue(value.unicodeScalars.allSatisfy { $0.isASCII }, "header \(name) is not ASCII: \(value)")
                for line in value.components(separatedBy: "\r\n") { XCTAssertLessThanOrEqual(line.utf8.count, 998) }
            }
        }
        let names = Dictionary(uniqueKeysWithValues: messages.map { ($0.toAddresses[0], $0.toDisplayName ?? "") })
        XCTAssertEqual(names["zoe@example.com"], "Zoë Müller-Łukasz 山田")
        XCTAssertEqual(names["boss@example.com"], "Boss, \"the\" <admin>")
        let eve = try XCTUnwrap(names["eve@example.com"])
        XCTAssertFalse(eve.contains("\r") || eve.contains("\n"))
        XCTAssertEqual(eve.split(whereSeparator: \.isWhitespace).joined(separator: " "), "eve Bcc: victim@evil.example",
                       "line breaks become spaces inside one encoded display name")
        // Python's parser puts a space between adjacent encoded-words of a phrase (RFC 2047 §6.2
        // says to drop the folding whitespace there, as mail readers do): compare without it.
        XCTAssertEqual(names["long@example.com"]?.filter { $0 != " " }, String(repeating: "A", count: 1_200),
                       "a 1,200-character name is folded as encoded-words, every line under 998")
        XCTAssertEqual(names["word@example.com"], "=?UTF-8?B?QmNjOiB4QGV2aWwudGVzdA==?=",
                       "a name that looks like an encoded-word reads as itself, not as what it would decode to")
        let nul = try reason(fixture, "nulAddress") ?? "nil"
        XCTAssertTrue(nul.contains("control character"), "an address with a NUL is skipped, not cut at the NUL: \(nul)")
        XCTAssertTrue(try reason(fixture, "crlfAddress")?.contains("line break") ?? false)
        XCTAssertTrue(try reason(fixture, "twoAddresses")?.contains("'@'") ?? false)
        XCTAssertEqual(try reason(fixture, "noAddress"), "unusable address: no address")
        XCTAssertEqual(try reason(fixture, "optedOut"), "opted out (statement_email = 0)")
        XCTAssertEqual(try reason(fixture, "badFlag"), "statement_email must be 0 or 1 (got 'yes')")
        let state = try fixture.state()
        for key in ["crlfAddress", "twoAddresses", "noAddress", "optedOut", "badFlag", "nulAddress"] {
            XCTAssertEqual(state[ids[key]!], "skipped", key)
        }
        let italian = try XCTUnwrap(messages.first { $0.toAddresses == ["alice@example.com"] }?.text)
        XCTAssertTrue(italian.contains("2.500,00") && italian.contains("1.234,56"), "it_IT number formats: \(italian)")
    }

    /// A statement goes only to the user it was written for: when the id is held by someone else
    /// by the time `deliver` runs (the row erased and the id given to a new sign-up, or another
    /// ledger than the run's), the user fails with a reason and nothing is sent to the newcomer.
    func testAStatementIsNeverSentToAnotherPersonHoldingItsUserId() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path)
        let alice = try XCTUnwrap(ids["plain"])
        try ledger.execute("UPDATE users SET username = 'new.signup', email = 'new.signup@example.net' WHERE id = ?", [alice])
        let sink = try SMTPSink()
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "0"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertFalse(try sink.accepted().flatMap(\.rcptTos).contains("new.signup@example.net"))
        XCTAssertTrue(try sink.accepted().flatMap(\.rcptTos).contains("zoe@example.com"), "the others are sent")
        XCTAssertEqual(try fixture.state()[alice], "failed")
        let why = try XCTUnwrap(try reason(fixture, "plain"))
        XCTAssertTrue(why.contains("users/\(alice)-alice") && why.contains("\(alice)-new.signup"), why)
    }

    /// The same when the newcomer's name cleans up to the same folder name ("isla smith" and
    /// "isla/smith", both `…-isla_smith`): the folder alone let the statement go to the new address.
    func testANewcomerWhoseNameMakesTheSameFolderIsNotSentTheOldStatement() throws {
        let alice = try XCTUnwrap(ids["plain"])
        try ledger.execute("UPDATE users SET username = 'isla smith' WHERE id = ?", [alice])
        let fixture = try DeliveryFixture(ledger: ledger.path)
        try ledger.execute("UPDATE users SET username = 'isla/smith', email = 'mallory@example.net' WHERE id = ?", [alice])
        let sink = try SMTPSink()
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "0"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertFalse(try sink.accepted().flatMap(\.rcptTos).contains("mallory@example.net"))
        XCTAssertEqual(try fixture.state()[alice], "failed")
        let why = try XCTUnwrap(try reason(fixture, "plain"))
        XCTAssertTrue(why.contains("reused id"), why)
    }

    /// The id and the exact username can both come back: the highest ids erased, SQLite gives the
    /// next sign-up the same id, and they take the freed username. The erased person's statement
    /// went to them (outside operations test); the account's creation time tells them apart.
    func testANewcomerWithTheSameIdAndUsernameIsNotSentTheErasedUsersStatement() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path)
        let alice = try XCTUnwrap(ids["plain"])
        XCTAssertEqual(try fixture.manifest().users.first { $0.id == alice }?.accountCreatedAt, "2024-01-01T00:00:00.000Z")
        try ledger.execute("UPDATE users SET created_at = '2026-11-20T10:00:00Z', email = 'someone.else@example.org' WHERE id = ?", [alice])
        let sink = try SMTPSink()
        self.sink = sink
        let run = try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "0"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertFalse(try sink.accepted().flatMap(\.rcptTos).contains("someone.else@example.org"))
        XCTAssertEqual(try fixture.state()[alice], "failed")
        let why = try XCTUnwrap(try reason(fixture, "plain"))
        XCTAssertTrue(why.contains("was written for an account created 2024-01-01T00:00:00.000Z, but user \(alice) in this ledger was created 2026-11-20T10:00:00.000Z"), why)
    }

    func testSkipEmptySkipsUsersWithoutTransactionsOfTheirOwn() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path)
        let sink = try SMTPSink()
        self.sink = sink
        XCTAssertEqual(try fixture.deliver(["--smtp", sink.url(), "--smtp-insecure", "--rate", "0", "--skip-empty"]).status, 0)
        XCTAssertFalse(try sink.accepted().flatMap(\.rcptTos).contains("ivan@example.com"))
        XCTAssertEqual(try fixture.state()[ids["idle"]!], "skipped")
        XCTAssertEqual(try reason(fixture, "idle"), "empty")
        XCTAssertTrue(try sink.accepted().flatMap(\.rcptTos).contains("alice@example.com"))
    }

    func testCheckQuarantinesAStatementEmailThatIsNot0Or1() throws {
        let run = try CLI.run(["check", "--db", ledger.path])
        XCTAssertEqual(run.status, 3, run.stderr + run.text)
        XCTAssertTrue(run.text.contains("users: statement_email must be") && run.text.contains("ids \(ids["badFlag"]!)"), run.text)
    }

    func testALedgerWithoutTheStatementEmailColumnStillWorksAndEveryoneWantsTheirStatement() throws {
        let schema = try String(contentsOf: TestLedger.schemaURL, encoding: .utf8)
            .replacingOccurrences(of: "    statement_email INTEGER,\n", with: "")
        XCTAssertFalse(schema.contains("statement_email"))
        let old = try TestLedger(schema: schema)
        let id = try old.user("olga", email: "olga@example.com")
        try old.income(id, 1_000, on: "2026-10-02T10:00:00+02:00")
        XCTAssertEqual(try CLI.run(["check", "--db", old.path]).status, 0)
        let fixture = try DeliveryFixture(ledger: old.path)
        let dry = fixture.folder.appendingPathComponent("eml").path
        let run = try fixture.deliver(["--dry-run", dry])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dry + "/\(id)-olga.eml"))
    }

    func testDryRunWritesParsableMessagesAndRecordsNothing() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path)
        let dry = fixture.folder.appendingPathComponent("eml").path
        let run = try fixture.deliver(["--dry-run", dry])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("dry run: 7 messages written to \(dry)"), run.stderr)
        // No journal keeps a skip's reason in a dry run: each skipped user is named with it.
        XCTAssertTrue(run.stderr.contains("user \(ids["optedOut"]!) would be skipped: opted out (statement_email = 0)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("user \(ids["noAddress"]!) would be skipped: unusable address: no address"), run.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: dry).filter { $0.hasSuffix(".eml") }.sorted()
        XCTAssertEqual(files.count, 7)
        XCTAssertTrue(files.contains("\(ids["crlfName"]!)-eve_Bcc__victim_evil.example.eml"), "\(files)")
        let messages = try ParsedMessage.parse(files.map { dry + "/" + $0 })
        let manifest = try fixture.manifest()
        for message in messages {
            XCTAssertEqual(message.defects, [])
            let id = try XCTUnwrap(Int64(message.messageId.split(separator: ".")[1]))
            let pdf = manifest.users.first { $0.id == id }?.files.first { $0.path.hasSuffix("statement.pdf") }
            XCTAssertEqual(message.attachments.first?.sha256, pdf?.sha256)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.json"))
    }

    /// `--attach pdf,xlsx` on a period whose statements were written without xlsx is the run's
    /// configuration, not each user's problem: it failed every user one by one (exit 2, each then
    /// needing --retry-failed; outside operations test). One line, exit 1, nothing recorded.
    func testAttachingAFormatTheRunDidNotWriteFailsTheRunBeforeAnythingIsRecorded() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path, formats: "pdf")
        for args in [["--dry-run", fixture.folder.appendingPathComponent("eml").path], ["--smtp", "smtp://127.0.0.1:9", "--smtp-insecure"]] {
            let run = try fixture.deliver(args + ["--attach", "pdf,xlsx"])
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains("were written without xlsx (the manifest's formats: pdf): nothing was sent; "
                                              + "run 'ezreport monthly' for this period with --formats including xlsx, or deliver without --attach xlsx"),
                          run.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.periodFolder + "/delivery.jsonl"))
    }

    func testAttachPdfAndXlsxSendsBothWithTheirTypes() throws {
        let fixture = try DeliveryFixture(ledger: ledger.path, formats: "pdf,xlsx")
        let dry = fixture.folder.appendingPathComponent("eml").path
        XCTAssertEqual(try fixture.deliver(["--dry-run", dry, "--attach", "pdf,xlsx", "--users", "\(ids["plain"]!)"]).status, 0)
        let message = try XCTUnwrap(ParsedMessage.parse([dry + "/\(ids["plain"]!)-alice.eml"]).first)
        XCTAssertEqual(message.attachments.map(\.filename), ["statement-2026-10.pdf", "statement-2026-10.xlsx"])
        XCTAssertEqual(message.attachments.last?.contentType, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    }
}
