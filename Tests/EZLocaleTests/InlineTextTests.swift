@testable import EZLocale
import XCTest

/// Names from the ledger set into a line of other words and figures: a line break never starts a
/// new line, and nothing in a name changes the direction of what follows it.
final class InlineTextTests: XCTestCase {
    func testLineBreaksAndControlCharactersBecomeSpacesOnOneLine() {
        XCTAssertEqual(InlineText.onOneLine("\r\n\r\n<html>body"), "    <html>body")
        XCTAssertEqual(InlineText.onOneLine("a\u{2028}b\u{2029}c\u{85}d\te"), "a b c d e")
        XCTAssertEqual(InlineText.onOneLine("Zoë – 山田 · 1 Oct"), "Zoë – 山田 · 1 Oct", "ordinary text is untouched")
    }

    func testARightToLeftNameIsIsolatedFromWhatFollowsIt() {
        XCTAssertEqual(InlineText.isolated("مريم"), "\u{2068}مريم\u{2069}")
        XCTAssertEqual(InlineText.isolated("דוד\nכהן"), "\u{2068}דוד כהן\u{2069}")
        XCTAssertEqual(InlineText.isolated("alice"), "alice", "a left-to-right name needs no isolate")
        XCTAssertEqual(InlineText.isolated("山田 Zoë"), "山田 Zoë")
    }

    func testAnOverrideOrEmbeddingInANameIsClosedWhereTheNameEnds() {
        // An unclosed RIGHT-TO-LEFT OVERRIDE turned the rest of a statement's header backwards.
        XCTAssertEqual(InlineText.isolated("\u{202E}evil"), "\u{2068}\u{202E}evil\u{2069}")
        for control in ["\u{202A}", "\u{202B}", "\u{202D}", "\u{200F}", "\u{061C}"] {
            XCTAssertEqual(InlineText.isolated("a" + control + "b"), "\u{2068}a" + control + "b\u{2069}")
        }
    }

    func testANamesOwnIsolateControlsCannotCloseTheIsolateEarly() {
        // A stray POP DIRECTIONAL ISOLATE would end the isolate and let the override after it out.
        XCTAssertEqual(InlineText.isolated("\u{2069}\u{202E}x"), "\u{2068}\u{202E}x\u{2069}")
        XCTAssertEqual(InlineText.isolated("a\u{2066}b\u{2069}"), "ab", "with its isolates gone, nothing needs isolating")
    }

    func testRightToLeftLettersAreFoundInEveryRightToLeftBlock() {
        XCTAssertTrue(InlineText.hasRightToLeftLetters("x\u{05D0}"))      // Hebrew
        XCTAssertTrue(InlineText.hasRightToLeftLetters("\u{FB50}"))       // Arabic presentation forms
        XCTAssertTrue(InlineText.hasRightToLeftLetters("\u{10900}"))      // Phoenician
        XCTAssertFalse(InlineText.hasRightToLeftLetters("Ελληνικά 日本 abc 123"))
        XCTAssertFalse(InlineText.hasRightToLeftLetters("\u{FEFF}alice"), "a byte-order mark is no letter")
    }
}
