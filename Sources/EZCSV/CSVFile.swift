/// One CSV file of an export: its file name and its complete UTF-8 bytes.
///
/// Renderers never touch the filesystem for CSV; the batch engine writes each file atomically.
///
/// ```swift
/// for file in StatementCSV.files(for: figures) { try write(file.bytes, to: dir + "/" + file.name) }
/// ```
package struct CSVFile: Hashable, Sendable {
    /// The file name, e.g. `transactions.csv`.
    package let name: String
    /// The file's bytes: UTF-8, CRLF line endings, a header row first.
    package let bytes: [UInt8]

    /// Makes a file from its name and bytes.
    package init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}
