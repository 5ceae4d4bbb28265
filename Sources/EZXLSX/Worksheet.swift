import CXLSXWriter

/// One worksheet of a ``Workbook``, which it keeps alive; rows and columns are zero-based.
///
/// Text is only ever written with `worksheet_write_string`, so a value such as
/// `=HYPERLINK("http://x","y")` stays text and never becomes a formula; formulas are written
/// only by ``writeFormula(_:cachedResult:row:column:format:)`` from code, never from data.
final class Worksheet {
    /// Excel's limits.
    static let maxRows = 1_048_576
    static let maxColumns = 16_384
    /// The most characters a cell's text may hold: Excel counts UTF-16 units (an emoji is two),
    /// libxlsxwriter code points; a text within the first is within the second.
    static let maxStringLength = 32_767

    let workbook: Workbook
    private let handle: UnsafeMutablePointer<lxw_worksheet>
    /// The sheet's name as shown on its tab.
    let name: String

    init(workbook: Workbook, handle: UnsafeMutablePointer<lxw_worksheet>, name: String) {
        self.workbook = workbook
        self.handle = handle
        self.name = name
    }

    // MARK: - Cells

    /// Writes `text` as a string cell; longer texts than Excel allows are cut at its limit.
    func write(_ text: String, row: Int, column: Int, format: Format? = nil) throws(XLSXError) {
        let text = Worksheet.escapingEscapes(XMLText.cell(text))
        try workbook.checkOpen("write string")
        let (r, c) = try cell(row, column)
        let status: lxw_error
        if text.utf8.count > Worksheet.maxStringLength, text.utf16.count > Worksheet.maxStringLength {
            // Cut to Excel's limit with an ellipsis as its last character, so that a reader sees
            // the text was cut (the CSV files hold it whole). Counted in UTF-16 units, as Excel
            // does: 32,766 emoji were 65,532 of them, past what Excel keeps in a cell.
            var cut = String.UnicodeScalarView()
            var units = 0
            for scalar in text.unicodeScalars {
                units += scalar.utf16.count
                if units > Worksheet.maxStringLength - 1 { break }
                cut.append(scalar)
            }
            cut.append("\u{2026}")
            status = String(cut).withCString { worksheet_write_string(handle, r, c, $0, format?.handle) }
        } else {
            status = text.withCString { worksheet_write_string(handle, r, c, $0, format?.handle) }
        }
        try status.check("write string", reference(row, column))
    }

    /// Writes `text` as a string cell that a chart names its categories by: libxlsxwriter copies
    /// it into the chart's cached labels without escapes, so control characters are replaced
    /// too (``XMLText/holdable(_:)``).
    func write(chartLabel text: String, row: Int, column: Int, format: Format? = nil) throws(XLSXError) {
        try write(XMLText.holdable(text), row: row, column: column, format: format)
    }

    /// `text` with each `_xHHHH_` in it written as OOXML's escape for its underscore (`_x005F_`).
    ///
    /// A cell's text `_xHHHH_` is read by Excel as the character U+HHHH (the format's escape for
    /// control characters, which libxlsxwriter writes for them), so a category named `_x0041_BC`
    /// read "ABC", and a description "pay _x0033__x0030_ now" read "pay 30 now".
    static func escapingEscapes(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "_")) else { return text }
        let bytes = Array(utf8)
        func isHex(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 14)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "_"), i + 6 < bytes.count, bytes[i + 1] == UInt8(ascii: "x"),
               bytes[i + 2 ... i + 5].allSatisfy(isHex), bytes[i + 6] == UInt8(ascii: "_") {
                out += Array("_x005F".utf8)
            }
            out.append(bytes[i])
            i += 1
        }
        return out.count == bytes.count ? text : String(decoding: out, as: UTF8.self)
    }

    /// Writes a number cell.
    func write(number: Double, row: Int, column: Int, format: Format? = nil) throws(XLSXError) {
        try workbook.checkOpen("write number")
        let (r, c) = try cell(row, column)
        try worksheet_write_number(handle, r, c, number, format?.handle).check("write number", reference(row, column))
    }

    /// Writes a formula together with its cached result, so that readers that do not
    /// recalculate (and openpyxl's `data_only`) see the engine's value.
    func writeFormula(_ formula: String, cachedResult: Double, row: Int, column: Int, format: Format? = nil) throws(XLSXError) {
        try workbook.checkOpen("write formula")
        let (r, c) = try cell(row, column)
        try formula.withCString { worksheet_write_formula_num(handle, r, c, $0, format?.handle, cachedResult) }
            .check("write formula", reference(row, column))
    }

    /// Writes a formula whose cached result is text (`""` for a formula that shows nothing), so
    /// that readers that do not recalculate see that text rather than 0.
    func writeFormula(_ formula: String, cachedText: String, row: Int, column: Int, format: Format? = nil) throws(XLSXError) {
        try workbook.checkOpen("write formula")
        let (r, c) = try cell(row, column)
        try formula.withCString { f in
            cachedText.withCString { worksheet_write_formula_str(handle, r, c, f, format?.handle, $0) }
        }.check("write formula", reference(row, column))
    }

    // MARK: - Layout

    /// Sets the width (in characters) of columns `columns`, with an optional default format.
    func setColumns(_ columns: ClosedRange<Int>, width: Double, format: Format? = nil) throws(XLSXError) {
        try workbook.checkOpen("set column width")
        try worksheet_set_column(handle, lxw_col_t(columns.lowerBound), lxw_col_t(columns.upperBound), width, format?.handle)
            .check("set column width", "\(workbook.path) sheet '\(name)'")
    }

    /// Freezes the rows above `row` and the columns left of `column`.
    func freezePanes(row: Int, column: Int) throws(XLSXError) {
        try workbook.checkOpen("freeze panes")
        let (r, c) = try cell(row, column)
        worksheet_freeze_panes(handle, r, c)
    }

    /// Adds an autofilter over a header row and the rows under it.
    func autofilter(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int) throws(XLSXError) {
        try workbook.checkOpen("set autofilter")
        let (r0, c0) = try cell(firstRow, firstColumn)
        let (r1, c1) = try cell(lastRow, lastColumn)
        try worksheet_autofilter(handle, r0, c0, r1, c1).check("set autofilter", "\(workbook.path) sheet '\(name)'")
    }

    /// Inserts a chart with its top-left corner at a cell, scaled from Excel's default 480 × 288 px.
    func insert(_ chart: Chart, row: Int, column: Int, scale: (x: Double, y: Double) = (1, 1)) throws(XLSXError) {
        try workbook.checkOpen("insert chart")
        let (r, c) = try cell(row, column)
        var options = lxw_chart_options()
        options.x_scale = scale.x
        options.y_scale = scale.y
        try worksheet_insert_chart_opt(handle, r, c, chart.handle, &options).check("insert chart", reference(row, column))
    }

    /// Highlights the cells of a range with `format` where `formula` (written for the range's
    /// top-left cell, e.g. `=$M2="over"`) is true.
    func conditionalFormat(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int,
                           when formula: String, format: Format) throws(XLSXError) {
        try workbook.checkOpen("add conditional format")
        let (r0, c0) = try cell(firstRow, firstColumn)
        let (r1, c1) = try cell(lastRow, lastColumn)
        // libxlsxwriter copies value_string into its own rule.
        try formula.withCString { text in
            var rule = lxw_conditional_format()
            rule.type = UInt8(LXW_CONDITIONAL_TYPE_FORMULA.rawValue)
            rule.value_string = UnsafeMutablePointer(mutating: text)
            rule.format = format.handle
            return worksheet_conditional_format_range(handle, r0, c0, r1, c1, &rule)
        }.check("add conditional format", reference(firstRow, firstColumn))
    }

    /// Shades a range with a three-colour scale (low, middle, high as `0xRRGGBB`): a heat map.
    func colorScale(firstRow: Int, firstColumn: Int, lastRow: Int, lastColumn: Int,
                    low: UInt32, middle: UInt32, high: UInt32) throws(XLSXError) {
        try workbook.checkOpen("add colour scale")
        let (r0, c0) = try cell(firstRow, firstColumn)
        let (r1, c1) = try cell(lastRow, lastColumn)
        var rule = lxw_conditional_format()
        rule.type = UInt8(LXW_CONDITIONAL_3_COLOR_SCALE.rawValue)
        rule.min_color = lxw_color_t(low)
        rule.mid_color = lxw_color_t(middle)
        rule.max_color = lxw_color_t(high)
        try worksheet_conditional_format_range(handle, r0, c0, r1, c1, &rule)
            .check("add colour scale", reference(firstRow, firstColumn))
    }

    /// Sets the tab colour as `0xRRGGBB`.
    func tabColor(_ rgb: UInt32) throws(XLSXError) {
        try workbook.checkOpen("set tab colour")
        worksheet_set_tab_color(handle, lxw_color_t(rgb))
    }

    /// Hides the grid lines on screen.
    func hideGridlines() throws(XLSXError) {
        try workbook.checkOpen("hide grid lines")
        worksheet_gridlines(handle, UInt8(LXW_HIDE_ALL_GRIDLINES.rawValue))
    }

    // MARK: - References

    /// `Sheet!B12`, for error messages and formulas.
    func reference(_ row: Int, _ column: Int) -> String {
        "\(workbook.path) \(name)!\(Worksheet.columnLetters(column))\(row + 1)"
    }

    /// `B12` for zero-based row 11, column 1: a cell in a formula on the same sheet.
    static func cellName(_ row: Int, _ column: Int) -> String { "\(columnLetters(column))\(row + 1)" }

    /// `A`, `B`, … `Z`, `AA`, … for a zero-based column.
    static func columnLetters(_ column: Int) -> String {
        var n = column + 1
        var letters: [Character] = []
        while n > 0 {
            let r = (n - 1) % 26
            letters.append(Character(Unicode.Scalar(UInt8(65 + r))))
            n = (n - 1) / 26
        }
        return String(letters.reversed())
    }

    private func cell(_ row: Int, _ column: Int) throws(XLSXError) -> (lxw_row_t, lxw_col_t) {
        guard (0..<Worksheet.maxRows).contains(row), (0..<Worksheet.maxColumns).contains(column) else {
            throw XLSXError(operation: "address a cell", context: "\(workbook.path) sheet '\(name)'",
                            message: "row \(row + 1), column \(column + 1) is outside Excel's grid")
        }
        return (lxw_row_t(row), lxw_col_t(column))
    }
}
