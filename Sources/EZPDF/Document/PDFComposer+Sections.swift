import EZCairo

extension PDFComposer {
    /// Starts a section: a bookmark, and a title with an accent mark, kept on the same page as at
    /// least `keepWith` points of what follows.
    @discardableResult
    func section(_ title: String, keepWith: Double = 80) throws(CairoError) -> Int {
        let titleHeight = 24.0
        if !atPageTop { y += PDFTheme.sectionGap }
        try ensureSpace(titleHeight + keepWith)
        let id = try bookmark(title)
        fill(Rect(x: left, y: y + 3, width: 3.5, height: 15), PDFTheme.accent, radius: 1)
        tagged(.h1) { _ = text(title, font: PDFTheme.sectionFont, at: Point(x: left + 11, y: y), width: width - 11) }
        y += titleHeight + PDFTheme.titleGap - 6
        return id
    }

    /// A smaller heading inside a section (a group's or a child's name).
    func subsection(_ title: String, detail: String? = nil, keepWith: Double = 60) throws(CairoError) {
        try ensureSpace(22 + keepWith)
        let size = tagged(.h2) { text(title, font: PDFTheme.subsectionFont, at: Point(x: left, y: y), width: width * 0.62) }
        if let detail {
            tagged(.paragraph) {
                _ = text(detail, font: PDFTheme.bodyFont, at: Point(x: left + size.width + 10, y: y + 1.5),
                         width: max(40, width - size.width - 10), color: PDFTheme.muted)
            }
        }
        y += 20
    }

    /// A short muted line, e.g. "No budgets for this period."
    func note(_ string: String) throws(CairoError) {
        try ensureSpace(18)
        let size = tagged(.paragraph) {
            text(string, font: PDFTheme.bodyFont, at: Point(x: left, y: y), width: width, maxLines: 3, color: PDFTheme.muted)
        }
        y += size.height + 6
    }

    /// A paragraph of body text that wraps over as many lines as it needs.
    func paragraph(_ string: String, font: String = PDFTheme.bodyFont, color: Color = PDFTheme.ink) throws(CairoError) {
        let h = measure(string, font: font, width: width, maxLines: nil).height
        try ensureSpace(h)
        tagged(.paragraph) { _ = text(string, font: font, at: Point(x: left, y: y), width: width, maxLines: nil, color: color) }
        y += h + 4
    }
}
