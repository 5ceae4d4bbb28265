import EZCairo

/// A table of single-line rows: columns with relative widths and alignments, a header row that is
/// repeated on every page the table reaches, zebra stripes, and a few cell kinds (text, a status
/// pill, a progress bar).
struct PDFTable {
    /// One column.
    struct Column {
        var title: String
        /// Relative width (the table shares its width in proportion).
        var weight: Double
        var align: TextLayout.Alignment = .left
        /// When true the column is as wide as its widest cell (or title) needs, up to ``maxShare``
        /// of the table; the other columns share what is left by weight. Dates, amounts and short names
        /// are then never cut while a description takes the slack.
        var fit: Bool = false
        /// The most of the table's width a `fit` column takes (its cells are cut past it): a third
        /// unless a column next to a description must leave it more.
        var maxShare: Double = 1.0 / 3
        /// For a column that is not `fit`: it takes no more of the shared width than its widest
        /// cell (or title) needs, and what it leaves goes to the other columns; when it needs more
        /// than its share by weight, it gets that share. Short names hug; a description does not.
        var hug: Bool = false
        /// Its ``Cell/wrappingText(_:)`` cells may take more lines (the row grows to hold them).
        var wraps: Bool = false
    }

    /// One cell.
    enum Cell {
        /// Text, cut with '…' when it does not fit.
        case text(String, color: Color = PDFTheme.ink, bold: Bool = false)
        /// Text that takes more lines when it does not fit one (its row grows to hold them), and is
        /// cut with '…' after ``PDFTable/wrapLines``: a group expense's line, which ends with who
        /// paid; a budget and the dates of its window.
        case wrappingText(String, bold: Bool = false)
        /// A rounded coloured label such as a budget status.
        case pill(String, Color)
        /// A progress bar filled to `fraction` (clamped to 0…1) with a label to its right.
        case bar(fraction: Double, color: Color, label: String)

        /// Plain text in the default colour.
        static func plain(_ s: String) -> Cell { .text(s) }

        /// The most characters a cell's text keeps (``CairoText/maximumCharacters``): a longer
        /// text (a pasted 10 MB description) is cut here, with '…', before it is laid out: laying
        /// it out whole took ~25 s and over a gigabyte per render, so one account could hold every
        /// render slot of the server.
        static let maximumCharacters = CairoText.maximumCharacters

        /// This cell with its text cut to ``maximumCharacters``.
        var bounded: Cell {
            func cut(_ s: String) -> String { CairoText.bounded(s, to: Self.maximumCharacters) }
            switch self {
            case .text(let s, let color, let bold): return .text(cut(s), color: color, bold: bold)
            case .wrappingText(let s, let bold): return .wrappingText(cut(s), bold: bold)
            case .pill(let s, let color): return .pill(cut(s), color)
            case .bar(let fraction, let color, let label): return .bar(fraction: fraction, color: color, label: cut(label))
            }
        }
    }

    /// A table's rows: held, or made one at a time as they are measured and drawn, so that a
    /// statement's 100,000 transactions are never held as half a million formatted cells.
    struct Rows: RandomAccessCollection {
        let startIndex = 0
        let endIndex: Int
        private let make: (Int) -> [Cell]

        /// Rows already made.
        init(_ rows: [[Cell]]) {
            endIndex = rows.count
            make = { rows[$0].map(\.bounded) }
        }

        /// `count` rows, row `i` made by `make(i)` each time it is read (it must give the same cells each time).
        init(count: Int, make: @escaping (Int) -> [Cell]) {
            endIndex = count
            self.make = { make($0).map(\.bounded) }
        }

        subscript(position: Int) -> [Cell] { make(position) }
    }

    var columns: [Column]
    var rows: Rows
    /// A row drawn in bold under a rule after the rows (totals); not repeated.
    var footer: [Cell]? = nil
    /// How tightly the table sets its type.
    var density: Density = .regular

    /// How tightly a table sets its type: `.regular` for the statement's tables; `.compact` for
    /// the transaction export's eleven columns across one page, where at the regular size the
    /// names of categories, balances and groups were cut after five letters.
    enum Density {
        case regular, compact

        /// The cells' type size, in points.
        var fontSize: Double { self == .regular ? 8 : 7 }
        /// The space a fitted column gets beyond its widest cell and its padding.
        var fitGap: Double { self == .regular ? 8 : 3 }
        /// The space inside each side of a cell.
        var cellPadding: Double { self == .regular ? PDFTable.cellPadding : 4 }
        /// The size a fitted column's title is measured at. A title wider than its cells takes
        /// smaller type when drawn (down to 6 pt); in a compact table it does so rather than
        /// widen a column of short values ("ZAHLUNGSART" over "card").
        var fitTitleSize: Double { self == .regular ? 7.5 : 6.5 }
    }

    /// The cells' type size in points: the density's, unless the table's figures need smaller
    /// type to fit the page (see ``Layout``).
    var typeSize: Double?
    /// The cells' font.
    var font: String { PDFTheme.font(typeSize ?? density.fontSize) }
    /// The font of bold cells and of the footer.
    var boldFont: String { PDFTheme.font(typeSize ?? density.fontSize, bold: true) }

    /// How a table is set: its column widths, and its type size when smaller than its density's.
    struct Layout {
        var widths: [Double]
        var typeSize: Double? = nil
    }

    /// The smallest type a table whose every column is fitted takes before its cells are cut.
    static let minimumTypeSize = 6.0

    /// A table of rows already made.
    init(columns: [Column], rows: [[Cell]], footer: [Cell]? = nil) {
        self.init(columns: columns, rows: Rows(rows), footer: footer)
    }

    /// A table whose rows are made as they are needed (see ``Rows``).
    init(columns: [Column], rows: Rows, footer: [Cell]? = nil) {
        self.columns = columns
        self.rows = rows
        self.footer = footer
    }

    static let rowHeight: Double = 15
    /// The most lines a wrapping cell takes.
    static let wrapLines = 6
    static let headerHeight: Double = 18
    static let cellPadding: Double = 5
    /// The space left under a table.
    static let spaceAfter: Double = 6
    /// Tables this short are never split over two pages.
    static let keepTogetherRows = 15

    /// The space a section title should keep with it: the whole table when it is short enough to
    /// be kept together, else its header and a few rows.
    static func keepHeight(rows: Int, footer: Bool = false) -> Double {
        let shown = rows <= keepTogetherRows ? rows : 3
        return headerHeight + rowHeight * Double(max(1, shown)) + (footer ? rowHeight + 2 : 0)
    }
}

extension PDFComposer {
    /// The caption drawn above a table's continuation on a later page.
    static let continuationHeight: Double = 20

    /// Draws `table` at the cursor, running over as many pages as it needs with its header repeated;
    /// `continuation` names the table on later pages, captioned "Transactions (continued)".
    func draw(_ table: PDFTable, continuation: String) throws(CairoError) {
        let layout = columnWidths(table)
        let widths = layout.widths
        var table = table
        table.typeSize = layout.typeSize
        let tall = tallRows(table, widths: widths)
        let heights = table.rows.indices.map { tall[$0] ?? PDFTable.rowHeight }
        let footerHeight = table.footer == nil ? 0 : PDFTable.rowHeight + 2
        var slices = TablePagination.slices(rowHeights: heights, headerHeight: PDFTable.headerHeight,
                                            firstPageSpace: remaining - footerHeight,
                                            fullPageSpace: geometry.contentHeight - PDFComposer.continuationHeight - footerHeight)
        if slices.isEmpty { slices = [TablePagination.Slice(pageOffset: 0, rows: 0..<0)] }
        // A short table that fits a page but not what is left of this one moves whole to the next page.
        let wholeHeight = PDFTable.headerHeight + heights.reduce(0, +) + footerHeight
        if table.rows.count <= PDFTable.keepTogetherRows && wholeHeight > remaining
            && wholeHeight <= geometry.contentHeight && !atPageTop {
            try newPage()
            slices = [TablePagination.Slice(pageOffset: 0, rows: 0..<table.rows.count)]
        }
        let aligns = table.columns.map(\.align)
        // One Table element over every page it runs on; the header row is a row of TH cells the
        // first time, and page furniture (an artifact) where it is repeated.
        if !isMeasuring { context.beginTag(PDFTag.table.rawValue) }
        for (n, slice) in slices.enumerated() {
            if slice.pageOffset > 0 && (n > 0 || !atPageTop) {
                try newPage()
                tagged(.artifact) {
                    _ = text(tr("{title} (continued)", ["title": continuation]), font: PDFTheme.subsectionFont,
                             at: Point(x: left, y: y), color: PDFTheme.muted)
                }
                y += PDFComposer.continuationHeight
            }
            if n == 0 { rowTagged(part: .tableHead) { drawHeader(table, widths: widths, cellTag: tagsRows ? .headerCell : nil) } } else {
                tagged(.artifact) { drawHeader(table, widths: widths, cellTag: nil) }
            }
            // A long table's rows on this page are one TBody element (Cairo 1.16 keeps no content of
            // its own for an element with children, such as a Table with its repeated headers).
            rowsTagged(part: .tableBody) {
                for (k, r) in slice.rows.enumerated() {
                    if k % 2 == 1 { fill(Rect(x: left, y: y, width: width, height: heights[r]), PDFTheme.zebra) }
                    // The measuring pass only moves the cursor: the row is not made.
                    rowTagged { drawRow(isMeasuring ? [] : table.rows[r], aligns: aligns, widths: widths, table: table, height: heights[r]) }
                }
            }
            rule(y: y, lineWidth: 0.6)
        }
        if let footer = table.footer {
            y += 2
            rowTagged(part: .tableFoot) { drawRow(footer, aligns: aligns, widths: widths, table: table, allBold: true) }
        }
        if !isMeasuring { context.endTag(PDFTag.table.rawValue) }
        // Air under the table, so that a note that follows does not touch its last row.
        y += PDFTable.spaceAfter
    }

    /// Whether this document's rows and cells are structure elements (see ``PDFAccessibility/rowLimit``).
    var tagsRows: Bool { metrics.tableRows <= PDFAccessibility.rowLimit }

    /// Draws one table row: a `TR` element when the document tags rows; else, content of the
    /// enclosing element, or of `part` (`THead`, `TFoot`) when given. The measuring pass counts the rows.
    private func rowTagged(part: PDFTag? = nil, _ body: () -> Void) {
        if isMeasuring { metrics.tableRows += 1 }
        if isMeasuring || tagsRows { tagged(.row, body) } else if let part { tagged(part, body) } else { body() }
    }

    /// Draws rows inside the element `part` when the document does not tag rows one by one.
    private func rowsTagged(part: PDFTag, _ body: () -> Void) {
        if isMeasuring || tagsRows { body() } else { tagged(part, body) }
    }

    /// The rows of `table` whose wrapping cell needs more than one line in its column, with their
    /// heights: found in the measuring pass (each row read once, only when a column can wrap),
    /// reused in the drawing pass.
    private func tallRows(_ table: PDFTable, widths: [Double]) -> [Int: Double] {
        let index = tablesWrapped
        tablesWrapped += 1
        if !isMeasuring, index < metrics.tableTallRows.count { return metrics.tableTallRows[index] }
        var tall: [Int: Double] = [:]
        let wrapping = table.columns.indices.filter { table.columns[$0].wraps }
        if !wrapping.isEmpty {
            let pad = table.density.cellPadding
            // The row's padding around its one line stays around the lines it grows to.
            let padding = PDFTable.rowHeight - measure("Hg", font: table.font).height
            for (r, row) in table.rows.enumerated() {
                for c in wrapping where c < row.count {
                    guard case .wrappingText(let s, let bold) = row[c] else { continue }
                    let font = bold ? table.boldFont : table.font
                    guard unrememberedWidth(s, font: font) > widths[c] - 2 * pad else { continue }
                    let lines = measure(s, font: font, width: widths[c] - 2 * pad, maxLines: PDFTable.wrapLines).height
                    tall[r] = max(tall[r] ?? 0, (lines + padding).rounded(.up))
                }
            }
        }
        if isMeasuring { metrics.tableTallRows.append(tall) }
        return tall
    }

    /// The table's column widths: measured in the measuring pass, reused in the drawing pass.
    private func columnWidths(_ table: PDFTable) -> PDFTable.Layout {
        let index = tablesLaidOut
        tablesLaidOut += 1
        if !isMeasuring, index < metrics.tableWidths.count { return metrics.tableWidths[index] }
        let layout = measuredColumnWidths(table)
        if isMeasuring { metrics.tableWidths.append(layout) }
        return layout
    }

    /// The width of one line of `string` in `font`, measured now (not remembered: one per cell).
    private func cellWidth(_ string: String, font: String) -> Double {
        unrememberedWidth(string, font: font)
    }

    private func measuredColumnWidths(_ table: PDFTable) -> PDFTable.Layout {
        let total = table.columns.reduce(0) { $0 + $1.weight }
        let byWeight = table.columns.map { width * $0.weight / total }
        guard table.columns.contains(where: \.fit) else { return PDFTable.Layout(widths: byWeight) }
        var widths = byWeight
        var fixed = 0.0
        let measured = table.columns.indices.filter { table.columns[$0].fit || table.columns[$0].hug }
        let need = fittedNeeds(table, columns: measured, byWeight: byWeight)
        for c in measured where table.columns[c].fit {
            widths[c] = min(width * table.columns[c].maxShare, need[c])
            fixed += widths[c]
        }
        let flexible = table.columns.indices.filter { !table.columns[$0].fit }
        if flexible.isEmpty {
            // Every column fitted (the comparison's figures): when they need more than the page's
            // width, the table takes smaller type, down to ``PDFTable/minimumTypeSize``, rather
            // than cut its figures ("+4.990,00 (+49.900,0 …"); only past that are cells cut.
            var typeSize: Double?
            if fixed > width + 0.01 {
                // The first guess scales only the text: each column's padding and gap keep their
                // size, so scaling whole widths guessed too small a type (and each step down
                // measures every cell again).
                let regular = table.density.fontSize
                let overhead = Double(measured.count) * (2 * table.density.cellPadding + table.density.fitGap + 1)
                let guess = fixed > overhead + 1 ? regular * max(0, width - overhead) / (fixed - overhead) : 0
                var size = max(PDFTable.minimumTypeSize, min(regular - 0.5, (guess * 2).rounded(.down) / 2))
                while true {
                    var smaller = table
                    smaller.typeSize = size
                    let need = fittedNeeds(smaller, columns: measured, byWeight: byWeight)
                    fixed = measured.reduce(0) { $0 + min(width * table.columns[$1].maxShare, need[$1]) }
                    for c in measured { widths[c] = min(width * table.columns[c].maxShare, need[c]) }
                    typeSize = size
                    if fixed <= width + 0.01 || size <= PDFTable.minimumTypeSize { break }
                    size = max(PDFTable.minimumTypeSize, size - 0.5)
                }
            }
            return PDFTable.Layout(widths: widths.map { $0 * width / fixed }, typeSize: typeSize)
        }
        // The rest is shared by weight; a hugging column takes no more than it needs, and what it
        // leaves is shared again among the others (a description takes what short names leave).
        var rest = max(0, width - fixed)
        var open = flexible
        while true {
            let weights = open.reduce(0) { $0 + table.columns[$1].weight }
            let satisfied = open.filter { table.columns[$0].hug && need[$0] <= rest * table.columns[$0].weight / weights }
            guard !satisfied.isEmpty, satisfied.count < open.count else {
                for c in open { widths[c] = rest * table.columns[c].weight / weights }
                return PDFTable.Layout(widths: widths)
            }
            for c in satisfied { widths[c] = need[c]; rest -= need[c] }
            open.removeAll { satisfied.contains($0) }
        }
    }

    /// What each of `columns` needs (its widest cell or title, its padding and a gap), in the
    /// table's type. Each row is read once (it may be made on demand); a text already measured in
    /// its column (a date, a kind, a category) is not measured again.
    private func fittedNeeds(_ table: PDFTable, columns measured: [Int], byWeight: [Double]) -> [Double] {
        var need = Array(repeating: 0.0, count: table.columns.count)
        var seenRegular = Array(repeating: Set<String>(), count: table.columns.count), seenBold = seenRegular
        let titleSize = table.density.fitTitleSize * (table.typeSize ?? table.density.fontSize) / table.density.fontSize
        let titleFont = PDFTheme.font(titleSize, bold: true)
        for c in measured { need[c] = measure(table.columns[c].title.uppercased(), font: titleFont).width }
        func consider(_ c: Int, _ s: String, bold: Bool) {
            guard (bold ? seenBold[c].insert(s) : seenRegular[c].insert(s)).inserted else { return }
            need[c] = max(need[c], cellWidth(s, font: bold ? table.boldFont : table.font))
        }
        func consider(_ row: [PDFTable.Cell]) {
            for c in measured where c < row.count {
                switch row[c] {
                case .text(let s, _, let bold): consider(c, s, bold: bold)
                case .wrappingText(let s, let bold): consider(c, s, bold: bold)
                case .pill(let s, _):
                    need[c] = max(need[c], cellWidth(s, font: PDFTheme.font(6.5, bold: true)) + 10)
                case .bar:
                    need[c] = max(need[c], byWeight[c] - 2 * table.density.cellPadding)
                }
            }
        }
        for row in table.rows { consider(row) }
        if let footer = table.footer { consider(footer) }
        for c in measured {
            // A little more than the widest cell, so that neighbouring figures do not run together.
            need[c] = (need[c] + 2 * table.density.cellPadding + table.density.fitGap).rounded(.up)
        }
        return need
    }

    private func drawHeader(_ table: PDFTable, widths: [Double], cellTag: PDFTag?) {
        let h = PDFTable.headerHeight
        // A header's height is fixed: the measuring pass only moves the cursor.
        guard !isMeasuring else { y += h; return }
        var x = left
        // Titles take smaller type with their table's cells (as one size, never under 6 pt).
        let headerSize = table.typeSize.map { max(6, (PDFTheme.tableHeaderSize * $0 / table.density.fontSize * 2).rounded(.down) / 2) }
            ?? PDFTheme.tableHeaderSize
        let headerFont = table.typeSize == nil ? PDFTheme.tableHeaderFont : PDFTheme.font(headerSize, bold: true)
        for (c, column) in table.columns.enumerated() {
            if let cellTag { context.beginTag(cellTag.rawValue) }
            // A title that does not fit its column gets smaller type (down to 6 pt) before it is
            // cut: "FORTSCHRITT" and "AVANZAMENTO" read whole, not "FORTS…".
            let title = column.title.uppercased(), inner = widths[c] - 2 * table.density.cellPadding
            let font = measure(title, font: headerFont).width <= inner ? headerFont
                : PDFTheme.font(fittingSize(title, bold: true, size: headerSize, minimum: 6, width: inner), bold: true)
            text(title, font: font,
                 at: Point(x: x + table.density.cellPadding, y: centredTextTop(PDFTheme.tableHeaderFont, rowTop: y, height: h)),
                 width: inner, align: column.align, color: PDFTheme.muted)
            if let cellTag { context.endTag(cellTag.rawValue) }
            x += widths[c]
        }
        rule(y: y + h - 0.5, color: PDFTheme.muted, lineWidth: 0.8)
        y += h
    }

    /// The top of a line of `font` centred in a row of `height` at `rowTop`, from the font's real
    /// line height (a fixed offset put Noto Sans so low that the next row's stripe cut its descenders).
    func centredTextTop(_ font: String, rowTop: Double, height: Double) -> Double {
        rowTop + (height - measure("Hg", font: font).height) / 2
    }

    /// Draws one row of `table`'s cells (all in bold for its footer), `height` tall: a row of
    /// several lines keeps its other cells on its first line.
    private func drawRow(_ cells: [PDFTable.Cell], aligns: [TextLayout.Alignment], widths: [Double], table: PDFTable,
                         allBold: Bool = false, height: Double = PDFTable.rowHeight) {
        // A row's height is known beforehand: the measuring pass only moves the cursor.
        guard !isMeasuring else { y += height; return }
        let pad = table.density.cellPadding, size = table.typeSize ?? table.density.fontSize
        let boldFont = table.boldFont, font = allBold ? boldFont : table.font
        let textTop = centredTextTop(font, rowTop: y, height: PDFTable.rowHeight)
        let boldTop = centredTextTop(boldFont, rowTop: y, height: PDFTable.rowHeight)
        var x = left
        let tagsCells = tagsRows
        for (c, cell) in cells.enumerated() where c < widths.count {
            if tagsCells { context.beginTag(PDFTag.cell.rawValue) }
            defer { if tagsCells { context.endTag(PDFTag.cell.rawValue) } }
            let inner = widths[c] - 2 * pad
            let align = aligns[c]
            switch cell {
            case .text(let s, let color, let bold):
                text(s, font: bold ? boldFont : font, at: Point(x: x + pad, y: bold ? boldTop : textTop),
                     width: inner, align: align, color: color)
            case .wrappingText(let s, let bold):
                text(s, font: bold ? boldFont : font, at: Point(x: x + pad, y: bold ? boldTop : textTop), width: inner,
                     maxLines: height > PDFTable.rowHeight ? PDFTable.wrapLines : 1, align: align)
            case .pill(let s, let color):
                let size = measure(s, font: PDFTheme.font(6.5, bold: true))
                let pillWidth = min(inner, size.width + 10)
                let px = (align) == .right ? x + widths[c] - pad - pillWidth : x + pad
                fill(Rect(x: px, y: y + 2.25, width: pillWidth, height: 10.5), color, radius: 5.25)
                text(s, font: PDFTheme.font(6.5, bold: true), at: Point(x: px, y: centredTextTop(PDFTheme.font(6.5, bold: true), rowTop: y + 2.25, height: 10.5)),
                     width: pillWidth, align: .center, color: color.contrastingText)
            case .bar(let fraction, let color, let label):
                // The label keeps its 40 pt unless it needs more (a goal saved 1,415.0 % of its
                // target): then the bar gives way, down to its 10 pt minimum, and past that the
                // label's type gets smaller (down to 6 pt) rather than the figure being cut.
                // The label never runs past the cell: in a narrow column its room is what the
                // 10 pt bar and the gap leave (it was 40 pt at least, and overlapped the next cell).
                let room = max(0, inner - 14)
                let needed = measure(label, font: font).width + 1
                let labelWidth = min(max(min(40, room), needed), room)
                let labelFont = needed <= room ? font
                    : PDFTheme.font(fittingSize(label, bold: false, size: size, minimum: 6, width: room - 1))
                let barWidth = max(10, inner - labelWidth - 4)
                let track = Rect(x: x + pad, y: y + 5, width: barWidth, height: 5)
                fill(track, PDFTheme.rule, radius: 2.5)
                let f = min(1, max(0, fraction))
                if f > 0 { fill(Rect(x: track.x, y: track.y, width: max(5, barWidth * f), height: 5), color, radius: 2.5) }
                text(label, font: labelFont, at: Point(x: track.maxX + 4, y: textTop), width: labelWidth, align: .right)
            }
            x += widths[c]
        }
        y += height
    }
}
