import Glibc

/// Where a finished PDF goes.
///
/// Renderers return bytes by default (`ezreport serve`, `export --out -`). A batch that writes
/// files passes a temporary path instead (its caller renames the file into place, so it appears
/// whole or not at all): qpdf then writes the document straight to that file, and a long
/// statement is never held in memory twice while it is written.
package enum PDFOutput: Sendable, Equatable {
    /// Return the document's bytes.
    case bytes
    /// Write the document to `path` (created or truncated) and return no bytes.
    case file(path: String)

    /// Delivers `bytes` that are already final: returns them, or writes them to the file.
    func deliver(_ bytes: [UInt8]) throws -> [UInt8] {
        guard case .file(let path) = self else { return bytes }
        guard let file = fopen(path, "wb") else {
            throw PDFOutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let failure = written == bytes.count ? 0 : errno
        if fclose(file) != 0 || failure != 0 {
            throw PDFOutputError.cannotWrite(path: path, reason: String(cString: strerror(failure != 0 ? failure : errno)))
        }
        return []
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
