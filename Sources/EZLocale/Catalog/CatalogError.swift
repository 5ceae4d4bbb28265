/// A translation catalog could not be read: which file, which line, and what is wrong with it.
///
/// Prints as one line, e.g. `catalog de.po line 12: msgstr without a msgid`.
package struct CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The catalog's file name (`de.po`) or another name for where the text came from.
    package var file: String
    /// The 1-based line, or 0 when the problem is not on one line (a missing file, a bad header).
    package var line: Int
    /// What is wrong.
    package var message: String

    package init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    package var description: String {
        line > 0 ? "catalog \(file) line \(line): \(message)" : "catalog \(file): \(message)"
    }
}
