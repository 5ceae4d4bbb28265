/// Splits a table's rows over pages, repeating the header row on every page it reaches.
///
/// Pure arithmetic on heights, so it can be tested without drawing anything:
///
/// ```swift
/// let slices = TablePagination.slices(rowHeights: Array(repeating: 14, count: 100), headerHeight: 18,
///                                     firstPageSpace: 300, fullPageSpace: 700)
/// // slices[0].rows == 0..<20 on the current page, then 0-based later pages follow
/// ```
enum TablePagination {
    /// One page's part of a table.
    struct Slice: Equatable, Sendable {
        /// 0 for the page the table starts on (the current one), 1 for the next, …
        var pageOffset: Int
        /// The rows drawn on that page, under a header row.
        var rows: Range<Int>
    }

    /// The fewest rows worth starting a table with at the bottom of a page; with less room
    /// the table starts on the next page so that a header never sits alone.
    static let minimumRowsUnderHeader = 3

    /// Splits rows of the given heights into page slices.
    ///
    /// - Parameters:
    ///   - rowHeights: each row's height, in order.
    ///   - headerHeight: the header row's height, repeated on every page.
    ///   - firstPageSpace: the height left on the current page.
    ///   - fullPageSpace: the height of an empty page's content area.
    /// - Returns: slices in order, covering every row exactly once; empty for no rows.
    ///   A row taller than a whole page gets a page to itself.
    /// - Complexity: O(n) in the number of rows.
    static func slices(rowHeights: [Double], headerHeight: Double, firstPageSpace: Double,
                       fullPageSpace: Double) -> [Slice] {
        guard !rowHeights.isEmpty else { return [] }
        var result: [Slice] = []
        var page = 0
        var space = firstPageSpace
        // Skip to the next page when the current one cannot take the header and a few rows.
        let opening = rowHeights.prefix(minimumRowsUnderHeader).reduce(headerHeight, +)
        if opening > space && space < fullPageSpace {
            page = 1
            space = fullPageSpace
        }
        var start = 0
        var used = headerHeight
        var index = 0
        while index < rowHeights.count {
            let h = rowHeights[index]
            if used + h <= space || index == start {
                used += h
                index += 1
            } else {
                result.append(Slice(pageOffset: page, rows: start..<index))
                page += 1
                space = fullPageSpace
                start = index
                used = headerHeight
            }
        }
        result.append(Slice(pageOffset: page, rows: start..<index))
        return result
    }
}
