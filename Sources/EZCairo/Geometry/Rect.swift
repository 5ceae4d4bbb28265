/// An axis-aligned rectangle: origin at its top-left corner, y growing downwards (Cairo's space).
package struct Rect: Hashable, Sendable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    /// The rectangle at (x, y) of `width` × `height`.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    package var minX: Double { x }
    package var minY: Double { y }
    package var maxX: Double { x + width }
    package var maxY: Double { y + height }
    package var midX: Double { x + width / 2 }
    package var midY: Double { y + height / 2 }
    package var center: Point { Point(x: midX, y: midY) }

    /// The rectangle shrunk by the given margins (never below zero size).
    package func inset(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: max(0, width - left - right), height: max(0, height - top - bottom))
    }

    /// The rectangle shrunk by `d` on every side.
    package func inset(by d: Double) -> Rect { inset(top: d, left: d, bottom: d, right: d) }

    /// Whether the two rectangles overlap (touching edges do not count).
    package func intersects(_ o: Rect) -> Bool {
        x < o.maxX && o.x < maxX && y < o.maxY && o.y < maxY
    }

    /// Whether the point lies inside (edges included).
    package func contains(_ p: Point) -> Bool { p.x >= x && p.x <= maxX && p.y >= y && p.y <= maxY }
}
