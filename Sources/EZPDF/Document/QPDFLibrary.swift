import CQPDF
#if canImport(Glibc)
import Glibc
#endif

/// libqpdf, loaded once per process when the first PDF is completed (see CQPDF.h): the
/// executable does not link it, so commands that make no PDF never load it and its TLS stack.
package enum QPDFLibrary {
    /// The loaded functions, or why libqpdf cannot be used.
    private static let loaded: Result<EZQPDFFunctions, QPDFError> = {
        var reason = [CChar](repeating: 0, count: 512)
        guard let functions = ez_qpdf_load(&reason, reason.count) else {
            return .failure(QPDFError(operation: "loading libqpdf",
                                      message: String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return .success(functions.pointee)
    }()

    /// libqpdf's functions, loading the library on first use; throws when it cannot be loaded
    /// (e.g. `qpdf: loading libqpdf failed: libqpdf.so.29: cannot open shared object file…`).
    static func functions() throws(QPDFError) -> EZQPDFFunctions {
        try loaded.get()
    }

    /// Loads libqpdf on a new, detached thread (which then ends), so that a one-shot command that
    /// will complete a PDF (`ezreport export`) binds it on another core while it reads the ledger,
    /// not on its critical path. Safe to call more than once; a failure is reported where the PDF
    /// is completed.
    package static func loadInBackground() {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_create(&thread, &attributes, { _ in
            _ = QPDFLibrary.loaded
            return nil
        }, nil)
        pthread_attr_destroy(&attributes)
    }
}
