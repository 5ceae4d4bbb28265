import EZBatch
import EZLedger
import EZTestSupport
import Foundation
import XCTest

/// `ezreport deliver` against a real SMTP server (aiosmtpd on 127.0.0.1): who gets what, and
/// what the server actually received, read back with Python's `email` package.
final class DeliverySendTests: SMTPSinkTestCase {
    func testEveryEligibleUserGetsExactlyOneParsableMessageWithTheManifestsStatement() throws {
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 0, run.stderr)
        let eligible = try fixture.eligible()
        let accepted = try sink.accepted()
        XCTAssertEqual(accepted.count, eligible.count)
        XCTAssertEqual(Set(accepted.flatMap(\.rcptTos)).count, accepted.count, "a recipient got two messages")
        XCTAssertEqual(sink.connections(), 1, "one connection is reused for every message")
        let messages = try ParsedMessage.parse(accepted.map { sink.path(of: $0) })
        let byAddress = Dictionary(uniqueKeysWithValues: messages.map { ($0.toAddresses.first ?? "", $0) })
        let emails = try ledgerEmails()
        let locales = try ledgerLocales()
        for entry in eligible {
            let message = try XCTUnwrap(byAddress[emails[entry.id] ?? ""], "no message for user \(entry.id)")
            let pdf = try XCTUnwrap(entry.files.first { $0.path.hasSuffix("/statement.pdf") })
            XCTAssertEqual(message.attachments.map(\.filename), ["statement-2026-10.pdf"])
            XCTAssertEqual(message.attachments.first?.contentType, "application/pdf")
            XCTAssertEqual(message.attachments.first?.sha256, pdf.sha256)
            XCTAssertEqual(message.messageId, "<statement.\(entry.id).2026-10.\(pdf.sha256.prefix(16))@ezwallet.example>")
            XCTAssertEqual(message.from, DeliveryFixture.from)
            let language = String((locales[entry.id] ?? "en").prefix(2))
            if let start = entry.summary?.periodStart, let end = entry.summary?.periodEnd {
                // Paid on another day than the 1st: the subject names the user's own dates, not "October 2026".
                let subject = try XCTUnwrap(message.subject)
                let title = Self.monthTitles[language] ?? Self.monthTitles["en"]!
                XCTAssertFalse(subject.contains(title), "user \(entry.id): \(subject)")
                for part in [String(Int(start.suffix(2))!), String(Int(end.suffix(2))!), "–", "2026"] {
                    XCTAssertTrue(subject.contains(part), "user \(entry.id): '\(part)' missing from \(subject)")
                }
            } else {
                XCTAssertEqual(message.subject, Self.subjects[language] ?? Self.subjects["en"], "user \(entry.id), \(locales[entry.id] ?? "?")")
            }
            XCTAssertEqual(message.structure, ["multipart/mixed", "multipart/alternative", "text/plain", "text/html", "application/pdf"])
            XCTAssertTrue(message.dateParses)
            XCTAssertTrue(message.crlf, "every line ends in CRLF")
            XCTAssertLessThanOrEqual(message.maxLineBytes, 998)
            XCTAssertEqual(message.defects, [])
            XCTAssertEqual(message.headerNames.filter { ["To", "Cc", "Bcc", "From", "Subject"].contains($0) }.sorted(),
                           ["From", "Subject", "To"])
        }
        let state = try fixture.state()
        XCTAssertEqual(state.values.filter { $0 == "sent" }.count, eligible.count)
        XCTAssertEqual(state[9], "skipped", "the sample's user 9 opted out (statement_email = 0)")
        XCTAssertTrue(run.stderr.contains("sent \(eligible.count), skipped 1, failed 0, uncertain 0, seconds"), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix(", sent by this run \(eligible.count)\n"), run.stderr)
        // A re-run sends nothing: the period's state is the same, and the summary says this run sent none
        // (it read "sent 18" alone, whatever the run had sent: outside operations test).
        let again = try fixture.deliver(smtpArgs)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("sent \(eligible.count), skipped 1, failed 0, uncertain 0, seconds"), again.stderr)
        XCTAssertTrue(again.stderr.hasSuffix(", sent by this run 0\n"), again.stderr)
    }

    func testTheBodyQuotesTheRecordedFiguresInTheUsersFormats() throws {
        XCTAssertEqual(try fixture.deliver(smtpArgs + ["--users", "2"]).status, 0)
        let entry = try XCTUnwrap(fixture.manifest().users.first { $0.id == 2 })
        let message = try XCTUnwrap(ParsedMessage.parse(sink.accepted().map { sink.path(of: $0) }).first)
        let text = try XCTUnwrap(message.text)
        let html = try XCTUnwrap(message.html)
        // User 2 (zoë) reports in USD with an en_US locale in the sample.
        let income = try XCTUnwrap(entry.incomeMinor), summary = try XCTUnwrap(entry.summary)
        let dollars = "$" + Self.grouped(income / 100) + "." + String(format: "%02d", income % 100)
        for needle in ["Income:", dollars, "Savings rate:", "Budgets over:", "Largest category:", summary.largestCategory ?? "?"] {
            XCTAssertTrue(text.contains(needle), "plain text lacks \(needle): \(text)")
        }
        XCTAssertTrue(html.contains(dollars) && html.contains("Savings rate"), html)
        XCTAssertEqual(message.toDisplayName, "zoë")
        XCTAssertTrue(message.rawHeaders["To"]?.hasPrefix("=?UTF-8?B?") ?? false, "a non-ASCII name is an RFC 2047 encoded-word")
    }

    func testTheMessageIsWrittenInTheUsersLanguage() throws {
        // In the 12-user sample, user 11 (mia.huber11) writes de_CH and user 3 (josé.müller) es_ES;
        // their months start on payday (`month_start_day` 27 and 25), so their October is named by its dates.
        XCTAssertEqual(try fixture.deliver(smtpArgs + ["--users", "3,11"]).status, 0)
        let messages = try ParsedMessage.parse(sink.accepted().map { sink.path(of: $0) })
        let german = try XCTUnwrap(messages.first { $0.toAddresses.first == "mia.huber11@example.org" })
        XCTAssertEqual(german.subject, "Ihr EZWallet-Auszug für 27.09. – 26.10.2026")
        let text = try XCTUnwrap(german.text)
        for needle in ["Hallo mia.huber11,", "anbei Ihr EZWallet-Auszug für 27.09. – 26.10.2026.",
                       "Einnahmen:", "Ausgaben:", "Sparquote:", "Budgets überschritten:", "Diese Nachricht wurde automatisch versandt"] {
            XCTAssertTrue(text.contains(needle), "German text lacks '\(needle)': \(text)")
        }
        for english in ["Hello", "Income", "Expenses", "Savings rate", "is attached"] {
            XCTAssertFalse(text.contains(english), "English '\(english)' in a German message: \(text)")
        }
        XCTAssertTrue(try XCTUnwrap(german.html).contains("<html lang=\"de\">"))
        let spanish = try XCTUnwrap(messages.first { $0.toAddresses.first == "user3@example.com" })
        XCTAssertEqual(spanish.subject, "Tu extracto de EZWallet de 25 sept – 24 oct 2026")
        XCTAssertTrue(try XCTUnwrap(spanish.text).contains("Hola josé.müller:"))
    }

    private static func grouped(_ v: Int64) -> String {
        let digits = Array(String(v))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }

    func testARerunSendsNothingAlreadySent() throws {
        XCTAssertEqual(try fixture.deliver(smtpArgs).status, 0)
        let first = try sink.accepted().count
        let lines = try fixture.journal().count
        let again = try fixture.deliver(smtpArgs)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try sink.accepted().count, first)
        XCTAssertEqual(try fixture.journal().count, lines, "a re-run with nothing to do appends nothing")
    }

    func testAStatementRenderedAgainIsSentAgain() throws {
        XCTAssertEqual(try fixture.deliver(smtpArgs).status, 0)
        let before = try sink.accepted().count
        // Another engine build would re-render; here the PDF of user 2 is re-rendered as a new file
        // and its manifest entry updated, as a monthly run after a ledger change would do.
        var manifest = try fixture.manifest()
        let index = try XCTUnwrap(manifest.users.firstIndex { $0.id == 2 })
        let fileIndex = try XCTUnwrap(manifest.users[index].files.firstIndex { $0.path.hasSuffix("statement.pdf") })
        let path = fixture.periodFolder + "/" + manifest.users[index].files[fileIndex].path
        var pdf = try Data(contentsOf: URL(fileURLWithPath: path))
        pdf.append(contentsOf: Array("\n% re-rendered\n".utf8))
        try pdf.write(to: URL(fileURLWithPath: path))
        manifest.users[index].files[fileIndex].sha256 = sha256(pdf)
        manifest.users[index].files[fileIndex].bytes = pdf.count
        try manifest.encoded().write(to: URL(fileURLWithPath: fixture.periodFolder + "/manifest.json"))
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 0, run.stderr)
        let accepted = try sink.accepted()
        XCTAssertEqual(accepted.count, before + 1)
        let last = try XCTUnwrap(ParsedMessage.parse([sink.path(of: accepted.last!)]).first)
        XCTAssertEqual(last.attachments.first?.sha256, sha256(pdf))
    }

    func testAStatementChangedOnDiskSinceTheManifestFailsThatUserOnly() throws {
        let entry = try XCTUnwrap(fixture.manifest().users.first { $0.id == 3 })
        let pdf = try XCTUnwrap(entry.files.first { $0.path.hasSuffix("statement.pdf") })
        try Data("not the statement".utf8).write(to: URL(fileURLWithPath: fixture.periodFolder + "/" + pdf.path))
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(try fixture.state()[3], "failed")
        XCTAssertTrue(run.stderr.contains("user 3 failed") && run.stderr.contains("SHA-256"), run.stderr)
        XCTAssertEqual(try sink.accepted().count, try fixture.eligible().count - 1)
    }

    /// The statement is read only from where monthly writes it: a manifest path edited to climb
    /// into another user's folder (with that file's SHA-256), or the statement replaced by a link
    /// to someone else's, attached another person's statement to this user's e-mail.
    func testOnlyTheUsersOwnStatementFileIsEverAttached() throws {
        let manifestPath = fixture.periodFolder + "/manifest.json"
        var manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
        var users = try XCTUnwrap(manifest["users"] as? [[String: Any]])
        let three = try XCTUnwrap(users.firstIndex { $0["id"] as? Int == 3 })
        let four = try XCTUnwrap(users.firstIndex { $0["id"] as? Int == 4 })
        func pdf(_ user: [String: Any]) throws -> [String: Any] {
            try XCTUnwrap((user["files"] as? [[String: Any]])?.first { ($0["path"] as? String)?.hasSuffix("/statement.pdf") == true })
        }
        let other = try pdf(users[four])
        let otherPath = try XCTUnwrap(other["path"] as? String)
        let climbing = (users[three]["folder"] as! String) + "/../" + otherPath.dropFirst("users/".count)
        users[three]["files"] = [["path": climbing, "bytes": other["bytes"]!, "sha256": other["sha256"]!]]
        manifest["users"] = users
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: URL(fileURLWithPath: manifestPath))
        let run = try fixture.deliver(smtpArgs)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertEqual(try fixture.state()[3], "failed")

        // A link in place of the statement, to user 4's, with its SHA-256 in the manifest.
        let own = (users[three]["folder"] as! String) + "/statement.pdf"
        users[three]["files"] = [["path": own, "bytes": other["bytes"]!, "sha256": other["sha256"]!]]
        manifest["users"] = users
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: URL(fileURLWithPath: manifestPath))
        try FileManager.default.removeItem(atPath: fixture.periodFolder + "/" + own)
        try FileManager.default.createSymbolicLink(atPath: fixture.periodFolder + "/" + own, withDestinationPath: fixture.periodFolder + "/" + otherPath)
        let linked = try fixture.deliver(smtpArgs + ["--retry-failed"])
        XCTAssertEqual(linked.status, 2, linked.stderr)
        XCTAssertTrue(linked.stderr.contains("symbolic link"), linked.stderr)
        XCTAssertEqual(try fixture.state()[3], "failed")
        let attached = try sink.accepted().flatMap { try ParsedMessage.parse([sink.path(of: $0)]) }
            .filter { $0.attachments.first?.sha256 == other["sha256"] as? String }
        XCTAssertEqual(attached.count, 1, "user 4's statement went to someone else too")
    }

    /// October 2026's subject in each language the statements are written in.
    static let subjects = [
        "en": "Your EZWallet statement for October 2026",
        "it": "Il tuo estratto conto EZWallet di ottobre 2026",
        "fr": "Votre relevé EZWallet pour octobre 2026",
        "es": "Tu extracto de EZWallet de octubre de 2026",
        "de": "Ihr EZWallet-Auszug für Oktober 2026",
        "ja": "2026年10月のEZWallet明細書",
    ]

    /// How each subject above names October 2026.
    static let monthTitles = ["en": "October 2026", "it": "ottobre 2026", "fr": "octobre 2026", "es": "octubre de 2026",
                              "de": "Oktober 2026", "ja": "2026年10月"]

    private func ledgerLocales() throws -> [Int64: String] {
        let out = try CLI.tool("/usr/bin/sqlite3", [fixture.ledgerPath, "SELECT id || '|' || locale FROM users"])
        var locales: [Int64: String] = [:]
        for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            if parts.count == 2, let id = Int64(parts[0]) { locales[id] = String(parts[1]) }
        }
        XCTAssertTrue(Set(locales.values.map { $0.prefix(2) }).isSuperset(of: ["en", "de", "fr", "es"]), "the sample mixes languages")
        return locales
    }

    private func ledgerEmails() throws -> [Int64: String] {
        let out = try CLI.tool("/usr/bin/sqlite3", [fixture.ledgerPath, "SELECT id || '|' || email FROM users"])
        var emails: [Int64: String] = [:]
        for line in String(decoding: out, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1)
            if parts.count == 2, let id = Int64(parts[0]) { emails[id] = String(parts[1]) }
        }
        return emails
    }
}

/// Lower-case hex SHA-256 (of bytes a test made itself).
func sha256(_ data: Data) -> String { FileDigest.sha256(data) }
