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
}
