/// Where a finished PDF goes.
///
/// Renderers return bytes by default (`ezreport serve`, `export --out -`). A batch that writes
/// files passes a temporary path instead (its caller renames the file into place, so it appears
/// whole or not at all): the document is then written straight to that file, and a long
/// statement is never held in memory twice while it is written.
package enum PDFOutput: Sendable, Equatable {
    /// Return the document's bytes.
    case bytes
    /// Write the document to `path` (created or truncated) and return no bytes.
    case file(path: String)

    /// Delivers `bytes` that are already final: returns them, or writes them to the file.
    func deliver(_ bytes: [UInt8]) throws(PDFOutputError) -> [UInt8] {
        guard case .file = self else { return bytes }
        let sink = try PDFByteSink(self, capacity: 0)
        sink.write(bytes)
        return try sink.finish()
    }
}

/// A finished PDF could not be written to its file.
package enum PDFOutputError: Error, CustomStringConvertible, Equatable {
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write the PDF to \(path): \(reason)"
        }
    }
}
