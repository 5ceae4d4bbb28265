/// Where things go on a page: the paper, its margins, and the bands kept for the footer.
struct PageGeometry: Sendable, Equatable {
    var paper: PaperSize
    /// Left and right margin.
    var sideMargin: Double = 48
    var topMargin: Double = 46
    /// From the page's bottom edge to the bottom of the content area (the footer lives in it).
    var bottomMargin: Double = 58
    /// The footer's baseline band, measured from the page's bottom edge.
    var footerOffset: Double = 30

    /// True for a page turned sideways (a wide table's report).
    var landscape = false

    init(paper: PaperSize, landscape: Bool = false) { self.paper = paper; self.landscape = landscape }

    var width: Double { landscape ? paper.height : paper.width }
    var height: Double { landscape ? paper.width : paper.height }
    /// The content area's left edge.
    var contentLeft: Double { sideMargin }
    /// The content area's width.
    var contentWidth: Double { width - 2 * sideMargin }
    /// The content area's top edge.
    var contentTop: Double { topMargin }
    /// The content area's bottom edge.
    var contentBottom: Double { height - bottomMargin }
    /// The usable height of a full page.
    var contentHeight: Double { contentBottom - contentTop }
}
