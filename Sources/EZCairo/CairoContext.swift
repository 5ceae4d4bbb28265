import CCairo
import Synchronization

/// A Cairo drawing context on a ``CairoSurface``: paths, colours, transforms and pages.
///
/// Owns its `cairo_t` (destroyed in `deinit`) and keeps its surface alive. Cairo errors are sticky:
/// drawing calls do not throw, ``checkStatus(_:)``, ``showPage()`` and the surface's `finish()` do.
///
/// ```swift
/// let ctx = try CairoContext(surface: surface)
/// ctx.setColor(.ink)
/// ctx.rectangle(Rect(x: 10, y: 10, width: 100, height: 20))
/// ctx.fill()
/// try ctx.checkStatus("drawing the header")
/// ```
package final class CairoContext {
    /// The `cairo_t`; never escapes this module.
    let pointer: OpaquePointer
    /// The surface drawn on.
    package let surface: CairoSurface
    /// Tells contexts apart for ``PangoThreadCache/bind(_:)`` (an address could be reused).
    let serial: UInt64
    /// The thread's Pango set-up, taken when text is first laid out on this context.
    private var pangoCacheStorage: PangoThreadCache?
    /// The transformation at that moment: text is laid out for it, as if Pango's context had been
    /// made then (later transforms move and scale drawn text, not its layout).
    private(set) var pangoMatrix = cairo_matrix_t()
    /// How many structure elements ``beginTag(_:attributes:)`` has opened on this context.
    package internal(set) var structureElements = 0

    /// A context drawing on `surface`.
    package init(surface: CairoSurface) throws(CairoError) {
        let cr = cairo_create(surface.pointer)!
        let status = cairo_status(cr)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_destroy(cr)
            throw CairoError("creating a drawing context", status: status)
        }
        pointer = cr
        self.surface = surface
        serial = contextSerials.add(1, ordering: .relaxed).newValue
        paintTolerance = surface.isImage ? nil : CairoContext.pdfPaintTolerance
    }

    /// The flattening tolerance, in points, of a fill or a stroke on a PDF (Cairo's default is 0.1,
    /// which paths are still built with).
    ///
    /// A PDF keeps a path's curves as written, so the tolerance a fill or stroke is made with does
    /// not change the file; Cairo's PDF surface uses it only to find the operation's bounding box,
    /// by flattening the path and, for a stroke, stroking it into a polygon, when recording and
    /// again when analysing the page. At 1 pt that is cheaper (PDF 9.8–10.3 → 9.4–9.5 ms CPU per
    /// statement, byte-identical files). Paths are still built at the default: `cairo_arc` splits
    /// an arc into Bézier segments by the tolerance in force when it is added.
    package static let pdfPaintTolerance = 1.0
    /// Cairo's default tolerance, restored after each fill or stroke on a PDF.
    static let defaultTolerance = 0.1
    /// ``pdfPaintTolerance`` on a PDF, nil on an image (where it would change the pixels) or to
    /// paint at Cairo's default (tests compare the two).
    package var paintTolerance: Double?

    /// Runs a fill or stroke with ``paintTolerance`` in force, if any.
    @inline(__always) private func painting(_ operation: (OpaquePointer) -> Void) {
        guard let paintTolerance else { return operation(pointer) }
        cairo_set_tolerance(pointer, paintTolerance)
        operation(pointer)
        cairo_set_tolerance(pointer, CairoContext.defaultTolerance)
    }

    deinit {
        cairo_destroy(pointer)
    }

    /// The Pango set-up shared by this context's text layouts (the thread's, see ``PangoThreadCache``).
    var pango: PangoThreadCache {
        if let c = pangoCacheStorage { return c }
        let cache = PangoThreadCache.current
        cairo_get_matrix(pointer, &pangoMatrix)
        pangoCacheStorage = cache
        return cache
    }


    /// Throws the context's sticky error, if any call so far failed.
    package func checkStatus(_ operation: @autoclosure () -> String = "drawing") throws(CairoError) {
        try cairo_status(pointer).throwIfError(operation())
    }

    // MARK: - State

    /// Pushes the graphics state (colour, line, transform, clip).
    package func save() { cairo_save(pointer) }
    /// Pops the graphics state pushed by the matching ``save()``.
    package func restore() { cairo_restore(pointer) }

    /// Runs `body` between ``save()`` and ``restore()``.
    package func withSavedState<T>(_ body: () throws -> T) rethrows -> T {
        save(); defer { restore() }
        return try body()
    }

    // MARK: - Colour and line

    /// Sets the source to a solid colour.
    package func setColor(_ c: Color) { cairo_set_source_rgba(pointer, c.red, c.green, c.blue, c.alpha) }
    /// Sets the line width in user units.
    package func setLineWidth(_ w: Double) { cairo_set_line_width(pointer, w) }
    /// Sets a dash pattern (on/off lengths); an empty array draws solid lines.
    package func setDash(_ pattern: [Double], offset: Double = 0) {
        pattern.withUnsafeBufferPointer { cairo_set_dash(pointer, $0.baseAddress, Int32($0.count), offset) }
    }

    /// How line ends are drawn.
    package enum LineCap: Sendable { case butt, round, square }
    /// How line corners are drawn.
    package enum LineJoin: Sendable { case miter, round, bevel }

    /// Sets the line cap.
    package func setLineCap(_ cap: LineCap) {
        switch cap {
        case .butt: cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(pointer, CAIRO_LINE_CAP_SQUARE)
        }
    }

    /// Sets the line join.
    package func setLineJoin(_ join: LineJoin) {
        switch join {
        case .miter: cairo_set_line_join(pointer, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(pointer, CAIRO_LINE_JOIN_BEVEL)
        }
    }

    // MARK: - Paths

    /// Starts a new path, dropping the current one.
    package func newPath() { cairo_new_path(pointer) }
    /// Starts a new sub-path without a connecting line.
    package func newSubPath() { cairo_new_sub_path(pointer) }
    /// Closes the current sub-path.
    package func closePath() { cairo_close_path(pointer) }
    /// Moves the current point.
    package func move(to p: Point) { cairo_move_to(pointer, p.x, p.y) }
    /// Adds a line to `p`.
    package func line(to p: Point) { cairo_line_to(pointer, p.x, p.y) }
    /// Adds a cubic Bézier curve.
    package func curve(to p: Point, control1 c1: Point, control2 c2: Point) {
        cairo_curve_to(pointer, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
    }
    /// Adds a rectangle sub-path.
    package func rectangle(_ r: Rect) { cairo_rectangle(pointer, r.x, r.y, r.width, r.height) }

    /// Adds a rectangle with rounded corners (radius clamped to half the shorter side).
    package func roundedRectangle(_ r: Rect, radius: Double) {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        if rad == 0 { rectangle(r); return }
        newSubPath()
        cairo_arc(pointer, r.maxX - rad, r.minY + rad, rad, -Double.pi / 2, 0)
        cairo_arc(pointer, r.maxX - rad, r.maxY - rad, rad, 0, Double.pi / 2)
        cairo_arc(pointer, r.minX + rad, r.maxY - rad, rad, Double.pi / 2, Double.pi)
        cairo_arc(pointer, r.minX + rad, r.minY + rad, rad, Double.pi, 3 * Double.pi / 2)
        closePath()
    }

    /// Adds a clockwise arc (angles in radians, 0 = 3 o'clock, growing clockwise on screen).
    package func arc(center: Point, radius: Double, from start: Double, to end: Double) {
        cairo_arc(pointer, center.x, center.y, radius, start, end)
    }

    /// Adds a counter-clockwise arc.
    package func arcNegative(center: Point, radius: Double, from start: Double, to end: Double) {
        cairo_arc_negative(pointer, center.x, center.y, radius, start, end)
    }

    // MARK: - Painting

    /// Fills the current path and clears it.
    package func fill() { painting(cairo_fill) }
    /// Fills the current path and keeps it.
    package func fillPreserve() { painting(cairo_fill_preserve) }
    /// Strokes the current path and clears it.
    package func stroke() { painting(cairo_stroke) }
    /// Strokes the current path and keeps it.
    package func strokePreserve() { painting(cairo_stroke_preserve) }
    /// Intersects the clip with the current path and clears it.
    package func clip() { cairo_clip(pointer) }
    /// Removes any clip.
    package func resetClip() { cairo_reset_clip(pointer) }
    /// Paints the source everywhere inside the clip.
    package func paint() { cairo_paint(pointer) }

    /// Fills `r` with `color` (a convenience for the most common drawing call).
    package func fill(_ r: Rect, _ color: Color) {
        setColor(color); rectangle(r); fill()
    }

    /// Dots of `radius` at `centers`, filled with `fill` and ringed with `ring`, a stroke of
    /// `ringWidth` centred on each edge (a line chart's point markers).
    ///
    /// All the dots form one path per colour, so a series' markers cost two drawing operations, not
    /// two per point, and they are drawn as discs: all the outer discs in `ring`, then all the
    /// inner ones in `fill`. On an image a disc is a filled circle (no work for Cairo's stroker). On
    /// a PDF it is a zero-length line with round caps, as wide as the disc, which PDF defines to
    /// paint exactly that disc: 4 numbers per dot instead of a circle's 15, and Cairo's PDF
    /// surface prints every number through `snprintf`, the largest part of writing a page.
    package func ringedDots(_ centers: [Point], radius: Double, ringWidth: Double, fill: Color, ring: Color) {
        guard !centers.isEmpty else { return }
        let outer = radius + ringWidth / 2, inner = max(0, radius - ringWidth / 2)
        if surface.isImage {
            func discs(_ r: Double) {
                newPath()
                for c in centers {
                    newSubPath()
                    arc(center: c, radius: r, from: 0, to: 2 * Double.pi)
                    closePath()
                }
            }
            discs(outer)
            setColor(ring); self.fill()
            discs(inner)
            setColor(fill); self.fill()
        } else {
            let dots = centers.map { (from: $0, to: $0) }
            strokeRoundCapped(dots, color: ring, width: 2 * outer)
            if inner > 0 { strokeRoundCapped(dots, color: fill, width: 2 * inner) }
        }
    }

    /// ``strokeLines(_:color:width:)`` with round caps: the PDF form of discs (zero-length
    /// segments) and pills (a segment as long as the pill less its height).
    private func strokeRoundCapped(_ segments: [(from: Point, to: Point)], color: Color, width: Double) {
        withSavedState {
            setLineCap(.round)
            strokeLines(segments, color: color, width: width)
        }
    }

    /// Fills `r` with rounded corners of `radius` (clamped as ``roundedRectangle(_:radius:)``
    /// does) in `color`.
    ///
    /// A horizontal pill, whose radius is half its height (progress bars and their tracks, status
    /// labels), is written to a PDF as one round-capped line as thick as the pill: 4 numbers
    /// instead of 34 (see ``ringedDots(_:radius:ringWidth:fill:ring:)`` for why that matters). On
    /// an image it is always the filled outline.
    package func fillRoundedRectangle(_ r: Rect, radius: Double, _ color: Color) {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        if !surface.isImage && rad > 0 && rad == r.height / 2 && r.width >= r.height {
            strokeRoundCapped([(from: Point(x: r.minX + rad, y: r.midY), to: Point(x: r.maxX - rad, y: r.midY))],
                              color: color, width: r.height)
            return
        }
        setColor(color)
        roundedRectangle(r, radius: radius)
        fill()
    }

    /// Fills every rectangle of `rects` in `color` as one path (one drawing operation).
    package func fill(_ rects: [Rect], _ color: Color) {
        guard !rects.isEmpty else { return }
        newPath()
        for r in rects { rectangle(r) }
        setColor(color); fill()
    }

    /// Strokes every segment of `segments` in `color` as one path (one drawing operation).
    package func strokeLines(_ segments: [(from: Point, to: Point)], color: Color, width: Double) {
        guard !segments.isEmpty else { return }
        newPath()
        for s in segments { move(to: s.from); line(to: s.to) }
        setColor(color); setLineWidth(width); stroke()
    }

    /// Strokes a straight line from `a` to `b`.
    package func strokeLine(from a: Point, to b: Point, color: Color, width: Double) {
        setColor(color); setLineWidth(width); move(to: a); line(to: b); stroke()
    }

    // MARK: - Transforms

    /// Moves the origin.
    package func translate(x: Double, y: Double) { cairo_translate(pointer, x, y) }
    /// Scales user space.
    package func scale(x: Double, y: Double) { cairo_scale(pointer, x, y) }
    /// Rotates user space by `radians` (clockwise on screen).
    package func rotate(_ radians: Double) { cairo_rotate(pointer, radians) }

    // MARK: - Pages

    /// Emits the current page (PDF) and starts a new one; throws any pending error.
    package func showPage() throws(CairoError) {
        let cr = pointer
        MachineFontLock.run(if: surface.emitsMachineFonts) { cairo_show_page(cr) }
        try checkStatus("finishing a page")
    }
}

/// Hands out ``CairoContext/serial`` numbers (from 1; 0 means none).
private let contextSerials = Atomic<UInt64>(0)
