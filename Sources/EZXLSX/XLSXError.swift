import CXLSXWriter
import Glibc

/// A libxlsxwriter failure, with what was being done, where, and the library's own message.
///
/// Prints as one line: `cannot write string at Transactions!G12 in statement.xlsx: String exceeds Excel's limit of 32,767 characters. (code 14)`.
package struct XLSXError: Error, Hashable, CustomStringConvertible {
    /// What was being done, e.g. `write string`.
    package let operation: String
    /// Where: the file, and a sheet or cell when known.
    package let context: String
    /// libxlsxwriter's `lxw_error` code (0 when the failure was not a library status).
    package let code: Int
    /// The library's message from `lxw_strerror`, or a description of the failure.
    package let message: String

    init(operation: String, context: String, status: lxw_error) {
        self.operation = operation
        self.context = context
        self.code = Int(status.rawValue)
        self.message = lxw_strerror(status).map { String(cString: $0) } ?? "unknown libxlsxwriter error"
    }

    /// A library status whose cause is the system's error `systemError` (an errno): the library's
    /// message, then the system's (`Zip … error: File too large`).
    init(operation: String, context: String, status: lxw_error, systemError: Int32) {
        var library = lxw_strerror(status).map { String(cString: $0) } ?? "unknown libxlsxwriter error"
        if library.hasSuffix(".") { library.removeLast() }
        self.operation = operation
        self.context = context
        self.code = Int(status.rawValue)
        self.message = library + ": " + String(cString: strerror(systemError))
    }

    init(operation: String, context: String, message: String) {
        self.operation = operation
        self.context = context
        self.code = 0
        self.message = message
    }

    package var description: String {
        "cannot \(operation) in \(context): \(message)" + (code != 0 ? " (code \(code))" : "")
    }
}

extension lxw_error {
    /// Throws an ``XLSXError`` unless the status is `LXW_NO_ERROR`.
    @inline(__always)
    func check(_ operation: @autoclosure () -> String, _ context: @autoclosure () -> String) throws(XLSXError) {
        if self != LXW_NO_ERROR { throw XLSXError(operation: operation(), context: context(), status: self) }
    }
}
