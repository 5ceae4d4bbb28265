/// Text from the ledger — a name someone chose: a username, a book, a category, a group, a
/// payer — set into a line of other words and figures ("Largest category: {name} (40.8 % of
/// expenses)", "{user} · 1 Oct – 31 Oct 2026").
///
/// Such a name must stay inside its own place on the line. A line break in it would start a new
/// line, and its direction would leak into what follows it: under the Unicode bidirectional
/// algorithm a right-to-left name pulls the digits after it into its own run, and an unclosed
/// override (U+202E, RIGHT-TO-LEFT OVERRIDE) in a username turned the rest of the statement's
/// header backwards ("6202 tcO 72 – 6202 peS 82"), which could as well show a figure reversed.
package enum InlineText {
    /// `name` on one line (see ``onOneLine(_:)``) and, when it could change the direction of what
    /// follows it — right-to-left letters, or an explicit embedding, override or mark — inside a
    /// first-strong isolate (U+2068 … U+2069): its own text reads as before, and whatever follows
    /// the closing U+2069 keeps its order, since that closes every embedding and override opened
    /// inside. Isolate controls of its own (U+2066…U+2069) are left out first, so that the name
    /// cannot close the isolate early. A name without any of these is returned as it is.
    package static func isolated(_ name: String) -> String {
        var line = onOneLine(name)
        if line.unicodeScalars.contains(where: { (0x2066...0x2069).contains($0.value) }) {
            line = String(String.UnicodeScalarView(line.unicodeScalars.filter { !(0x2066...0x2069).contains($0.value) }))
        }
        return canTurnRightToLeft(line) ? "\u{2068}" + line + "\u{2069}" : line
    }

    /// `string` with every line break and control character (CR, LF, TAB, U+2028, U+2029, U+0085…)
    /// as a space: text drawn on one line stays on it. Pango lays each paragraph of a one-line
    /// layout on a line of its own, so a username holding CR LF spilled out of the cover's band.
    package static func onOneLine(_ string: String) -> String {
        var utf8 = string.utf8.makeIterator()
        var previous: UInt8 = 0, suspect = false
        while let b = utf8.next() {
            // C0 controls and DEL; U+0085 is C2 85; U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
            if b < 0x20 || b == 0x7F || (previous == 0xC2 && b == 0x85) || (previous == 0x80 && (b == 0xA8 || b == 0xA9)) {
                suspect = true
                break
            }
            previous = b
        }
        guard suspect else { return string }
        return String(String.UnicodeScalarView(string.unicodeScalars.map { scalar in
            let category = scalar.properties.generalCategory
            return category == .control || category == .lineSeparator || category == .paragraphSeparator ? " " : scalar
        }))
    }

    /// Whether `string` holds a right-to-left letter or an explicit embedding, override or mark:
    /// then it can change the direction of the text around it, and Pango (which takes a
    /// paragraph's direction from its first strong character, counting an override as one) may
    /// lay a whole line out right to left.
    package static func canTurnRightToLeft(_ string: String) -> Bool {
        string.unicodeScalars.contains { isRightToLeftLetter($0) || isDirectionControl($0) }
    }

    /// Whether `string` holds a letter of a right-to-left script (Hebrew, Arabic, Syriac, Thaana,
    /// N'Ko, Samaritan, Mandaic and their presentation forms, not the byte-order mark U+FEFF; the
    /// historic scripts of the supplementary planes).
    static func hasRightToLeftLetters(_ string: String) -> Bool {
        string.unicodeScalars.contains(where: isRightToLeftLetter)
    }

    static func isRightToLeftLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFC, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// The explicit directional formatting characters that change the direction of the text
    /// after them: the embeddings and overrides (U+202A…U+202E), the right-to-left and Arabic
    /// letter marks (U+200F, U+061C). (Isolates are removed before this is asked.)
    static func isDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x200F, 0x061C: return true
        default: return false
        }
    }
}
