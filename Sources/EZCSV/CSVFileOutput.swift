import Glibc

/// A CSV file being written to disk as it is built (``CSVWriter/init(header:output:)``): owns
/// its `FILE*` and closes it in `deinit` if ``close()`` was not called.
///
/// A write that fails is remembered, later writes are skipped, and ``close()`` throws it: the
/// writer's row loop needs no error handling, and no failure is lost.
final class CSVFileOutput {
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String
    private var failure: Int32 = 0

    /// Creates (or truncates) the file at `path`.
    ///
    /// - Throws: ``CSVOutputError/cannotWrite(path:reason:)`` when it cannot be opened.
    init(path: String) throws(CSVOutputError) {
        guard let file = fopen(path, "wb") else {
            throw CSVOutputError.cannotWrite(path: path, reason: String(cString: strerror(errno)))
        }
        self.file = file
        self.path = path
    }

    deinit { if let file { fclose(file) } }

    /// Appends `bytes` (skipped once a write has failed).
    func write(_ bytes: [UInt8]) {
        guard failure == 0, let file, !bytes.isEmpty else { return }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != bytes.count { failure = errno == 0 ? EIO : errno }
    }

    /// Flushes and closes the file.
    ///
    /// - Throws: ``CSVOutputError/cannotWrite(path:reason:)`` naming the first failure.
    func close() throws(CSVOutputError) {
        guard let file else { return }
        self.file = nil
        if fclose(file) != 0, failure == 0 { failure = errno == 0 ? EIO : errno }
        if failure != 0 { throw CSVOutputError.cannotWrite(path: path, reason: String(cString: strerror(failure))) }
    }
}

/// A CSV file could not be written to disk.
package enum CSVOutputError: Error, CustomStringConvertible, Equatable {
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write the CSV file \(path): \(reason)"
        }
    }
}
