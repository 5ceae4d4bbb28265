import EZBatch
#if canImport(Glibc)
import Glibc
#endif

/// Standard output for a file's bytes (`export --out -`, `manifest merge`).
///
/// Written whole with `write(2)`: a failure (a full disk behind `> alice.pdf`, a closed
/// descriptor) becomes one `ezreport:` line and exit 1, where `FileHandle.write(_:)` trapped with
/// a stack trace.
enum StandardOutput {
    /// Writes every byte of `bytes` to file descriptor 1, retrying short writes and EINTR.
    static func write(_ bytes: [UInt8]) throws(OutputError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .cannotWrite(path: "standard output", reason: String(cString: strerror(code)))
            }
            offset += written
        }
    }
}
