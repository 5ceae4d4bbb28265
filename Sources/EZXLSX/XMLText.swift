/// Text as a workbook's XML parts can hold it.
///
/// XML 1.0 cannot hold the control characters other than tab, line feed and carriage return, nor
/// U+FFFE and U+FFFF. libxlsxwriter writes a cell's control characters as OOXML's `_xHHHH_`
/// escapes, but copies text into other parts as it is: a category named with a vertical tab
/// (pasted from elsewhere) made the pie chart's cached labels invalid XML, and readers refused
/// the whole workbook. A cell's noncharacter (U+FFFE, U+FFFF, …) broke the shared strings the
/// same way. (The CSV files keep such text as the ledger holds it; the PDF shows U+FFFD too.)
enum XMLText {
    /// `text` for a cell: each Unicode noncharacter replaced by U+FFFD (control characters are
    /// left to libxlsxwriter's escapes).
    static func cell(_ text: String) -> String {
        // Every noncharacter's UTF-8 starts with a byte of 0xEF or more: most cells are checked
        // with a byte scan, not a Unicode property lookup per character.
        guard text.utf8.contains(where: { $0 >= 0xEF }) else { return text }
        return replacing(in: text) { $0.properties.isNoncharacterCodePoint }
    }

    /// `text` for any other part (a chart's cached labels, the document properties): each
    /// noncharacter and each control character but tab, line feed and carriage return replaced
    /// by U+FFFD.
    static func holdable(_ text: String) -> String {
        replacing(in: text) {
            $0.properties.isNoncharacterCodePoint || ($0.value < 0x20 && $0 != "\t" && $0 != "\n" && $0 != "\r")
        }
    }

    /// `text` with each scalar `isBad` holds for replaced by U+FFFD; `text` itself when none is.
    private static func replacing(in text: String, where isBad: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: isBad) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isBad($0) ? "\u{FFFD}" : $0 }))
    }
}
