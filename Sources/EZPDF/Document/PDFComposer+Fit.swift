import EZCairo

extension PDFComposer {
    /// The largest size from `size` down to `minimum` (in steps of half a point) at which `string`
    /// fits on one line of `width`; `minimum` when none does (the text is then cut with '…').
    func fittingSize(_ string: String, bold: Bool, size: Double, minimum: Double, width: Double) -> Double {
        var s = size
        while s > minimum && measure(string, font: PDFTheme.font(s, bold: bold)).width > width { s -= 0.5 }
        return s
    }

    /// The font `whole` is set in on one line of `width`: `font` (of `size` points) when it fits,
    /// else the largest size down to `minimum` that fits, else `minimum`.
    func shrunkFont(_ whole: String, font: String, size: Double, bold: Bool, minimum: Double, width: Double) -> String {
        measure(whole, font: font).width <= width ? font
            : PDFTheme.font(fittingSize(whole, bold: bold, size: size, minimum: minimum, width: width), bold: bold)
    }

    /// A figure set on one line of `width`, never cut: `value` at the largest size from `size`
    /// down to `minimum` (whole points) at which it fits; else `short` (a compact form such as
    /// `€152.9M`) the same way, when there is one. Cutting a figure with '…' made
    /// €152,912,419.64 read "€152,912,41…", a thousandth of itself.
    func fittedFigure(_ value: String, short: String?, size: Double, minimum: Double, width: Double) -> (text: String, size: Double) {
        func fit(_ text: String) -> Double {
            var s = size
            while s > minimum && measure(text, font: PDFTheme.font(s, bold: true)).width > width { s -= 1 }
            return s
        }
        let whole = fit(value)
        guard let short, measure(value, font: PDFTheme.font(whole, bold: true)).width > width else { return (value, whole) }
        return (short, fit(short))
    }
}
