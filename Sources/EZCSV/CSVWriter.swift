import EZCore

/// Builds one RFC 4180 CSV file directly as UTF-8 bytes.
///
/// Lines end with CRLF (RFC 4180 §2.1). A field is quoted when it holds a comma, a double quote,
/// CR or LF, with inner quotes doubled. Text fields go through ``text(_:)``, which also guards
/// against formula injection: a text that begins with `=`, `+`, `-`, `@`, a tab, CR, LF, NUL or a
/// full-width `＝＋－＠`, after any blanks, gets a leading single quote so that no spreadsheet
/// evaluates it (and so does a text whose leading quotes are followed by one of those, so the
/// quote can be undone exactly; see ``needsGuard(_:)``). Numbers, dates and
/// amounts go through the raw appenders, which never add that quote (`-12.50` stays a number).
///
/// Everything is appended into one growing byte buffer: no per-cell `String` is built. A writer
/// made with an output (``init(header:output:)``) hands the buffer to it every
/// ``outputChunk`` bytes, at the end of a row, and starts it again: a long file is then never
/// held whole.
struct CSVWriter {
    private(set) var bytes: [UInt8] = []
    private var fieldsInRow = 0
    /// Where a streamed file's bytes go (nil: they stay in ``bytes``).
    private let output: CSVFileOutput?

    /// The most bytes a streamed writer holds before handing them to its output.
    static let outputChunk = 1 << 16

    static let comma: UInt8 = 0x2C
    static let quote: UInt8 = 0x22
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A

    /// Starts a file with its header row.
    init(header: [String], reserving capacity: Int = 256) {
        output = nil
        bytes.reserveCapacity(max(capacity, 64))
        for name in header { raw(name) }
        endRow()
    }

    /// Starts a file with its header row, written to `output` as it is built (see ``finish()``).
    init(header: [String], output: CSVFileOutput) {
        self.output = output
        bytes.reserveCapacity(Self.outputChunk + 4096)
        for name in header { raw(name) }
        endRow()
    }

    /// Hands what is left to the output and closes it.
    ///
    /// - Throws: ``CSVOutputError`` when any write failed (the first failure).
    mutating func finish() throws(CSVOutputError) {
        guard let output else { return }
        output.write(bytes)
        bytes.removeAll()
        try output.close()
    }

    // MARK: - Fields

    /// A text field: quoted when needed, and prefixed with `'` when it could start a formula.
    mutating func text(_ value: String) {
        separate()
        var value = value
        value.withUTF8 { appendText($0) }
    }

    /// An optional text field; nil is an empty field.
    mutating func text(_ value: String?) {
        if let value { text(value) } else { empty() }
    }

    /// A field written as is (column names, codes, enum raw values); quoted only if it must be.
    mutating func raw(_ value: String) {
        separate()
        var value = value
        value.withUTF8 { appendQuotedIfNeeded($0, guardFormula: false) }
    }

    /// An empty field.
    mutating func empty() { separate() }

    /// An integer field.
    mutating func integer<I: BinaryInteger>(_ value: I) {
        separate()
        appendDigits(UInt64(value.magnitude), negative: value < 0, minimumDigits: 1)
    }

    /// An amount as a plain decimal with exactly `exponent` fraction digits: `-12.50`, `1500`.
    mutating func amount(_ minor: Int64, exponent: Int) {
        separate()
        appendDecimal(minor.magnitude, negative: minor < 0, exponent: exponent)
    }

    /// An optional amount; nil is an empty field.
    mutating func amount(_ minor: Int64?, exponent: Int) {
        if let minor { amount(minor, exponent: exponent) } else { empty() }
    }

    /// A percentage with one decimal (`12.5`, `-3.0`); nil is an empty field.
    mutating func percent(tenths: Int64?) {
        separate()
        guard let tenths else { return }
        appendDecimal(tenths.magnitude, negative: tenths < 0, exponent: 1)
    }

    /// An ISO-8601 date `YYYY-MM-DD`; nil is an empty field.
    mutating func date(_ date: CivilDate?) {
        separate()
        guard let date else { return }
        let (y, m, d) = date.components
        appendDigits(UInt64(y), negative: false, minimumDigits: 4)
        bytes.append(0x2D)
        appendDigits(UInt64(m), negative: false, minimumDigits: 2)
        bytes.append(0x2D)
        appendDigits(UInt64(d), negative: false, minimumDigits: 2)
    }

    /// An ISO-8601 month `YYYY-MM`.
    mutating func month(_ date: CivilDate) {
        separate()
        let (y, m, _) = date.components
        appendDigits(UInt64(y), negative: false, minimumDigits: 4)
        bytes.append(0x2D)
        appendDigits(UInt64(m), negative: false, minimumDigits: 2)
    }

    /// Ends the current row with CRLF.
    mutating func endRow() {
        bytes.append(CSVWriter.cr)
        bytes.append(CSVWriter.lf)
        fieldsInRow = 0
        if let output, bytes.count >= Self.outputChunk {
            output.write(bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// The finished file.
    func file(named name: String) -> CSVFile { CSVFile(name: name, bytes: bytes) }

    // MARK: - Bytes

    @inline(__always)
    private mutating func separate() {
        if fieldsInRow > 0 { bytes.append(CSVWriter.comma) }
        fieldsInRow += 1
    }

    /// Whether a text beginning with the byte `first` could be read as a formula by a spreadsheet:
    /// `=`, `+`, `-`, `@`, a tab, a carriage return, a line feed or NUL (OWASP's and ASVS 1.2.10's
    /// lists).
    @inline(__always)
    static func startsFormula(_ first: UInt8) -> Bool {
        first == 0x3D || first == 0x2B || first == 0x2D || first == 0x40
            || first == 0x09 || first == 0x0D || first == 0x0A || first == 0x00
    }

    /// The length of the full-width `＝`, `＋`, `－` or `＠` (U+FF1D, U+FF0B, U+FF0D, U+FF20) at
    /// `i`, or 0: spreadsheets with an East Asian input method read them as the ASCII signs.
    @inline(__always)
    static func fullWidthSign(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        guard i + 2 < utf8.count, utf8[i] == 0xEF else { return 0 }
        switch (utf8[i + 1], utf8[i + 2]) {
        case (0xBC, 0x9D), (0xBC, 0x8B), (0xBC, 0x8D), (0xBC, 0xA0): return 3
        default: return 0
        }
    }

    /// The length of the blank at `i` that a spreadsheet may trim before reading a cell (a space,
    /// a no-break space U+00A0, an ideographic space U+3000), or 0.
    @inline(__always)
    static func blank(_ utf8: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        if utf8[i] == 0x20 { return 1 }
        if utf8[i] == 0xC2, i + 1 < utf8.count, utf8[i + 1] == 0xA0 { return 2 }
        if utf8[i] == 0xE3, i + 2 < utf8.count, utf8[i + 1] == 0x80, utf8[i + 2] == 0x80 { return 3 }
        return 0
    }

    /// Whether a text gets the leading `'`. The rule, in order: skip the text's leading quotes,
    /// then its leading blanks (space, U+00A0, U+3000: an import that trims them would otherwise
    /// reach the sign); if what follows is `=`, `+`, `-`, `@`, a tab, CR, LF, NUL or a full-width
    /// `＝＋－＠`, the text is guarded. A text typed with leading quotes (`'=1+1`) is guarded too,
    /// so the reader's rule is exact: a field matching that rule was guarded; drop one quote.
    static func needsGuard(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < utf8.count, utf8[i] == 0x27 { i += 1 }
        while i < utf8.count {
            let n = blank(utf8, at: i)
            if n == 0 { break }
            i += n
        }
        guard i < utf8.count else { return false }
        return startsFormula(utf8[i]) || fullWidthSign(utf8, at: i) > 0
    }

    private mutating func appendText(_ utf8: UnsafeBufferPointer<UInt8>) {
        appendQuotedIfNeeded(utf8, guardFormula: true)
    }

    private mutating func appendQuotedIfNeeded(_ utf8: UnsafeBufferPointer<UInt8>, guardFormula: Bool) {
        var needsQuotes = false
        for b in utf8 where b == CSVWriter.comma || b == CSVWriter.quote || b == CSVWriter.cr || b == CSVWriter.lf {
            needsQuotes = true
            break
        }
        let prefix = guardFormula && CSVWriter.needsGuard(utf8)
        if !needsQuotes {
            if prefix { bytes.append(0x27) }
            bytes.append(contentsOf: utf8)
            return
        }
        bytes.append(CSVWriter.quote)
        if prefix { bytes.append(0x27) }
        for b in utf8 {
            if b == CSVWriter.quote { bytes.append(CSVWriter.quote) }
            bytes.append(b)
        }
        bytes.append(CSVWriter.quote)
    }

    private mutating func appendDigits(_ value: UInt64, negative: Bool, minimumDigits: Int) {
        if negative { bytes.append(0x2D) }
        // Up to 20 digits, written backwards into 24 bytes of stack scratch.
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { buf in
            var v = value
            var i = buf.count
            repeat {
                i -= 1
                buf[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            } while v > 0
            while buf.count - i < minimumDigits {
                i -= 1
                buf[i] = 0x30
            }
            bytes.append(contentsOf: buf[i...])
        }
    }

    private mutating func appendDecimal(_ magnitude: UInt64, negative: Bool, exponent: Int) {
        guard exponent > 0 else {
            appendDigits(magnitude, negative: negative, minimumDigits: 1)
            return
        }
        var scale: UInt64 = 1
        for _ in 0..<exponent { scale *= 10 }
        appendDigits(magnitude / scale, negative: negative, minimumDigits: 1)
        bytes.append(0x2E)
        appendDigits(magnitude % scale, negative: false, minimumDigits: exponent)
    }
}
