import Foundation

/// Unbuffered writes to file descriptor 2.
enum FileHandleStderr {
    static func write(_ string: String) {
        var s = string
        s.withUTF8 { buffer in _ = Foundation.write(2, buffer.baseAddress, buffer.count) }
    }
}
