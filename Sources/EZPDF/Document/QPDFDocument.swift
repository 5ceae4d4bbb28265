import CQPDF
import CZlib
import Glibc

/// A qpdf library call failed: what was being done and qpdf's own message.
///
/// Prints as one line, e.g. `qpdf: reading the statement's PDF failed: file is damaged`.
package struct QPDFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What ezreport was doing ("reading the PDF Cairo wrote").
    package var operation: String
    /// qpdf's message (`qpdf_get_error_full_text`).
    package var message: String
    package var description: String { "qpdf: \(operation) failed: \(message)" }
}

/// One PDF opened with qpdf's C API (`qpdf_data`), owned here and freed in `deinit`: read from
/// memory, its objects edited through handles, written to memory or a file.
///
/// The bytes qpdf reads stay allocated as long as the handle (qpdf reads them lazily).
final class QPDFDocument {
    /// libqpdf's functions (``QPDFLibrary``).
    private let qpdf: EZQPDFFunctions
    private var handle: qpdf_data?
    private let input: UnsafeMutableBufferPointer<UInt8>

    /// Opens `bytes` (warnings are kept quiet; only errors throw, as does a libqpdf that cannot
    /// be loaded).
    init(_ bytes: [UInt8], name: String) throws(QPDFError) {
        qpdf = try QPDFLibrary.functions()
        input = .allocate(capacity: max(1, bytes.count))
        _ = input.initialize(from: bytes)
        handle = qpdf.qpdf_init()
        qpdf.qpdf_set_suppress_warnings(handle, QPDF_TRUE)
        let code = qpdf.qpdf_read_memory(handle, name, UnsafeRawPointer(input.baseAddress!).assumingMemoryBound(to: CChar.self),
                                    UInt64(bytes.count), nil)
        try check(code, "reading \(name)")
    }

    deinit {
        qpdf.qpdf_cleanup(&handle)
        input.deallocate()
    }

    private func check(_ code: QPDF_ERROR_CODE, _ operation: String) throws(QPDFError) {
        guard code & QPDF_ERRORS != 0 else { return }
        let error = qpdf.qpdf_get_error(handle)
        let text = error.flatMap { qpdf.qpdf_get_error_full_text(handle, $0) }.map { String(cString: $0) } ?? "unknown error"
        throw QPDFError(operation: operation, message: text)
    }

    // MARK: - Objects

    /// Releases handles this code no longer uses. qpdf's C API keeps every handle it returns
    /// (each a map entry and a shared pointer) until it is released or the document is freed: a
    /// 2,228-page statement's pass made ~7 MB of them. The objects themselves stay in the document.
    func release(_ handles: qpdf_oh...) { release(handles) }
    /// Releases each of `handles` (see ``release(_:)-(qpdf_oh...)``).
    func release(_ handles: [qpdf_oh]) { for oh in handles { qpdf.qpdf_oh_release(handle, oh) } }

    /// The document catalog.
    var root: qpdf_oh { qpdf.qpdf_get_root(handle) }

    func isDictionary(_ oh: qpdf_oh) -> Bool { qpdf.qpdf_oh_is_dictionary(handle, oh) != 0 }
    func isArray(_ oh: qpdf_oh) -> Bool { qpdf.qpdf_oh_is_array(handle, oh) != 0 }
    func isInteger(_ oh: qpdf_oh) -> Bool { qpdf.qpdf_oh_is_integer(handle, oh) != 0 }
    func key(_ oh: qpdf_oh, _ key: String) -> qpdf_oh? {
        qpdf.qpdf_oh_has_key(handle, oh, key) != 0 ? qpdf.qpdf_oh_get_key(handle, oh, key) : nil
    }
    func isName(_ oh: qpdf_oh, _ name: String) -> Bool { qpdf.qpdf_oh_is_name_and_equals(handle, oh, name) != 0 }
    /// The object number of an indirect object (0 for a direct one).
    func objectID(_ oh: qpdf_oh) -> Int32 { Int32(qpdf.qpdf_oh_get_object_id(handle, oh)) }
    /// A name object's text with its slash (`/Figure`), or nil when `oh` is not a name.
    func nameText(_ oh: qpdf_oh) -> String? {
        guard qpdf.qpdf_oh_is_name(handle, oh) != 0, let text = qpdf.qpdf_oh_get_name(handle, oh) else { return nil }
        return String(cString: text)
    }
    func items(_ array: qpdf_oh) -> [qpdf_oh] {
        (0..<qpdf.qpdf_oh_get_array_n_items(handle, array)).map { qpdf.qpdf_oh_get_array_item(handle, array, $0) }
    }
    func set(_ oh: qpdf_oh, _ key: String, _ value: qpdf_oh) { qpdf.qpdf_oh_replace_key(handle, oh, key, value) }
    func setItem(_ array: qpdf_oh, _ index: Int, _ value: qpdf_oh) { qpdf.qpdf_oh_set_array_item(handle, array, Int32(index), value) }
    /// A new (direct) array of `items`, in order.
    func array(_ items: [qpdf_oh]) -> qpdf_oh {
        let array = qpdf.qpdf_oh_new_array(handle)
        for item in items { qpdf.qpdf_oh_append_item(handle, array, item) }
        return array
    }
    func removeKey(_ oh: qpdf_oh, _ key: String) { qpdf.qpdf_oh_remove_key(handle, oh, key) }
    func integer(_ value: Int) -> qpdf_oh { qpdf.qpdf_oh_new_integer(handle, Int64(value)) }
    /// A string of arbitrary bytes (written as hex when they are not text).
    func binaryString(_ bytes: [UInt8]) -> qpdf_oh {
        bytes.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { qpdf.qpdf_oh_new_binary_string(handle, $0.baseAddress, $0.count) }
        }
    }
    func name(_ name: String) -> qpdf_oh { qpdf.qpdf_oh_new_name(handle, name) }
    func text(_ utf8: String) -> qpdf_oh { qpdf.qpdf_oh_new_unicode_string(handle, utf8) }
    func bool(_ value: Bool) -> qpdf_oh { qpdf.qpdf_oh_new_bool(handle, value ? QPDF_TRUE : QPDF_FALSE) }
    func null() -> qpdf_oh { qpdf.qpdf_oh_new_null(handle) }
    func dictionary() -> qpdf_oh { qpdf.qpdf_oh_new_dictionary(handle) }

    /// The trailer dictionary as read.
    var trailer: qpdf_oh { qpdf.qpdf_get_trailer(handle) }
    /// The indirect object `number` (generation 0).
    func object(_ number: Int32) -> qpdf_oh { qpdf.qpdf_get_object_by_id(handle, number, 0) }
    /// The object's text as PDF syntax, an indirect object's contents rather than its reference;
    /// the objects it refers to stay references (`12 0 R`). Streams are not written this way (see
    /// ``streamDictionary(_:)``).
    func unparsed(_ oh: qpdf_oh) -> [UInt8] {
        guard let text = qpdf.qpdf_oh_unparse_resolved(handle, oh) else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: strlen(text)))
    }

    /// The PDF text the input bytes hold (what qpdf reads lazily), for the objects this code copies
    /// as they are (``PDFObjectSplicer``).
    func withInput<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(PDFOutputError) -> R) throws(PDFOutputError) -> R {
        try body(UnsafeBufferPointer(input))
    }

    // MARK: - Pages and streams

    /// A stream's dictionary (`/Length`, `/Filter`, …), itself editable.
    func streamDictionary(_ stream: qpdf_oh) -> qpdf_oh { qpdf.qpdf_oh_get_dict(handle, stream) }

    /// The page objects, in order.
    var pages: [qpdf_oh] { (0..<max(0, Int(qpdf.qpdf_get_num_pages(handle)))).map { qpdf.qpdf_get_page_n(handle, $0) } }

    /// Calls `body` with a stream's data, its filters (Flate) undone, in qpdf's buffer (freed
    /// when `body` returns: the bytes must not escape it).
    func withStreamData<T>(_ stream: qpdf_oh, _ body: (UnsafeBufferPointer<UInt8>) throws(QPDFError) -> T) throws(QPDFError) -> T {
        var filtered: QPDF_BOOL = 0
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        try check(qpdf.qpdf_oh_get_stream_data(handle, stream, qpdf_dl_generalized, &filtered, &buffer, &length), "reading a page's content")
        defer { free(buffer) }
        guard filtered != 0 else { throw QPDFError(operation: "reading a page's content", message: "its filter is not supported") }
        return try body(UnsafeBufferPointer(start: length > 0 ? buffer : nil, count: buffer == nil ? 0 : length))
    }

    /// `data` compressed as a stream's `/FlateDecode` data, at zlib's default level (as qpdf's
    /// writer would compress it).
    static func deflated(_ data: [UInt8]) throws(QPDFError) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var compressed = [UInt8](repeating: 0, count: Int(size))
        let status = compress2(&compressed, &size, data, uLong(data.count), Z_DEFAULT_COMPRESSION)
        guard status == Z_OK else {
            throw QPDFError(operation: "compressing a page's content", message: "zlib status \(status)")
        }
        // A copy of the compressed bytes alone: the buffer has room for the worst case (about the
        // data's size), and a 2,228-page statement holds every page's result until it is written.
        return Array(compressed[..<Int(size)])
    }

    /// Replaces a stream's data with `compressed` (``deflated(_:)``), marked `/FlateDecode`: qpdf
    /// then holds the compressed bytes until the document is written, not every page's content
    /// whole (56 MB for a 2,228-page statement).
    func replaceStreamData(_ stream: qpdf_oh, compressed: [UInt8]) {
        let filter = name("/FlateDecode"), parameters = null()
        defer { release(filter, parameters) }
        compressed.withUnsafeBufferPointer {
            qpdf.qpdf_oh_replace_stream_data(handle, stream, $0.baseAddress, $0.count, filter, parameters)
        }
    }

    // MARK: - Writing

    /// The edited document, as bytes or into a file (see ``PDFOutput``). Streams are copied as
    /// they are (not decoded) and the trailer's /ID is derived from the content, so the same input
    /// gives the same bytes either way. Writing to a file spares holding the result in memory
    /// (qpdf's growing buffer, then its copy here): ~15 MB of a 2,228-page statement's peak.
    func write(_ operation: String, to output: PDFOutput) throws(QPDFError) -> [UInt8] {
        switch output {
        case .bytes: try check(qpdf.qpdf_init_write_memory(handle), operation)
        case .file(let path): try check(qpdf.qpdf_init_write(handle, path), operation)
        }
        qpdf.qpdf_set_decode_level(handle, qpdf_dl_none)
        // Every stream is already compressed (Cairo's, and those replaced here): none is compressed again.
        qpdf.qpdf_set_compress_streams(handle, QPDF_TRUE)
        qpdf.qpdf_set_object_stream_mode(handle, qpdf_o_preserve)
        qpdf.qpdf_set_deterministic_ID(handle, QPDF_TRUE)
        try check(qpdf.qpdf_write(handle), operation)
        guard case .bytes = output else { return [] }
        let count = qpdf.qpdf_get_buffer_length(handle)
        guard count > 0, let buffer = qpdf.qpdf_get_buffer(handle) else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: count))
    }
}
