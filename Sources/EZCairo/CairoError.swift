import CCairo

/// A Cairo or Pango call failed: what was being done, and Cairo's own message.
///
/// Prints as one line, e.g. `cairo: creating a PDF surface at /tmp/x.pdf failed: error while writing to output stream`.
package struct CairoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What ezreport was doing (e.g. "finishing the PDF surface").
    package var operation: String
    /// The raw `cairo_status_t` value.
    package var status: UInt32
    /// `cairo_status_to_string` of the status (or our own message for non-Cairo failures).
    package var message: String

    init(_ operation: String, status: cairo_status_t) {
        self.operation = operation
        self.status = status.rawValue
        self.message = String(cString: cairo_status_to_string(status))
    }

    init(_ operation: String, message: String) {
        self.operation = operation
        self.status = 0
        self.message = message
    }

    package var description: String { "cairo: \(operation) failed: \(message)" }
}

extension cairo_status_t {
    /// Throws a ``CairoError`` unless this is `CAIRO_STATUS_SUCCESS`, so that no status is discarded.
    func throwIfError(_ operation: @autoclosure () -> String) throws(CairoError) {
        if self != CAIRO_STATUS_SUCCESS { throw CairoError(operation(), status: self) }
    }
}
