@testable import EZLocale
import XCTest

/// The PO reader: the parts of the gettext format translators' tools write.
final class POFileTests: XCTestCase {
    func testMessagesWithContextsPluralsEscapesAndContinuedLinesAreRead() throws {
        let po = try POFile(text: """
            # A translator's comment
            msgid ""
            msgstr ""
            "Language: fr\\n"
            "Plural-Forms: nplurals=2; plural=(n > 1);\\n"

            #: Sources/EZPDF/Statement/StatementLayout+Tables.swift
            msgctxt "of a total"
            msgid "Share"
            msgstr "Part"

            msgid "Share"
            msgstr "Quote-part"

            msgid "{count} row"
            msgid_plural "{count} rows"
            msgstr[0] "{count} ligne"
            msgstr[1] "{count} lignes"

            msgid "A \\"quoted\\" "
            "word\\tand a line\\n"
            msgstr "Un mot "
            "\\"cité\\"\\\\"

            """, file: "fr.po")
        XCTAssertEqual(po.header["Language"], "fr")
        XCTAssertEqual(po.messages[.init(context: "of a total", id: "Share")]?.translations, ["Part"])
        XCTAssertEqual(po.messages[.init(context: nil, id: "Share")]?.translations, ["Quote-part"])
        XCTAssertEqual(po.messages[.init(context: nil, id: "{count} row")]?.translations, ["{count} ligne", "{count} lignes"])
        XCTAssertEqual(po.messages[.init(context: nil, id: "A \"quoted\" word\tand a line\n")]?.translations, ["Un mot \"cité\"\\"])
        XCTAssertEqual(po.pluralRule.form(for: 0), 0, "French uses the singular for 0")
        XCTAssertEqual(po.messages.count, 4)
    }

    func testAFuzzyMessageIsNotUsed() throws {
        let po = try POFile(text: "#, fuzzy\nmsgid \"Budgets\"\nmsgstr \"Bilanci\"\n\nmsgid \"Goal\"\nmsgstr \"Obiettivo\"\n", file: "it.po")
        XCTAssertNil(po.messages[.init(context: nil, id: "Budgets")])
        XCTAssertEqual(po.messages[.init(context: nil, id: "Goal")]?.translations, ["Obiettivo"])
    }

    func testBrokenFilesAreRefusedNamingTheFileAndLine() {
        let cases: [(String, String)] = [
            ("msgid \"a\"\nmsgstr \"b\"\nmsgid \"a\"\nmsgstr \"c\"\n", "it.po line 3: duplicate message 'a'"),
            ("msgstr \"b\"\n", "it.po line 1: msgstr without a msgid"),
            ("msgid \"a\"\nmsgstr \"unterminated\n", "it.po line 2: a quoted string expected"),
            ("msgid \"a\"\n", "it.po line 1: 'a' has no msgstr"),
            ("msgid \"a\"\nmsgstr \"\\q\"\n", "it.po line 2: unknown escape '\\q'"),
            ("msgid \"\"\nmsgstr \"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\nmsgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"x\"\n",
             "it.po line 4: 'a' has 1 plural forms; Plural-Forms says 2"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try POFile(text: text, file: "it.po"), message) { error in
                XCTAssertTrue("\(error)".hasPrefix("catalog " + message), "\(error) should start with \(message)")
            }
        }
    }

    func testPluralRulesAreEvaluatedAsGettextDoes() throws {
        let en = try PluralRule(header: "nplurals=2; plural=(n != 1);")
        XCTAssertEqual([0, 1, 2, 21].map(en.form), [1, 0, 1, 1])
        let fr = try PluralRule(header: "nplurals=2; plural=(n > 1);")
        XCTAssertEqual([0, 1, 2].map(fr.form), [0, 0, 1])
        let ja = try PluralRule(header: "nplurals=1; plural=0;")
        XCTAssertEqual([0, 1, 7].map(ja.form), [0, 0, 0])
        // Polish: three forms, nested conditionals, && and ||, modulo and comparisons.
        let pl = try PluralRule(header:
            "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);")
        XCTAssertEqual([1, 2, 4, 5, 12, 22, 25, 112, 122].map(pl.form), [0, 1, 1, 2, 2, 1, 2, 2, 1])
        XCTAssertThrowsError(try PluralRule(header: "nplurals=2; plural=(n != ;"))
        XCTAssertThrowsError(try PluralRule(header: "plural=n;"))
    }
}
