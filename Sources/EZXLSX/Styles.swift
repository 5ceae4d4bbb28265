import EZCore

/// The cell formats of one workbook, made once and shared by every sheet.
final class Styles {
    let title: Format
    let subtitle: Format
    let header: Format
    let section: Format
    let label: Format
    let date: Format
    let integer: Format
    let percent: Format
    let wrapped: Format
    let note: Format
    let totalLabel: Format
    let over: Format
    let warning: Format
    let ok: Format
    private let workbook: Workbook
    private var money: [String: Format] = [:]
    private var totalMoney: [String: Format] = [:]

    /// Colour-blind-safe accents (Okabe–Ito) used for chart series.
    static let blue: UInt32 = 0x0072B2
    static let orange: UInt32 = 0xE69F00
    static let green: UInt32 = 0x009E73
    static let grey: UInt32 = 0x7F7F7F

    /// `#RRGGBB` as `0xRRGGBB`, or nil when malformed.
    static func rgb(_ hex: String) -> UInt32? {
        guard hex.utf8.count == 7, hex.hasPrefix("#") else { return nil }
        return UInt32(hex.dropFirst(), radix: 16)
    }

    init(_ book: Workbook) throws(XLSXError) {
        workbook = book
        title = try book.addFormat().bold().fontSize(16).fontColor(0x1F3864)
        subtitle = try book.addFormat().fontColor(0x595959)
        header = try book.addFormat().bold().fontColor(0xFFFFFF).background(0x1F3864).bottomBorder()
        section = try book.addFormat().bold().fontSize(12).fontColor(0x1F3864)
        label = try book.addFormat().bold()
        date = try book.addFormat().numberFormat("yyyy-mm-dd")
        integer = try book.addFormat().numberFormat("#,##0")
        percent = try book.addFormat().numberFormat("0.0%")
        wrapped = try book.addFormat().wrap().alignTop()
        note = try book.addFormat().italic().fontColor(0x595959)
        totalLabel = try book.addFormat().bold().topBorder()
        over = try book.addFormat().background(0xFFC7CE).fontColor(0x9C0006)
        warning = try book.addFormat().background(0xFFEB9C).fontColor(0x9C5700)
        ok = try book.addFormat().background(0xC6EFCE).fontColor(0x006100)
    }

    /// `#,##0.00 "EUR"` with negatives in red, with exactly the currency's minor digits.
    static func moneyCode(_ currency: Currency) -> String {
        let digits = currency.exponent > 0 ? "." + String(repeating: "0", count: currency.exponent) : ""
        let positive = "#,##0\(digits) \"\(currency.code)\""
        return "\(positive);[Red]-\(positive)"
    }

    /// The amount format for `currency`, made on first use.
    func money(_ currency: Currency) throws(XLSXError) -> Format {
        if let f = money[currency.code] { return f }
        let f = try workbook.addFormat().numberFormat(Styles.moneyCode(currency))
        money[currency.code] = f
        return f
    }

    /// The bold, top-bordered amount format of a totals row.
    func totalMoney(_ currency: Currency) throws(XLSXError) -> Format {
        if let f = totalMoney[currency.code] { return f }
        let f = try workbook.addFormat().numberFormat(Styles.moneyCode(currency)).bold().topBorder()
        totalMoney[currency.code] = f
        return f
    }

    /// The highlight of a budget status.
    func status(_ s: String) -> Format? {
        switch s {
        case "over": return over
        case "warning": return warning
        case "ok": return ok
        default: return nil
        }
    }
}
