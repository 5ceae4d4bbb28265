/// A point in user space (points in a PDF, CSS-like pixels before the PNG's scale).
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    /// The point at (x, y).
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin.
    public static let zero = Point(x: 0, y: 0)
}

/// A width and a height.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    /// A size of `width` × `height`.
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}
