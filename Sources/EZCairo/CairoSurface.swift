import CCairo
import EZPNG

/// A Cairo drawing surface: an in-memory ARGB32 image (for PNGs) or a PDF (to a file or to memory).
///
/// The surface owns its `cairo_surface_t` and destroys it in `deinit`. Drawing goes through a
/// ``CairoContext``, which keeps its surface alive.
///
/// ```swift
/// let surface = try CairoSurface(imageWidth: 1600, height: 1000)
/// let ctx = try CairoContext(surface: surface)
/// // … draw …
/// let png = try surface.pngData()
/// ```
package final class CairoSurface {
    /// What the surface draws into.
    package enum Kind: Sendable, Hashable {
        /// An ARGB32 pixel buffer of the given size in pixels.
        case image(width: Int, height: Int)
        /// A PDF document written to a file.
        case pdfFile(path: String)
        /// A PDF document collected in memory (see ``pdfData()``).
        case pdfMemory
    }

    /// The `cairo_surface_t`; never escapes this module.
    package let pointer: OpaquePointer
    /// What this surface draws into.
    package let kind: Kind
    /// Whether it is a pixel buffer (not a PDF).
    var isImage: Bool { if case .image = kind { return true } else { return false } }
    /// Collects the bytes of an in-memory PDF; retained here because Cairo only holds a raw pointer to it.
    private let sink: ByteSink?
    /// The pixels of a surface made with a background (nil: Cairo owns them).
    private var pixels: PixelMemory?
    private var finished = false
    /// Whether text in the machine's fonts was drawn on it: a PDF's pages are then emitted, and
    /// the PDF finished, under ``MachineFontLock`` (Cairo reads the fonts then).
    var drawsMachineFonts = false
    /// Whether emitting a page or finishing needs ``MachineFontLock``.
    var emitsMachineFonts: Bool { drawsMachineFonts && !isImage }

    /// Hands the idle blocks of the chart images' pixel pool back to the system (``PixelMemory``):
    /// ~6.4 MB for each worker that has drawn a chart. The next chart maps a new block.
    package static func releaseIdlePixelMemory() { PixelMemory.releaseIdleBlocks() }

    // MARK: - Creating

    /// An image surface of `width` × `height` pixels, ARGB32, initially transparent.
    package init(imageWidth width: Int, height: Int) throws(CairoError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw CairoError("creating a \(width)×\(height) image surface", message: "invalid size")
        }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            // cairo returns a "nil surface" object on failure; destroying it is allowed and harmless.
            cairo_surface_destroy(s)
            throw CairoError("creating a \(width)×\(height) image surface", status: status)
        }
        pointer = s
        kind = .image(width: width, height: height)
        sink = nil
    }

    /// An image surface of `width` × `height` pixels, ARGB32, every pixel `background` (opaque).
    ///
    /// Its pixels come from a pool of reused blocks (``PixelMemory``) and are painted once, where a
    /// new surface painted over would clear them first: what every chart image wants.
    package init(imageWidth width: Int, height: Int, background: Color) throws(CairoError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw CairoError("creating a \(width)×\(height) image surface", message: "invalid size")
        }
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        func channel(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        let pixel = 0xFF00_0000 | channel(background.red) << 16 | channel(background.green) << 8 | channel(background.blue)
        guard let memory = PixelMemory.take(byteCount: stride * height, filledWith: pixel) else {
            throw CairoError("creating a \(width)×\(height) image surface", message: "out of memory")
        }
        let s = cairo_image_surface_create_for_data(memory.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                    Int32(width), Int32(height), Int32(stride))!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            PixelMemory.giveBack(memory)
            throw CairoError("creating a \(width)×\(height) image surface", status: status)
        }
        pointer = s
        kind = .image(width: width, height: height)
        sink = nil
        pixels = memory
    }

    /// A PDF surface writing to `path`; the first page is `width` × `height` points (A4: 595.276 × 841.89).
    ///
    /// The file is complete only after ``finish()``. Set ``setMetadata(_:)`` before finishing: without
    /// a creation date Cairo would stamp the clock time and the output would not be reproducible.
    package init(pdfPath path: String, width: Double, height: Double) throws(CairoError) {
        let s = cairo_pdf_surface_create(path, width, height)!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            throw CairoError("creating a PDF surface at \(path)", status: status)
        }
        pointer = s
        kind = .pdfFile(path: path)
        sink = nil
    }

    /// A PDF surface collected in memory; read it with ``pdfData()`` after ``finish()``.
    package init(pdfInMemoryWidth width: Double, height: Double) throws(CairoError) {
        let sink = ByteSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let s = cairo_pdf_surface_create_for_stream({ closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, closure, width, height)!
        let status = cairo_surface_status(s)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            throw CairoError("creating an in-memory PDF surface", status: status)
        }
        pointer = s
        kind = .pdfMemory
        self.sink = sink
    }

    deinit {
        // Destroying an unfinished PDF finishes it.
        let surface = pointer
        MachineFontLock.run(if: emitsMachineFonts && !finished) { cairo_surface_destroy(surface) }
        // Cairo no longer refers to the pixels once the surface is destroyed.
        if let pixels { PixelMemory.giveBack(pixels) }
    }

    // MARK: - Status and finishing

    /// Throws the surface's sticky error, if any drawing or writing has failed.
    package func checkStatus(_ operation: @autoclosure () -> String = "drawing") throws(CairoError) {
        try cairo_surface_status(pointer).throwIfError(operation())
    }

    /// Finishes the surface: for a PDF this writes the rest of the document (to the file or to memory).
    ///
    /// Nothing may be drawn afterwards. Calling it twice is harmless.
    package func finish() throws(CairoError) {
        if finished { return }
        try checkStatus("drawing before finishing the surface")
        let surface = pointer
        MachineFontLock.run(if: emitsMachineFonts) { cairo_surface_finish(surface) }
        finished = true
        try checkStatus(finishDescription)
    }

    private var finishDescription: String {
        switch kind {
        case .image: return "finishing the image surface"
        case .pdfFile(let path): return "writing the PDF \(path)"
        case .pdfMemory: return "writing the in-memory PDF"
        }
    }

    /// The bytes of an in-memory PDF, after ``finish()``.
    package func pdfData() throws(CairoError) -> [UInt8] {
        try finishedSink().bytes
    }

    /// The bytes of an in-memory PDF, after ``finish()``, handed over: the surface keeps none,
    /// so the caller's buffer is the only copy (a long statement's PDF is megabytes, and its
    /// caller edits the bytes, which would otherwise copy them while the surface lives).
    /// Later calls return nothing.
    package func takePDFData() throws(CairoError) -> [UInt8] {
        let sink = try finishedSink()
        var taken: [UInt8] = []
        swap(&taken, &sink.bytes)
        return taken
    }

    /// The in-memory PDF's buffer, once the document is finished.
    private func finishedSink() throws(CairoError) -> ByteSink {
        guard let sink else { throw CairoError("reading PDF bytes", message: "the surface is not an in-memory PDF") }
        guard finished else { throw CairoError("reading PDF bytes", message: "the surface is not finished yet") }
        return sink
    }

    // MARK: - PDF pages, metadata and outline

    /// Sets the size of the next page (call before drawing on it, e.g. right after `showPage`).
    package func setPageSize(width: Double, height: Double) throws(CairoError) {
        try requirePDF("setting the page size")
        cairo_pdf_surface_set_size(pointer, width, height)
        try checkStatus("setting the page size to \(width)×\(height)")
    }

    /// Sets the PDF's document information (title, author, subject, creator, dates).
    package func setMetadata(_ metadata: PDFMetadata) throws(CairoError) {
        try requirePDF("setting PDF metadata")
        let entries: [(cairo_pdf_metadata_t, String?)] = [
            (CAIRO_PDF_METADATA_TITLE, metadata.title),
            (CAIRO_PDF_METADATA_AUTHOR, metadata.author),
            (CAIRO_PDF_METADATA_SUBJECT, metadata.subject),
            (CAIRO_PDF_METADATA_KEYWORDS, metadata.keywords),
            (CAIRO_PDF_METADATA_CREATOR, metadata.creator),
            (CAIRO_PDF_METADATA_CREATE_DATE, metadata.createDate),
            (CAIRO_PDF_METADATA_MOD_DATE, metadata.createDate),
        ]
        for (key, value) in entries {
            if let value { cairo_pdf_surface_set_metadata(pointer, key, CairoText.drawable(CairoText.bounded(value))) }
        }
        try checkStatus("setting PDF metadata")
    }

    /// The outline id of the document's root, the parent of top-level bookmarks.
    package static let outlineRoot = 0

    /// Adds a bookmark named `name` pointing at the top of `page` (1-based) under `parent`
    /// (``outlineRoot`` for a top-level entry) and returns its id, to parent sub-entries. The name
    /// is shown on one line (``CairoText/oneLine(_:)``).
    @discardableResult
    package func addOutline(parent: Int = CairoSurface.outlineRoot, name: String, page: Int,
                           open: Bool = false) throws(CairoError) -> Int {
        try requirePDF("adding an outline entry")
        let flags = open ? CAIRO_PDF_OUTLINE_FLAG_OPEN : cairo_pdf_outline_flags_t(0)
        let id = cairo_pdf_surface_add_outline(pointer, Int32(parent), CairoText.oneLine(CairoText.bounded(name)), "page=\(page)", flags)
        try checkStatus("adding the outline entry '\(name)' for page \(page)")
        return Int(id)
    }

    private func requirePDF(_ operation: String) throws(CairoError) {
        if case .image = kind { throw CairoError(operation, message: "the surface is not a PDF") }
    }

    // MARK: - Pixels

    /// The image surface encoded as PNG (see ``PNGEncoder``; no timestamps, byte-identical for identical pixels).
    package func pngData(options: PNGEncoder.Options = .fast) throws(CairoError) -> [UInt8] {
        guard case .image(let width, let height) = kind else {
            throw CairoError("encoding a PNG", message: "the surface is not an image")
        }
        try checkStatus("drawing before encoding a PNG")
        cairo_surface_flush(pointer)
        guard let data = cairo_image_surface_get_data(pointer) else {
            throw CairoError("encoding a PNG", message: "the image surface has no pixel data")
        }
        let stride = Int(cairo_image_surface_get_stride(pointer))
        do {
            return try PNGEncoder.encode(argb32: UnsafePointer(data), width: width, height: height, stride: stride,
                                         options: options)
        } catch {
            throw CairoError("encoding a PNG", message: error.description)
        }
    }

    /// The image surface encoded by Cairo's own PNG writer (slower; kept to compare speed and size).
    package func cairoPNGData() throws(CairoError) -> [UInt8] {
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(pointer, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
                .bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        try status.throwIfError("encoding a PNG with cairo")
        return sink.bytes
    }
}

/// The document information of a PDF. Dates are `YYYY-MM-DDThh:mm:ss` (optionally with a zone
/// such as `Z`); always give `createDate` (e.g. the report's as-of date) so the file is reproducible.
package struct PDFMetadata: Hashable, Sendable {
    package var title: String?
    package var author: String?
    package var subject: String?
    package var keywords: String?
    package var creator: String?
    /// Used for both the creation and the modification date.
    package var createDate: String?
    /// Metadata with the given fields.
    package init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
                creator: String? = nil, createDate: String? = nil) {
        self.title = title; self.author = author; self.subject = subject; self.keywords = keywords
        self.creator = creator; self.createDate = createDate
    }
}

/// A growable byte buffer that Cairo's stream callbacks append to.
final class ByteSink {
    var bytes: [UInt8] = []
}
