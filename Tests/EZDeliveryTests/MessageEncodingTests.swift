import EZBatch
import EZCore
import EZLocale
import Foundation
import XCTest
@testable import EZDelivery

/// Addresses, header encoding and the MIME text, checked without a server (the end-to-end tests
/// check the same through Python's `email` parser).
final class MessageEncodingTests: XCTestCase {
    func testOnlyPlainAddrSpecsAreAccepted() {
        for good in ["a@b.example", "first.last+tag@sub.example.co.uk", "o'brien@example.ie", "x_y-z@a-b.example"] {
            XCTAssertNotNil(MailAddress(good), good)
        }
        let bad = ["", "plain", "a@b", "a@@b.example", "a@b.example, c@d.example", "a b@c.example", "\"a\"@b.example",
                   "a@b.example\r\nBcc: c@d.example", "a@b.example\n", ".a@b.example", "a.@b.example", "a..b@c.example",
                   "zoë@example.com", "a@-b.example", "a@b_c.example", "a@[127.0.0.1]", "<a@b.example>",
                   String(repeating: "a", count: 65) + "@b.example", "a@" + String(repeating: "b", count: 64) + ".example"]
        for address in bad {
            XCTAssertNil(MailAddress(address), address.debugDescription)
            XCTAssertNotNil(MailAddress.problem(address), address.debugDescription)
        }
        XCTAssertEqual(MailAddress("me@mail.example.com")?.domain, "mail.example.com")
    }

    func testEncodedWordsStayWithinSeventyFiveCharactersAndNeverSplitACharacter() throws {
        let text = String(repeating: "Zoë 山田 🙂 ", count: 12)
        let words = HeaderEncoding.encodedWords(text)
        XCTAssertGreaterThan(words.count, 1)
        var bytes = Data()
        for word in words {
            XCTAssertLessThanOrEqual(word.count, 75, word)
            XCTAssertTrue(word.hasPrefix("=?UTF-8?B?") && word.hasSuffix("?="))
            let payload = try XCTUnwrap(Data(base64Encoded: String(word.dropFirst(10).dropLast(2))))
            XCTAssertNotNil(String(data: payload, encoding: .utf8), "each word decodes on its own")
            bytes += payload
        }
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), text)
    }

    func testPlainHeaderTextStaysReadableAndAnythingElseIsEncoded() {
        XCTAssertEqual(HeaderEncoding.unstructured("Your EZWallet statement for October 2026"), "Your EZWallet statement for October 2026")
        XCTAssertTrue(HeaderEncoding.unstructured("Résumé").hasPrefix("=?UTF-8?B?"))
        XCTAssertTrue(HeaderEncoding.unstructured("looks =?like?= a word").hasPrefix("=?UTF-8?B?"))
        XCTAssertEqual(HeaderEncoding.displayName("alice"), "alice")
        XCTAssertEqual(HeaderEncoding.displayName("a, b"), "\"a, b\"", "quoted: a bare comma would split the To list")
        XCTAssertEqual(HeaderEncoding.displayName("a <b@c.d>"), "\"a <b@c.d>\"", "quoted: no second address")
        XCTAssertEqual(HeaderEncoding.displayName("mia.huber10"), "\"mia.huber10\"", "a dotted username reads as itself")
        XCTAssertEqual(HeaderEncoding.displayName("say \"hi\" \\o/"), "\"say \\\"hi\\\" \\\\o/\"", "quotes and backslashes escaped")
        XCTAssertTrue(HeaderEncoding.displayName("Zoë").hasPrefix("=?UTF-8?B?"), "non-ASCII is encoded")
        XCTAssertFalse(HeaderEncoding.displayName("x\r\nBcc: y").contains("\r\nBcc"), "no line break survives")
        XCTAssertFalse(HeaderEncoding.unstructured("x\r\nBcc: y").contains("\r\nBcc"))
    }

    func testLongNamesAndEncodedWordLookalikesAreEncodedAndFolded() {
        let long = HeaderEncoding.displayName(String(repeating: "A", count: 990))
        XCTAssertTrue(long.hasPrefix("=?UTF-8?B?"), "990 atom characters in a row cannot be folded as they are")
        XCTAssertLessThanOrEqual(long.components(separatedBy: "\r\n").map(\.utf8.count).max() ?? 0, 76)
        let quoted = HeaderEncoding.displayName(String(repeating: "a.", count: 450))
        XCTAssertTrue(quoted.hasPrefix("=?UTF-8?B?"), "a 900-byte quoted-string would pass 998 with the address")
        XCTAssertEqual(HeaderEncoding.displayName(String(repeating: "b", count: 64)), String(repeating: "b", count: 64))
        XCTAssertTrue(HeaderEncoding.displayName("=?UTF-8?B?QmNjOiB4QGV2aWwudGVzdA==?=").hasPrefix("=?UTF-8?B?PT9"),
                      "the literal text is encoded, so a reader shows it and not what it decodes to")
        XCTAssertTrue(HeaderEncoding.displayName("a =?x?= b").hasPrefix("=?UTF-8?B?"), "inside a quoted-string too")
        let subject = HeaderEncoding.unstructured(String(repeating: "word ", count: 300))
        XCTAssertLessThanOrEqual(subject.components(separatedBy: "\r\n").map(\.utf8.count).max() ?? 0, 76)
    }

    func testASendFailureMeansTheEndOfDataNeverArrivedAndIsRetried() {
        // libcurl had taken every byte, then writing to the socket failed: the final "." was not
        // written, so the server discarded the message (RFC 5321 §4.1.1.4).
        let sendFailed = SMTPError(curlCode: 55, curlMessage: "Failed sending data to the peer: Send failure: Broken pipe",
                                   smtpCode: 354, smtpText: "354 go", dataHandedOver: true)
        XCTAssertEqual(sendFailed.kind, .transient)
        // Reading the reply failed after the data: the "." may have arrived.
        let receiveFailed = SMTPError(curlCode: 56, curlMessage: "Recv failure: Connection reset by peer",
                                      smtpCode: 354, smtpText: "354 go", dataHandedOver: true)
        XCTAssertEqual(receiveFailed.kind, .uncertain)
        XCTAssertEqual(SMTPError(curlCode: 7, curlMessage: "refused", smtpCode: 0, smtpText: nil, dataHandedOver: false).kind, .transient)
        XCTAssertEqual(SMTPError(curlCode: 55, curlMessage: "x", smtpCode: 552, smtpText: nil, dataHandedOver: true).kind, .permanent)
    }

    func testNonASCIIFileNamesUseRFC2231() {
        XCTAssertEqual(HeaderEncoding.parameter("filename", "statement-2026-10.pdf"), "filename=\"statement-2026-10.pdf\"")
        XCTAssertEqual(HeaderEncoding.parameter("filename", "relevé 10.pdf"), "filename*=UTF-8''relev%C3%A9%2010.pdf")
        XCTAssertEqual(HeaderEncoding.parameter("name", "a\"b"), "name*=UTF-8''a%22b")
    }

    func testTheMessageIsDeterministicCRLFAndWithinLineLimits() throws {
        let pdf = Data((0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let message = MIMEMessage(
            from: try XCTUnwrap(MailAddress("s@ezwallet.example")), to: try XCTUnwrap(MailAddress("u@example.com")),
            toName: "Zoë", subject: "Your EZWallet statement for October 2026", date: Date(timeIntervalSince1970: 1_793_000_000),
            messageID: "statement.7.2026-10.0123456789abcdef@ezwallet.example", plainText: "Hi\nthere", html: "<p>Hi</p>",
            attachments: [.init(fileName: "statement-2026-10.pdf", contentType: "application/pdf", bytes: pdf)])
        let bytes = message.rendered()
        XCTAssertEqual(bytes, message.rendered())
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        XCTAssertFalse(lines.contains { $0.contains("\n") || $0.contains("\r") }, "bare CR or LF")
        XCTAssertLessThanOrEqual(lines.map(\.utf8.count).max() ?? 0, 78)
        XCTAssertTrue(text.contains("Date: Mon, 26 Oct 2026 07:33:20 +0000\r\n"), text.prefix(400).description)
        XCTAssertTrue(text.contains("Message-ID: <statement.7.2026-10.0123456789abcdef@ezwallet.example>\r\n"))
        XCTAssertEqual(lines.filter { $0.count == 76 }.count, 60_000 / 57, "base64 in lines of 76")
    }

    /// The body's first sentence reads as a letter does in each language: a capital after the
    /// greeting in English, French and Spanish ("Your…", "Vous…", "Adjuntamos…"; German keeps
    /// "anbei…"), a quarter with its article ("del 3º trimestre", "pour le 3e trimestre"), a year
    /// as the locale writes one ("2026年").
    func testTheAttachedLineReadsAsALetterInEachLanguage() throws {
        let entry = try JSONDecoder().decode(Manifest.UserEntry.self, from: Data(#"{"id":7,"status":"ok","folder":"users/7-zoe","files":[],"quarantined":[]}"#.utf8))
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        func body(_ locale: String, _ period: String) -> String {
            StatementMail(username: "Zoë", locale: locale, period: try! Period.parse(period, asOf: asOf), entry: entry).plainText
        }
        let cases: [(String, String, String)] = [
            ("en_US", "2026-10", "Hello Zoë,\n\nYour EZWallet statement for October 2026"),
            ("fr_FR", "2026-10", "Bonjour Zoë,\n\nVous trouverez ci-joint"),
            ("es_ES", "2026-10", "Hola Zoë:\n\nAdjuntamos"),
            ("de_DE", "2026-10", "Hallo Zoë,\n\nanbei Ihr EZWallet-Auszug"),
            ("it_IT", "2026-Q3", "estratto conto EZWallet del 3º trimestre 2026"),
            ("fr_FR", "2026-Q3", "pour le 3e trimestre 2026"),
            ("ja_JP", "2026", "2026年（"),
        ]
        for (locale, period, expected) in cases {
            let text = body(locale, period)
            XCTAssertTrue(text.contains(expected), "\(locale) \(period): '\(expected)' in \(text)")
        }
        XCTAssertEqual(StatementMail.periodTitle(try Period.parse("2026", asOf: asOf), locale: "en_US"), "2026")
        // A month from payday in a locale given English words: English dates, one direction (it
        // read "for 25 سبتمبر، 2026 – 24 أكتوبر، 2026": outside languages test); English
        // locales keep their own order, translated locales their words.
        let payday = try Period.parse("2026-10", asOf: asOf).startingMonths(onDay: 25)
        XCTAssertEqual(StatementMail.periodTitle(payday, locale: "ar_EG"), StatementMail.periodTitle(payday, locale: "en_US"))
        XCTAssertFalse(StatementMail.periodTitle(payday, locale: "ar_EG").unicodeScalars.contains { (0x0600...0x06FF).contains($0.value) })
        XCTAssertEqual(StatementMail.periodTitle(payday, locale: "en_GB"), LocaleFormat(locale: "en_GB").periodLabel(payday))
        XCTAssertEqual(StatementMail.periodTitle(payday, locale: "de_DE"), LocaleFormat(locale: "de_DE").periodLabel(payday))
        // A name that could turn what follows it right to left is isolated from the greeting's comma.
        let override = StatementMail(username: "\u{202E}evil", locale: "en_US", period: try Period.parse("2026-10", asOf: asOf), entry: entry)
        XCTAssertTrue(override.plainText.hasPrefix("Hello \u{2068}\u{202E}evil\u{2069},\n"), override.plainText)
        XCTAssertTrue(override.html.contains("Hello \u{2068}\u{202E}evil\u{2069},"), override.html)
    }

    /// A category's name has no length limit in the ledger: a 1,000,000-character one went whole
    /// into the e-mail's text and HTML. The e-mail names 60 characters of it, as the cover does.
    func testTheLargestCategoryIsNamedInAtMost60Characters() throws {
        let long = String(repeating: "G", count: 1_000_000)
        let json = #"{"id":7,"status":"ok","folder":"users/7-zoe","files":[],"quarantined":[],"currency":"EUR","#
            + #""income_minor":100000,"expenses_minor":50000,"net_minor":50000,"summary":{"own_transaction_count":3,"#
            + #""savings_rate_tenths":500,"budgets_over":0,"largest_category":""# + long + #"","largest_category_minor":40000}}"#
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase   // as Manifest.decode reads manifests
        let entry = try decoder.decode(Manifest.UserEntry.self, from: Data(json.utf8))
        let mail = StatementMail(username: "Zoë", locale: "en_US", period: try Period.parse("2026-10", asOf: CivilDate(year: 2026, month: 11, day: 1)),
                                 entry: entry)
        let shown = String(repeating: "G", count: 59) + "… (€400.00)"
        XCTAssertTrue(mail.plainText.contains(shown), mail.plainText)
        XCTAssertTrue(mail.html.contains(shown), String(mail.html.prefix(2_000)))
        XCTAssertLessThan(mail.plainText.utf8.count + mail.html.utf8.count, 20_000)
        XCTAssertEqual(StatementMail.shortName("Groceries"), "Groceries")
        XCTAssertEqual(StatementMail.shortName(String(repeating: "食", count: 60)), String(repeating: "食", count: 60))
    }

    /// A quarter's subject takes the article its body line has: the subjects read "for 3rd quarter
    /// 2026", "pour 3e trimestre 2026" beside "pour le 3e trimestre" in the body (outside test).
    func testAQuartersSubjectTakesItsArticle() throws {
        let entry = try JSONDecoder().decode(Manifest.UserEntry.self, from: Data(#"{"id":7,"status":"ok","folder":"users/7-zoe","files":[],"quarantined":[]}"#.utf8))
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        func subject(_ locale: String, _ period: String) -> String {
            StatementMail(username: "Zoë", locale: locale, period: try! Period.parse(period, asOf: asOf), entry: entry).subject
        }
        XCTAssertEqual(subject("en_US", "2026-Q3"), "Your EZWallet statement for the 3rd quarter 2026")
        XCTAssertEqual(subject("fr_FR", "2026-Q3"), "Votre relevé EZWallet pour le 3e trimestre 2026")
        XCTAssertEqual(subject("es_ES", "2026-Q3"), "Tu extracto de EZWallet del 3.er trimestre de 2026")
        XCTAssertEqual(subject("en_US", "2026-10"), "Your EZWallet statement for October 2026", "a month keeps its own")
    }

    func testTheMessageIDFollowsTheContract() throws {
        let from = try XCTUnwrap(MailAddress("statements@mail.ezwallet.example"))
        XCTAssertEqual(DeliveryPlan.messageID(user: 42, period: "2026-10", sha: String(repeating: "ab", count: 32), from: from),
                       "statement.42.2026-10.abababababababab@mail.ezwallet.example")
        XCTAssertEqual(DeliveryPlan.messageID(user: 1, period: "2026-01-15..2026-03-31", sha: "0123456789abcdef00", from: from),
                       "statement.1.2026-01-15_2026-03-31.0123456789abcdef@mail.ezwallet.example")
    }
}
