
extension PDFComposer {
    /// The largest size from `size` down to `minimum` (in steps of half a point) at which `string`
    /// fits on one line of `width`; `minimum` when none does (the text is then cut with '…').
    func fittingSize(_ string: String, bold: Bool, size: Double, minimum: Double, width: Double) -> Double {
        var s = size
        while s > minimum && measure(string, font: PDFTheme.font(s, bold: bold)).width > width { s -= 0.5 }
        return s
    }
}
