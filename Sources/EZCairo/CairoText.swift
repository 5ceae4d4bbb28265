/// Text as Cairo accepts it.
///
/// Cairo's UTF-8 reader (`_cairo_utf8_to_ucs4`, used for the text behind glyphs, metadata,
/// bookmarks and tag attributes) refuses Unicode's 66 noncharacters (U+FDD0–U+FDEF and the last
/// two code points of every plane, U+FFFE, U+FFFF, U+1FFFE, …), although they are valid UTF-8:
/// one pasted into a description failed the whole page ("input string not valid UTF-8"), and with
/// it the user's statement, and every group member's whose statement lists the expense. Text
/// given to Cairo or Pango goes through ``drawable(_:)`` first. (The CSV files keep such text as
/// the ledger holds it.)
package enum CairoText {
    /// The most characters (grapheme clusters) of one text that is laid out, or set as a document
    /// title or a bookmark: a line of a landscape page shows ~200, and a wrapped cell not many
    /// more. A ledger's names and descriptions have no length limit: a 1,000,000-character
    /// category name, laid out whole wherever the category appears, made one statement PDF take
    /// 106 s and 467 MB, and over HTTP held the render threads every other user waited for
    /// (outside scale test). The CSV files and the workbook keep the text as the ledger holds it.
    package static let maximumCharacters = 1_000

    /// `text` cut to `limit` characters, the last of them replaced by '…'; `text` itself when it
    /// is no longer (checked in O(1) for most texts: a text of at most `limit` UTF-8 bytes is).
    package static func bounded(_ text: String, to limit: Int = maximumCharacters) -> String {
        guard text.utf8.count > limit else { return text }
        let head = text.prefix(limit)  // walks `limit` characters, never the whole text
        return head.endIndex == text.endIndex ? text : String(head.dropLast()) + "…"
    }

    /// `text` with each noncharacter replaced by U+FFFD, the replacement character; `text` itself
    /// when it holds none (the usual case, checked without copying).
    package static func drawable(_ text: String) -> String {
        // Every noncharacter's UTF-8 starts with a byte of 0xEF or more: a byte scan first.
        guard text.utf8.contains(where: { $0 >= 0xEF }),
              text.unicodeScalars.contains(where: \.properties.isNoncharacterCodePoint) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(scalar.properties.isNoncharacterCodePoint ? "\u{FFFD}" : scalar)
        }
        return String(scalars)
    }

    /// `text` on one line, for a bookmark: each line break, tab or other control character
    /// becomes a space (a PDF viewer's outline shows one line per entry), then ``drawable(_:)``.
    package static func oneLine(_ text: String) -> String {
        let line = text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            ? String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            : text
        return drawable(line)
    }
}
