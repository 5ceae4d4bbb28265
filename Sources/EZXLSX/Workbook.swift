import CXLSXWriter
import EZCore
#if canImport(Glibc)
import Glibc
import Synchronization
#endif

/// An XLSX file being written: the one owner of a libxlsxwriter `lxw_workbook`.
///
/// Nothing is written to disk until ``close()``, which assembles the zip and throws if that
/// fails. A workbook dropped without closing is freed without writing a file. Worksheets,
/// formats and charts hold a strong reference to their workbook and refuse to work once it is
/// closed, so no libxlsxwriter pointer outlives the memory it points to.
///
/// ```swift
/// let book = try Workbook(path: "out.xlsx", properties: props)
/// let sheet = try book.addWorksheet("Summary")
/// try sheet.write("Income", row: 0, column: 0)
/// try book.close()
/// ```
final class Workbook {
    private let handle: UnsafeMutablePointer<lxw_workbook>
    /// The path the file is written to on close.
    let path: String
    private(set) var isClosed = false
    private var worksheetNames: Set<String> = []

    /// Starts a workbook that will be written to `path` on ``close()``.
    /// - Parameter constantMemory: libxlsxwriter's `constant_memory` mode: each row goes to a temporary
    ///   file once the next row starts, so memory stays flat however many rows there are. Every sheet must
    ///   then be written row by row, top to bottom, and strings are stored inline instead of in the
    ///   shared-strings part (the cells read the same; the parts differ).
    init(path: String, properties: DocumentProperties, constantMemory: Bool = false) throws(XLSXError) {
        // libxlsxwriter copies the file name and the folder name.
        let made: UnsafeMutablePointer<lxw_workbook>?
        if Workbook.partsFolder != nil || constantMemory {
            // constant_memory's row files are many small writes: in memory when /dev/shm is there.
            made = (Workbook.partsFolder ?? "/tmp").withCString { f in
                path.withCString { p in
                    // Zero-initialised, then the fields we set: newer libxlsxwriter versions add
                    // fields (output_buffer, …), which stay zero, so this compiles with any of them.
                    var options = lxw_workbook_options()
                    options.tmpdir = UnsafeMutablePointer(mutating: f)
                    options.constant_memory = constantMemory ? 1 : 0
                    return workbook_new_opt(p, &options)
                }
            }
        } else {
            made = path.withCString { workbook_new($0) }
        }
        guard let h = made else {
            throw XLSXError(operation: "create workbook", context: path,
                            message: "libxlsxwriter could not allocate the workbook")
        }
        handle = h
        self.path = path
        do {
            try setProperties(properties)
        } catch {
            lxw_workbook_free(h)
            isClosed = true
            throw error
        }
    }

    /// Where libxlsxwriter keeps a workbook's XML parts until it zips them (unlinked temporary
    /// files): memory-backed /dev/shm when there is one, else the C library's default (/tmp).
    /// The parts of a statement workbook are a few hundred KB and live for milliseconds; on a
    /// journaled disk their creation and removal cost more than writing the workbook itself.
    static let partsFolder: String? = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : nil

    deinit {
        // Not closed: free everything without writing a file.
        if !isClosed { lxw_workbook_free(handle) }
    }

    /// Writes the file and frees the workbook. Throws with libxlsxwriter's message on failure.
    ///
    /// One workbook is written at a time in the process: libxlsxwriter converts the document
    /// dates with `gmtime`, whose result lives in the C library's one static buffer, so two
    /// workbooks written at once (the server renders on several threads) could swap dates.
    func close() throws(XLSXError) {
        try checkOpen("close workbook")
        isClosed = true
        // workbook_close frees the workbook whatever it returns.
        let (status, system) = Self.writing.withLock { _ in
            errno = 0
            let status = workbook_close(handle)
            return (status, errno)
        }
        // A failed zip write reports ZIP_ERRNO alone (and prints the system's reason itself): the
        // reason is errno, still set when workbook_close returns.
        if status == LXW_ERROR_ZIP_FILE_OPERATION || status == LXW_ERROR_CREATING_TMPFILE, system != 0 {
            throw XLSXError(operation: "write workbook", context: path, status: status, systemError: system)
        }
        try status.check("write workbook", path)
    }

    /// Held while a workbook is written (see ``close()``).
    private static let writing = Mutex<Void>(())

    // MARK: - Children

    /// Adds a worksheet named `name` (at most 31 characters, no `[]:*?/\`, unique).
    func addWorksheet(_ name: String) throws(XLSXError) -> Worksheet {
        try checkOpen("add worksheet '\(name)'")
        try name.withCString { workbook_validate_sheet_name(handle, $0) }
            .check("add worksheet '\(name)'", path)
        guard let ws = name.withCString({ workbook_add_worksheet(handle, $0) }) else {
            throw XLSXError(operation: "add worksheet '\(name)'", context: path, message: "libxlsxwriter refused the sheet")
        }
        worksheetNames.insert(name)
        return Worksheet(workbook: self, handle: ws, name: name)
    }

    /// Adds a cell format; configure it with ``Format``'s methods before writing with it.
    func addFormat() throws(XLSXError) -> Format {
        try checkOpen("add format")
        guard let f = workbook_add_format(handle) else {
            throw XLSXError(operation: "add format", context: path, message: "libxlsxwriter could not allocate a format")
        }
        return Format(workbook: self, handle: f)
    }

    /// Adds a native chart of `kind`; insert it into a worksheet with ``Worksheet/insert(_:row:column:scale:)``.
    func addChart(_ kind: Chart.Kind) throws(XLSXError) -> Chart {
        try checkOpen("add chart")
        guard let c = workbook_add_chart(handle, kind.lxwType) else {
            throw XLSXError(operation: "add chart", context: path, message: "libxlsxwriter could not allocate a chart")
        }
        return Chart(workbook: self, handle: c)
    }

    // MARK: - Internal

    func checkOpen(_ operation: @autoclosure () -> String) throws(XLSXError) {
        if isClosed { throw XLSXError(operation: operation(), context: path, message: "the workbook is already closed") }
    }

    private func setProperties(_ p: DocumentProperties) throws(XLSXError) {
        // workbook_set_properties copies every string (lxw_strdup), so the C strings need only
        // live for the call.
        let created = time_t(Int64(p.created.dayNumber) * 86_400)
        // docProps/core.xml and app.xml take the text as it is: a username holding a control
        // character would make them invalid XML.
        var p = p
        for keyPath in [\DocumentProperties.title, \.subject, \.author, \.company, \.keywords, \.comments] {
            p[keyPath: keyPath] = XMLText.holdable(p[keyPath: keyPath])
        }
        let status: lxw_error = p.title.withCString { title in
            p.subject.withCString { subject in
                p.author.withCString { author in
                    p.company.withCString { company in
                        p.keywords.withCString { keywords in
                            p.comments.withCString { comments in
                                var props = lxw_doc_properties()
                                props.title = UnsafeMutablePointer(mutating: title)
                                props.subject = UnsafeMutablePointer(mutating: subject)
                                props.author = UnsafeMutablePointer(mutating: author)
                                props.company = UnsafeMutablePointer(mutating: company)
                                props.keywords = UnsafeMutablePointer(mutating: keywords)
                                props.comments = UnsafeMutablePointer(mutating: comments)
                                props.created = created
                                return workbook_set_properties(handle, &props)
                            }
                        }
                    }
                }
            }
        }
        try status.check("set document properties", path)
    }
}
