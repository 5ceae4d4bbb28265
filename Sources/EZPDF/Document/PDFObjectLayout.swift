/// Where each object of a PDF lies in its bytes, read from the document's one classic
/// cross-reference table: what ``PDFObjectSplicer`` needs to copy the objects it does not change
/// as they are, instead of having qpdf parse and write every one of them again.
///
/// Cairo 1.16 writes every document this way: a header, the objects one after the other (each
/// `N 0 obj … endobj`), one `xref` section, a trailer without `/Prev`, `startxref`. The layout is
/// read only when the bytes say exactly that; anything else (an incremental update, a
/// cross-reference stream, an entry that does not point at its object, an encrypted document)
/// gives nil, and the caller has qpdf write the document instead. qpdf still reads and edits
/// every object this code changes: only the byte ranges come from here.
struct PDFObjectLayout: Equatable {
    /// One in-use object: its number and the bytes from `N 0 obj` to the newline after `endobj`.
    struct Object: Equatable {
        var number: Int32
        var range: Range<Int>
    }

    /// The bytes before the first object (`%PDF-1.5` and the binary comment line).
    var header: Range<Int>
    /// The in-use objects, in the order they appear in the file.
    var objects: [Object]
    /// The object numbers the table lists as free (object 0 included).
    var free: [Int32]
    /// The table's size (the trailer's `/Size`): one more than the highest object number.
    var size: Int32

    /// Reads the layout of `pdf`, or nil when the document is not laid out as described above.
    init?(_ pdf: UnsafeBufferPointer<UInt8>) {
        guard let xref = Self.crossReferenceOffset(pdf), xref < pdf.count,
              let table = Self.entries(pdf, at: xref) else { return nil }
        guard Self.trailerIsPlain(pdf, from: table.end) else { return nil }
        var objects: [Object] = []
        var free: [Int32] = []
        objects.reserveCapacity(table.offsets.count)
        for (number, offset) in table.offsets.enumerated() {
            guard let offset else { free.append(Int32(number)); continue }
            guard offset < xref else { return nil }
            objects.append(Object(number: Int32(number), range: offset..<offset))
        }
        guard free.first == 0 else { return nil }
        objects.sort { $0.range.lowerBound < $1.range.lowerBound }
        // Each object ends where the next begins (the last where the table does), and must read
        // `N 0 obj` at its start and `endobj` at its end: nothing lies between two objects.
        for i in objects.indices {
            let end = i + 1 < objects.count ? objects[i + 1].range.lowerBound : xref
            objects[i].range = objects[i].range.lowerBound..<end
            guard Self.isObject(pdf, objects[i]) else { return nil }
        }
        guard let first = objects.first?.range.lowerBound else { return nil }
        header = 0..<first
        self.objects = objects
        self.free = free
        size = Int32(table.offsets.count)
    }

    // MARK: - Reading

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The offset `startxref` gives, read from the last 64 bytes (`startxref\nN\n%%EOF\n`).
    private static func crossReferenceOffset(_ pdf: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let marker = pdf[max(0, pdf.count - 64)...].ranges(of: bytes("startxref")).last else { return nil }
        let p = skipSpace(pdf, marker.upperBound)
        let (value, next) = number(pdf, p)
        guard let value, next > p, pdf[skipSpace(pdf, next)...].starts(with: bytes("%%EOF")) else { return nil }
        return value
    }

    /// The table at `offset`: one subsection `0 N`, each entry 20 bytes; nil for anything else.
    private static func entries(_ pdf: UnsafeBufferPointer<UInt8>, at offset: Int) -> (offsets: [Int?], end: Int)? {
        guard pdf[offset...].starts(with: bytes("xref")) else { return nil }
        var p = skipSpace(pdf, offset + 4)
        let (first, afterFirst) = number(pdf, p)
        guard first == 0 else { return nil }
        p = skipSpace(pdf, afterFirst)
        let (count, afterCount) = number(pdf, p)
        guard let count, count > 1, count < 8_000_000 else { return nil }
        p = skipSpace(pdf, afterCount)
        guard p + count * 20 <= pdf.count else { return nil }
        var offsets: [Int?] = []
        offsets.reserveCapacity(count)
        for _ in 0..<count {
            // "nnnnnnnnnn ggggg n \n" or "… f \n" (the end of line may also be "\r\n" or " \r").
            let (value, afterValue) = number(pdf, p)
            guard let value, afterValue == p + 10, pdf[p + 10] == 0x20 else { return nil }
            let (generation, afterGeneration) = number(pdf, p + 11)
            guard let generation, afterGeneration == p + 16, pdf[p + 16] == 0x20 else { return nil }
            switch pdf[p + 17] {
            case UInt8(ascii: "n"):
                guard generation == 0 else { return nil }
                offsets.append(value)
            case UInt8(ascii: "f"): offsets.append(nil)
            default: return nil
            }
            guard isSpace(pdf[p + 18]), isSpace(pdf[p + 19]) else { return nil }
            p += 20
        }
        return (offsets, p)
    }

    /// Whether the table is followed by one trailer that needs nothing but the table (no `/Prev`,
    /// no `/XRefStm`, no `/Encrypt`) and then `startxref`.
    private static func trailerIsPlain(_ pdf: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let p = skipSpace(pdf, start)
        guard pdf[p...].starts(with: bytes("trailer")), let end = pdf[p...].firstRange(of: bytes("startxref")) else {
            return false
        }
        let trailer = pdf[p..<end.lowerBound]
        return !["/Prev", "/XRefStm", "/Encrypt"].contains { trailer.firstRange(of: bytes($0)) != nil }
    }

    /// Whether `object`'s bytes begin with `N 0 obj` and end with `endobj` and a line end.
    private static func isObject(_ pdf: UnsafeBufferPointer<UInt8>, _ object: Object) -> Bool {
        let opening = bytes("\(object.number) 0 obj")
        let range = object.range
        guard range.count > opening.count + 7, pdf[range].starts(with: opening),
              isSpace(pdf[range.lowerBound + opening.count]) else { return false }
        var end = range.upperBound
        while end > range.lowerBound, isSpace(pdf[end - 1]) { end -= 1 }
        guard end < range.upperBound else { return false }
        return pdf[(end - 6)..<end].elementsEqual(bytes("endobj"))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func skipSpace(_ pdf: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var p = start
        while p < pdf.count, isSpace(pdf[p]) { p += 1 }
        return p
    }

    /// The decimal number at `start` (at most 12 digits) and the index after it; nil without one.
    private static func number(_ pdf: UnsafeBufferPointer<UInt8>, _ start: Int) -> (Int?, Int) {
        var p = start, value = 0
        while p < pdf.count, p - start < 12, (0x30...0x39).contains(pdf[p]) {
            value = value * 10 + Int(pdf[p] - 0x30)
            p += 1
        }
        return (p > start ? value : nil, p)
    }
}
