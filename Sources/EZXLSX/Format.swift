import CXLSXWriter

/// A cell format owned by a ``Workbook`` (libxlsxwriter frees formats with the workbook).
///
/// Configure it before the first cell is written with it; libxlsxwriter copies the number
/// format string.
final class Format {
    let workbook: Workbook
    let handle: UnsafeMutablePointer<lxw_format>

    init(workbook: Workbook, handle: UnsafeMutablePointer<lxw_format>) {
        self.workbook = workbook
        self.handle = handle
    }

    /// Sets an Excel number format such as `#,##0.00` or `yyyy-mm-dd`.
    @discardableResult
    func numberFormat(_ code: String) -> Format {
        if !workbook.isClosed { code.withCString { format_set_num_format(handle, $0) } }
        return self
    }

    /// Bold text.
    @discardableResult
    func bold() -> Format {
        if !workbook.isClosed { format_set_bold(handle) }
        return self
    }

    /// Italic text.
    @discardableResult
    func italic() -> Format {
        if !workbook.isClosed { format_set_italic(handle) }
        return self
    }

    /// A font size in points.
    @discardableResult
    func fontSize(_ points: Double) -> Format {
        if !workbook.isClosed { format_set_font_size(handle, points) }
        return self
    }

    /// The font colour as `0xRRGGBB`.
    @discardableResult
    func fontColor(_ rgb: UInt32) -> Format {
        if !workbook.isClosed { format_set_font_color(handle, lxw_color_t(rgb)) }
        return self
    }

    /// A solid background fill as `0xRRGGBB`.
    @discardableResult
    func background(_ rgb: UInt32) -> Format {
        if !workbook.isClosed {
            format_set_pattern(handle, UInt8(LXW_PATTERN_SOLID.rawValue))
            format_set_bg_color(handle, lxw_color_t(rgb))
        }
        return self
    }

    /// A thin bottom border.
    @discardableResult
    func bottomBorder() -> Format {
        if !workbook.isClosed { format_set_bottom(handle, UInt8(LXW_BORDER_THIN.rawValue)) }
        return self
    }

    /// A thin top border.
    @discardableResult
    func topBorder() -> Format {
        if !workbook.isClosed { format_set_top(handle, UInt8(LXW_BORDER_THIN.rawValue)) }
        return self
    }

    /// Wraps long text within the cell.
    @discardableResult
    func wrap() -> Format {
        if !workbook.isClosed { format_set_text_wrap(handle) }
        return self
    }

    /// Top vertical alignment.
    @discardableResult
    func alignTop() -> Format {
        if !workbook.isClosed { format_set_align(handle, UInt8(LXW_ALIGN_VERTICAL_TOP.rawValue)) }
        return self
    }
}
