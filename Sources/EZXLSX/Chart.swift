import CXLSXWriter

/// A native Excel chart owned by a ``Workbook``: series refer to cell ranges of a worksheet.
final class Chart {
    /// The chart types ezreport uses.
    enum Kind {
        case pie, doughnut, line, column, bar

        var lxwType: UInt8 {
            switch self {
            case .pie: return UInt8(LXW_CHART_PIE.rawValue)
            case .doughnut: return UInt8(LXW_CHART_DOUGHNUT.rawValue)
            case .line: return UInt8(LXW_CHART_LINE.rawValue)
            case .column: return UInt8(LXW_CHART_COLUMN.rawValue)
            case .bar: return UInt8(LXW_CHART_BAR.rawValue)
            }
        }
    }

    /// A cell range on a worksheet, zero-based and inclusive.
    struct Range {
        var sheet: String
        var firstRow: Int
        var firstColumn: Int
        var lastRow: Int
        var lastColumn: Int

        /// A single column from `firstRow` to `lastRow`.
        static func column(_ column: Int, rows: ClosedRange<Int>, on sheet: String) -> Range {
            Range(sheet: sheet, firstRow: rows.lowerBound, firstColumn: column, lastRow: rows.upperBound, lastColumn: column)
        }
    }

    let workbook: Workbook
    let handle: UnsafeMutablePointer<lxw_chart>

    init(workbook: Workbook, handle: UnsafeMutablePointer<lxw_chart>) {
        self.workbook = workbook
        self.handle = handle
    }

    /// Sets the chart's title (copied by libxlsxwriter).
    func title(_ text: String) throws(XLSXError) {
        try workbook.checkOpen("set chart title")
        XMLText.holdable(text).withCString { chart_title_set_name(handle, $0) }
    }

    /// Adds a series of `values` labelled by `categories`, named `name`; `dashed` draws its line
    /// dashed; `percentLabels` labels a pie's slices with their percentage and leader lines.
    func addSeries(name: String, categories: Range, values: Range, color: UInt32? = nil, dashed: Bool = false,
                   percentLabels: Bool = false, pointColors: [UInt32] = []) throws(XLSXError) {
        try workbook.checkOpen("add chart series '\(name)'")
        guard let series = chart_add_series(handle, nil, nil) else {
            throw XLSXError(operation: "add chart series '\(name)'", context: workbook.path, message: "libxlsxwriter refused the series")
        }
        // The sheet names and the series name are copied (lxw_strdup) by libxlsxwriter.
        categories.sheet.withCString {
            chart_series_set_categories(series, $0, lxw_row_t(categories.firstRow), lxw_col_t(categories.firstColumn),
                                        lxw_row_t(categories.lastRow), lxw_col_t(categories.lastColumn))
        }
        values.sheet.withCString {
            chart_series_set_values(series, $0, lxw_row_t(values.firstRow), lxw_col_t(values.firstColumn),
                                    lxw_row_t(values.lastRow), lxw_col_t(values.lastColumn))
        }
        XMLText.holdable(name).withCString { chart_series_set_name(series, $0) }
        if color != nil || dashed {
            var line = lxw_chart_line()
            if let color { line.color = lxw_color_t(color) }
            line.width = 2.25
            if dashed { line.dash_type = UInt8(LXW_CHART_LINE_DASH_DASH.rawValue) }
            chart_series_set_line(series, &line)
        }
        if !pointColors.isEmpty {
            // libxlsxwriter copies each point's fill, so these only need to live for the call.
            var fills = pointColors.map { c -> lxw_chart_fill in
                var f = lxw_chart_fill()
                f.color = lxw_color_t(c)
                return f
            }
            let status: lxw_error = fills.withUnsafeMutableBufferPointer { fillBuffer in
                var points = (0..<fillBuffer.count).map { i in lxw_chart_point(line: nil, fill: fillBuffer.baseAddress! + i, pattern: nil) }
                return points.withUnsafeMutableBufferPointer { pointBuffer in
                    var list: [UnsafeMutablePointer<lxw_chart_point>?] = (0..<pointBuffer.count).map { pointBuffer.baseAddress! + $0 }
                    list.append(nil)
                    return list.withUnsafeMutableBufferPointer { chart_series_set_points(series, $0.baseAddress!) }
                }
            }
            try status.check("colour chart points of '\(name)'", workbook.path)
        }
        if percentLabels {
            chart_series_set_labels(series)
            chart_series_set_labels_options(series, 0, 0, 0)
            chart_series_set_labels_percentage(series)
            chart_series_set_labels_leader_line(series)
            chart_series_set_labels_position(series, UInt8(LXW_CHART_LABEL_POSITION_BEST_FIT.rawValue))
        }
    }

    /// A number format for the value axis, e.g. `#,##0.00`.
    func valueAxisFormat(_ code: String) throws(XLSXError) {
        try workbook.checkOpen("set chart axis format")
        code.withCString { chart_axis_set_num_format(handle.pointee.y_axis, $0) }
    }

    /// A number format for the category axis, e.g. `mmm yyyy` for dates.
    func categoryAxisFormat(_ code: String) throws(XLSXError) {
        try workbook.checkOpen("set chart axis format")
        code.withCString { chart_axis_set_num_format(handle.pointee.x_axis, $0) }
    }

    /// Puts the legend at the bottom.
    func legendAtBottom() throws(XLSXError) {
        try workbook.checkOpen("set chart legend")
        chart_legend_set_position(handle, UInt8(LXW_CHART_LEGEND_BOTTOM.rawValue))
    }
}
