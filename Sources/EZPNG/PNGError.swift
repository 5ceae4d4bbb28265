import CZlib

/// zlib refused to encode a PNG: what was being done, zlib's status code and its message.
///
/// Prints as one line, e.g. `png: deflating the image data failed: zlib status -2 (stream error)`.
package struct PNGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the encoder was doing.
    package var operation: String
    /// zlib's status code (`Z_STREAM_ERROR`, `Z_MEM_ERROR`, …).
    package var zlibStatus: Int32

    package init(operation: String, zlibStatus: Int32) {
        self.operation = operation
        self.zlibStatus = zlibStatus
    }

    package var description: String {
        let message = zError(zlibStatus).map { String(cString: $0) } ?? "unknown error"
        return "png: \(operation) failed: zlib status \(zlibStatus) (\(message))"
    }
}
