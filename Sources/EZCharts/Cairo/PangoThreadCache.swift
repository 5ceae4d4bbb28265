import CCairo
#if canImport(Glibc)
import Glibc
#endif

/// The Pango set-up one thread shares between all its ``CairoContext``s: one `PangoContext` (on the
/// thread's default font map, with ezreport's font options) and the parsed font descriptions.
///
/// Making a `PangoContext` per drawing, and parsing "Noto Sans Bold 9" per layout, repeated work
/// for every chart and every PDF; the font map's fontset and font caches are keyed by the context's
/// options, so one context per thread also keeps those warm. Pango objects are not thread-safe:
/// each thread gets its own cache (released when the thread ends), and a ``CairoContext`` keeps
/// the cache of the thread that first laid text out on it.
///
/// The shared context is re-bound to a Cairo context (``bind(_:)``) before each layout or drawing
/// call; re-binding to the context it already serves is a comparison, not a Pango call.
final class PangoThreadCache {
    /// The shared `PangoContext`; never escapes this module.
    let context: OpaquePointer
    /// Parsed font descriptions by their string, freed with the cache.
    private var descriptions: [String: OpaquePointer] = [:]
    /// The serial of the ``CairoContext`` the Pango context is bound to now (0: none).
    private var boundSerial: UInt64 = 0

    private init() {
        let fontMap = pango_cairo_font_map_get_default()!
        context = pango_font_map_create_context(fontMap)!
        let options = cairo_font_options_create()
        // No hinting of metrics: text lays out identically in a PNG and a PDF.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
    }

    deinit {
        for d in descriptions.values { pango_font_description_free(d) }
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// The calling thread's cache, made on first use.
    static var current: PangoThreadCache {
        if let raw = pthread_getspecific(pangoThreadKey) {
            return Unmanaged<PangoThreadCache>.fromOpaque(raw).takeUnretainedValue()
        }
        let cache = PangoThreadCache()
        pthread_setspecific(pangoThreadKey, Unmanaged.passRetained(cache).toOpaque())
        return cache
    }

    /// The parsed description of `font` ("Noto Sans Bold 9"), owned by the cache.
    func fontDescription(_ font: String) -> OpaquePointer {
        if let d = descriptions[font] { return d }
        let d = pango_font_description_from_string(font)!
        descriptions[font] = d
        return d
    }

    /// Points the shared Pango context at `cairo`'s surface (its font options) and at the
    /// transformation `cairo` had when it first laid out text, as `pango_cairo_create_context` did
    /// when every Cairo context made its own; a no-op when already bound to `cairo`.
    func bind(_ cairo: CairoContext) {
        if boundSerial == cairo.serial { return }
        let cr = cairo.pointer
        var matrix = cairo.pangoMatrix
        cairo_save(cr)
        cairo_set_matrix(cr, &matrix)
        pango_cairo_update_context(cr, context)
        cairo_restore(cr)
        boundSerial = cairo.serial
    }
}

/// The thread-local slot of ``PangoThreadCache``; the destructor releases a thread's cache when it ends.
private let pangoThreadKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { raw in
        if let raw { Unmanaged<PangoThreadCache>.fromOpaque(raw).release() }
    }
    precondition(status == 0, "pthread_key_create failed (\(status)): out of thread-local keys")
    return key
}()
