import Crypto
import Glibc

/// Writes a document again with some of its objects replaced or left out, copying every other
/// object's bytes as they are, with a new cross-reference table and trailer.
///
/// This is how ``PDFAccessibility`` finishes a document whose layout it could read
/// (``PDFObjectLayout``): qpdf reads and edits the few objects the pass changes (the catalog,
/// figures, the elements that held furniture, the parent tree, the pages' content), and gives
/// their text (`qpdf_oh_unparse_resolved`); the table rows and cells, fonts and images, most of a
/// statement's objects, are never parsed. Having qpdf write the whole document made it parse,
/// write and free every object: over half of the pass, a third of a statement's PDF.
///
/// The result is a plain PDF like the one read (not an incremental update): the same objects in
/// the same order and numbering, replaced ones in place, left-out ones free in the table (a
/// linked list of free entries, as ISO 32000-1 §7.5.4 describes). Its `/ID` is the MD5 of the
/// bytes before the table, so the same input gives the same document.
struct PDFObjectSplicer {
    /// What is written in an object's place.
    enum Replacement {
        /// A non-stream object: its text (a dictionary, an array, …) as qpdf writes it.
        case object([UInt8])
        /// A stream: its dictionary's text (with the new `/Length`) and its (encoded) data.
        case stream(dictionary: [UInt8], data: [UInt8])
    }

    /// Where the objects lie in the document read.
    let layout: PDFObjectLayout
    /// The objects written from the edited document instead of being copied.
    var replacements: [Int32: Replacement] = [:]
    /// Objects nothing refers to any more, left out of the result.
    var dropped: Set<Int32> = []

    /// Writes the document read from `pdf` with the replacements to `output`, and returns its bytes
    /// when `output` is ``PDFOutput/bytes``. `trailer` gives the trailer dictionary's text for the
    /// document's `/ID` (16 bytes); the table and `startxref` are written here.
    func write(from pdf: UnsafeBufferPointer<UInt8>, to output: PDFOutput,
               trailer: ([UInt8]) -> [UInt8]) throws(PDFOutputError) -> [UInt8] {
        let sink = try PDFByteSink(output, capacity: pdf.count + 4_096)
        var offsets = [Int](repeating: 0, count: Int(layout.size))
        sink.write(UnsafeBufferPointer(rebasing: pdf[layout.header]))
        for object in layout.objects where !dropped.contains(object.number) {
            offsets[Int(object.number)] = sink.count
            switch replacements[object.number] {
            case nil: sink.write(UnsafeBufferPointer(rebasing: pdf[object.range]))
            case .object(let text):
                sink.write("\(object.number) 0 obj\n")
                sink.write(text)
                sink.write("\nendobj\n")
            case .stream(let dictionary, let data):
                sink.write("\(object.number) 0 obj\n")
                sink.write(dictionary)
                sink.write("\nstream\n")
                sink.write(data)
                sink.write("\nendstream\nendobj\n")
            }
        }
        let id = Array(sink.digest())
        let table = sink.count
        sink.write(crossReferenceTable(offsets))
        sink.write("trailer\n")
        sink.write(trailer(id))
        sink.write("\nstartxref\n\(table)\n%%EOF\n")
        return try sink.finish()
    }

    /// `xref`, one subsection of every object number, and the entries: in use at their new offset,
    /// or free (the table's free objects and the dropped ones, each naming the next free number,
    /// the last naming 0).
    private func crossReferenceTable(_ offsets: [Int]) -> [UInt8] {
        var free = Set(layout.free).union(dropped)
        free.insert(0)
        let freeInOrder = free.sorted()
        var nextFree: [Int32: Int32] = [:]
        for (i, number) in freeInOrder.enumerated() { nextFree[number] = i + 1 < freeInOrder.count ? freeInOrder[i + 1] : 0 }
        var table = Array("xref\n0 \(layout.size)\n".utf8)
        table.reserveCapacity(table.count + Int(layout.size) * 20)
        for number in 0..<layout.size {
            if let next = nextFree[number] {
                // Object 0 heads the list with generation 65535; a dropped object's number may be
                // reused with generation 1, a number free in the input with generation 0.
                let generation = number == 0 ? 65_535 : dropped.contains(number) ? 1 : 0
                append(Int(next), generation: generation, kind: "f", to: &table)
            } else {
                append(offsets[Int(number)], generation: 0, kind: "n", to: &table)
            }
        }
        return table
    }

    /// One 20-byte entry: `nnnnnnnnnn ggggg k \n`.
    private func append(_ value: Int, generation: Int, kind: Character, to table: inout [UInt8]) {
        func digits(_ value: Int, _ width: Int) {
            var text = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var rest = value, i = width - 1
            while rest > 0, i >= 0 {
                text[i] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                i -= 1
            }
            table += text
        }
        digits(value, 10)
        table.append(UInt8(ascii: " "))
        digits(generation, 5)
        table += [UInt8(ascii: " "), kind.asciiValue!, UInt8(ascii: " "), UInt8(ascii: "\n")]
    }
}

/// Bytes written in order to memory or to a file, with the MD5 of what has been written so far
/// (the document's `/ID`). One owner of the `FILE` it writes to, closed by ``finish()`` or, on a
/// failure on the way, in `deinit`.
final class PDFByteSink {
    private var bytes: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    private let path: String?
    private var failure: Int32 = 0
    private var hash = Insecure.MD5()
    /// The number of bytes written.
    private(set) var count = 0

    /// A sink for `output`: memory with room for `capacity` bytes, or the file (created or truncated).
    init(_ output: PDFOutput, capacity: Int) throws(PDFOutputError) {
        switch output {
        case .bytes:
            path = nil
            bytes.reserveCapacity(capacity)
        case .file(let path):
            self.path = path
            guard let file = fopen(path, "wb") else {
                throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
            }
            self.file = file
        }
    }

    deinit { if let file { fclose(file) } }

    func write(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard buffer.count > 0 else { return }
        hash.update(bufferPointer: UnsafeRawBufferPointer(buffer))
        count += buffer.count
        if let file {
            if failure == 0, fwrite(buffer.baseAddress, 1, buffer.count, file) != buffer.count { failure = errno }
        } else {
            bytes.append(contentsOf: buffer)
        }
    }

    func write(_ bytes: [UInt8]) { bytes.withUnsafeBufferPointer { write($0) } }
    func write(_ text: String) { write(Array(text.utf8)) }

    /// The MD5 of the bytes written so far.
    func digest() -> Insecure.MD5.Digest { hash.finalize() }

    /// Closes the file (reporting a write that failed) and returns the bytes written to memory.
    func finish() throws(PDFOutputError) -> [UInt8] {
        guard let file, let path else { return bytes }
        self.file = nil
        let closed = fclose(file)
        if failure != 0 || closed != 0 {
            throw .cannotWrite(path: path, reason: String(cString: strerror(failure != 0 ? failure : errno)))
        }
        return []
    }
}
