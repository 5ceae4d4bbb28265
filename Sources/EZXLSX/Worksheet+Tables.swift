import EZCore

extension Worksheet {
    /// A column of a table: its header and width in characters.
    struct Column {
        var title: String
        var width: Double
        init(_ title: String, _ width: Double) { self.title = title; self.width = width }
    }

    /// Writes a header row at `row` starting at `column` and sets the columns' widths.
    func writeHeader(_ columns: [Column], row: Int, column: Int = 0, styles: Styles) throws(XLSXError) {
        for (i, c) in columns.enumerated() {
            try write(c.title, row: row, column: column + i, format: styles.header)
            try setColumns((column + i)...(column + i), width: c.width)
        }
    }

    /// Writes a header row at `row` without touching column widths.
    func writeHeaderCells(_ titles: [String], row: Int, column: Int = 0, styles: Styles) throws(XLSXError) {
        for (i, t) in titles.enumerated() { try write(t, row: row, column: column + i, format: styles.header) }
    }

    /// An amount in major units with the currency's format.
    func write(money minor: Int64, _ currency: Currency, row: Int, column: Int, styles: Styles) throws(XLSXError) {
        try write(number: minor.majorUnits(currency), row: row, column: column, format: styles.money(currency))
    }

    /// An optional amount; nil leaves the cell empty.
    func write(money minor: Int64?, _ currency: Currency, row: Int, column: Int, styles: Styles) throws(XLSXError) {
        guard let minor else { return }
        try write(money: minor, currency, row: row, column: column, styles: styles)
    }

    /// A date cell holding a real Excel date.
    func write(date: CivilDate?, row: Int, column: Int, styles: Styles) throws(XLSXError) {
        guard let date else { return }
        try write(number: date.excelSerial, row: row, column: column, format: styles.date)
    }

    /// A percentage held as tenths, as a number formatted `0.0%`; nil leaves the cell empty.
    func write(percentTenths tenths: Int64?, row: Int, column: Int, styles: Styles) throws(XLSXError) {
        guard let tenths else { return }
        try write(number: Double(tenths) / 1000, row: row, column: column, format: styles.percent)
    }

    /// A whole number.
    func write(integer value: Int, row: Int, column: Int, styles: Styles) throws(XLSXError) {
        try write(number: Double(value), row: row, column: column, format: styles.integer)
    }
}
