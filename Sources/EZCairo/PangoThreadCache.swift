import CCairo
#if canImport(Glibc)
import Glibc
#endif

/// The Pango set-up one thread shares between all its ``CairoContext``s: one `PangoContext` per
/// kind of drawing (surface type and text transformation, see ``PangoBinding``), the parsed font
/// descriptions, and laid-out text.
///
/// Making a `PangoContext` per drawing, and parsing "Noto Sans Bold 9" per layout, repeated work
/// for every chart and every PDF; the font map's fontset and font caches are keyed by the context's
/// options, so long-lived contexts also keep those warm. Pango objects are not thread-safe: each
/// thread gets its own cache (released when the thread ends), and a ``CairoContext`` keeps the cache
/// of the thread that first laid text out on it.
///
/// A context per kind (rather than one re-pointed at each Cairo context) is what lets laid-out text
/// be reused: re-pointing a `PangoContext` at another transformation invalidates every layout made
/// on it.
final class PangoThreadCache {
    /// Parsed font descriptions by the string they were parsed from, freed with the cache.
    private var descriptions: [String: ParsedFont] = [:]
    /// One binding per kind of drawing met on this thread.
    private var bindings: [PangoBinding.Kind: PangoBinding] = [:]
    /// The ``CairoContext`` served last and its binding: most calls come from the same context.
    private var lastSerial: UInt64 = 0
    private var lastBinding: PangoBinding?
    /// This thread's font map on ``FontConfiguration/report`` (Pango font maps are not
    /// thread-safe), made on first use; nil when the report fonts could not be set up.
    private(set) lazy var reportFontMap: UnsafeMutablePointer<PangoFontMap>? = FontConfiguration.report.flatMap(fontMap(on:))
    /// This thread's font map on ``FontConfiguration/machine``, once a text has needed it.
    private var madeMachineFontMap: UnsafeMutablePointer<PangoFontMap>?

    /// This thread's font map on ``FontConfiguration/machine``, made when a text first needs it;
    /// Pango's default font map for the thread when that configuration could not be set up.
    func machineFontMap() -> UnsafeMutablePointer<PangoFontMap> {
        if let map = madeMachineFontMap { return map }
        let map = FontConfiguration.machine.flatMap(fontMap(on:))
            ?? UnsafeMutablePointer(mutating: g_object_ref(pango_cairo_font_map_get_default()!).assumingMemoryBound(to: PangoFontMap.self))
        madeMachineFontMap = map
        return map
    }

    /// A new Cairo font map on `configuration`.
    private func fontMap(on configuration: FontConfiguration) -> UnsafeMutablePointer<PangoFontMap>? {
        guard let map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT) else { return nil }
        pango_fc_font_map_set_config(OpaquePointer(map), configuration.config)
        return map
    }

    private init() {}

    deinit {
        lastBinding = nil
        bindings.removeAll()
        for d in descriptions.values { pango_font_description_free(d.description) }
        if let map = reportFontMap { g_object_unref(UnsafeMutableRawPointer(map)) }
        if let map = madeMachineFontMap { g_object_unref(UnsafeMutableRawPointer(map)) }
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

    /// A font description parsed once, and the one name every spelling of it shares.
    struct ParsedFont {
        /// The `PangoFontDescription`, owned by the cache.
        let description: OpaquePointer
        /// Pango's own spelling of the description: "Noto Sans 8" and "Noto Sans 8.0" both become
        /// "Noto Sans 8", so text laid out for one is reused for the other.
        let canonicalName: String
        /// Whether it asks for the report fonts' families (``FontConfiguration/requestedFamilies``), so
        /// that text they cover may be laid out on them alone.
        let asksForReportFonts: Bool
    }

    /// The parsed description of `font` ("Noto Sans Bold 9"), owned by the cache; Noto Sans is
    /// followed by ``cjkFallback``.
    func fontDescription(_ font: String) -> ParsedFont {
        if let d = descriptions[font] { return d }
        let d = pango_font_description_from_string(font)!
        let spelled = pango_font_description_to_string(d)!
        let canonicalName = String(cString: spelled)
        g_free(spelled)
        var asksForReportFonts = false
        if let family = pango_font_description_get_family(d), String(cString: family) == "Noto Sans" {
            pango_font_description_set_family(d, FontConfiguration.requestedFamilies.joined(separator: ","))
            asksForReportFonts = true
        }
        let parsed = ParsedFont(description: d, canonicalName: canonicalName, asksForReportFonts: asksForReportFonts)
        descriptions[font] = parsed
        return parsed
    }

    /// The font Chinese, Japanese and Korean text falls back to before fontconfig's own choice.
    ///
    /// Fontconfig would pick Noto Sans CJK, a 19 MB collection of CFF outlines: Cairo copies a CFF
    /// font's whole outline table to embed a few of its glyphs in a PDF, so every statement
    /// naming a CJK user (the user's own, and their groups' members') read ~16 MB per weight,
    /// kept ~36 MB of font file resident for the rest of the run, and took 60 ms longer. Droid Sans
    /// Fallback is TrueType, whose glyphs Cairo subsets one by one. Measured on user 4 of the 1k
    /// ledger, PDF export: peak RSS 104 → 52 MB, 0.13 → 0.085 s, 169 → 65 KB. Where it is not
    /// installed, fontconfig's fallback applies as before; emoji and symbols it lacks still fall
    /// back to their own fonts.
    static let cjkFallback = "Droid Sans Fallback"

    /// The binding that lays text out for `cairo`: for its surface's type and for the transformation
    /// `cairo` had when it first laid out text (``CairoContext/pangoMatrix``), as
    /// `pango_cairo_create_context` did when every Cairo context made its own.
    func binding(for cairo: CairoContext) -> PangoBinding {
        if lastSerial == cairo.serial, let b = lastBinding { return b }
        let m = cairo.pangoMatrix
        let kind = PangoBinding.Kind(surfaceType: cairo_surface_get_type(cairo.surface.pointer).rawValue,
                                     xx: m.xx, yx: m.yx, xy: m.xy, yy: m.yy)
        let b: PangoBinding
        if let existing = bindings[kind] { b = existing } else {
            b = PangoBinding(kind: kind, for: cairo, reportFontMap: reportFontMap) { [unowned self] in machineFontMap() }
            bindings[kind] = b
        }
        lastSerial = cairo.serial
        lastBinding = b
        return b
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
