import CQPDF

/// libqpdf, loaded once per process when the first PDF is completed (see CQPDF.h): the
/// executable does not link it, so commands that make no PDF never load it and its TLS stack.
package enum QPDFLibrary {
    /// The loaded functions, or why libqpdf cannot be used.
    private static let loaded: Result<EZQPDFFunctions, QPDFError> = {
        var reason = [CChar](repeating: 0, count: 512)
        guard let functions = ez_qpdf_load(&reason, reason.count) else {
            return .failure(QPDFError(operation: "loading libqpdf",
                                      message: reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }))
        }
        return .success(functions.pointee)
    }()

    /// libqpdf's functions, loading the library on first use; throws when it cannot be loaded
    /// (e.g. `qpdf: loading libqpdf failed: libqpdf.so.29: cannot open shared object file…`).
    static func functions() throws(QPDFError) -> EZQPDFFunctions {
        try loaded.get()
    }

    /// Loads libqpdf now, so that a one-shot command that will complete a PDF (`ezreport export`)
    /// can bind it on another core while it reads the ledger, off its critical path. Safe to call
    /// more than once, from any thread; a failure is reported where the PDF is completed.
    package static func load() {
        _ = loaded
    }
}
