import EZCore

/// One value on an About sheet: words, a date or a count.
///
/// The period's first and last day and the as-of date were written as text (`2026-10-01`) and the
/// quarantined rows' count as the text `0`, where every other date of a workbook is a real Excel
/// date and every count a number (docs/exports.md; outside review).
enum AboutValue {
    case text(String)
    case date(CivilDate)
    case count(Int)
}

extension Worksheet {
    /// Writes `facts` as label and value rows from `row` (labels in column 0, values in column 1;
    /// `textFormat` for the words), and returns the row after the last.
    @discardableResult
    func writeFacts(_ facts: [(String, AboutValue)], row first: Int, styles s: Styles, textFormat: Format? = nil) throws(XLSXError) -> Int {
        var row = first
        for (label, value) in facts {
            try write(label, row: row, column: 0, format: s.label)
            switch value {
            case .text(let text): try write(text, row: row, column: 1, format: textFormat)
            case .date(let date): try write(date: date, row: row, column: 1, styles: s)
            case .count(let n): try write(integer: n, row: row, column: 1, styles: s)
            }
            row += 1
        }
        return row
    }
}
