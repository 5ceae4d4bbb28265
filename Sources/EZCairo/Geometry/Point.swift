/// A point in user space (points in a PDF, CSS-like pixels before the PNG's scale).
package struct Point: Hashable, Sendable {
    package var x: Double
    package var y: Double
    /// The point at (x, y).
    package init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin.
    package static let zero = Point(x: 0, y: 0)
}

/// A width and a height.
package struct Size: Hashable, Sendable {
    package var width: Double
    package var height: Double
    /// A size of `width` × `height`.
    package init(width: Double, height: Double) { self.width = width; self.height = height }
}
