import CCairo

/// A `PangoContext` for one kind of drawing (a surface type and the transformation text is laid
/// out for), with the text laid out on it so far.
///
/// Statements repeat most of their text: axis ticks, month names, category and account names,
/// column headings, dates and many amounts recur from chart to chart and from user to user, and
/// the PDF lays each text out to measure it and again to draw it. Shaping and line breaking are
/// about a third of a statement's PDF and chart drawing time, so a layout is made once per
/// thread and kind and then reused, as long as it stays in the cache.
///
/// The cache holds two generations of at most ``generationLimit`` layouts: a hit in the older one
/// moves the layout to the newer, and when the newer is full the older is dropped. That keeps the
/// recently used text, bounds memory, and needs no bookkeeping per hit.
final class PangoBinding {
    /// What a binding is for: the surface type (font options differ between a PDF and an image)
    /// and the linear part of the transformation (fonts are chosen and hinted for it).
    struct Kind: Hashable {
        var surfaceType: UInt32
        var xx, yx, xy, yy: Double
    }

    /// Everything that decides how a text is laid out.
    ///
    /// Its fields are hashed once, when it is made: a lookup hashes the key up to three times
    /// (the newer generation, the older one, moving the layout to the newer), and hashing the
    /// text and font names was ~1 % of the batch.
    struct LayoutKey: Hashable {
        let text: String
        let font: String
        /// In Pango units; -1 for no limit.
        let width: Int32
        /// `pango_layout_set_height`: -lines, or -1 for no limit.
        let height: Int32
        let ellipsize: UInt32
        let wrap: UInt32
        let alignment: UInt32
        private let fieldsHash: Int

        init(text: String, font: String, width: Int32, height: Int32, ellipsize: UInt32, wrap: UInt32, alignment: UInt32) {
            self.text = text
            self.font = font
            self.width = width
            self.height = height
            self.ellipsize = ellipsize
            self.wrap = wrap
            self.alignment = alignment
            var hasher = Hasher()
            hasher.combine(text)
            hasher.combine(font)
            hasher.combine(width)
            hasher.combine(height)
            hasher.combine(ellipsize)
            hasher.combine(wrap)
            hasher.combine(alignment)
            fieldsHash = hasher.finalize()
        }

        static func == (a: LayoutKey, b: LayoutKey) -> Bool {
            a.fieldsHash == b.fieldsHash && a.width == b.width && a.height == b.height && a.ellipsize == b.ellipsize
                && a.wrap == b.wrap && a.alignment == b.alignment && a.text == b.text && a.font == b.font
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(fieldsHash)
        }
    }

    /// The most layouts each generation holds. About 1 KB each; EZBench render over 300 users: PDF
    /// 20.6 ms per statement with no reuse, 15.1 with 1,500, 14.7 with 3,000 (+3 MB), 14.9 with 6,000.
    static let generationLimit = 1500

    /// The `PangoContext` on this thread's ``FontConfiguration/report`` font map, for text those
    /// fonts cover; nil when they could not be set up. Never escapes this module.
    let reportContext: OpaquePointer?
    /// The `PangoContext` on the thread's ``FontConfiguration/machine`` font map, for any other
    /// text; made when first needed (a statement in Latin or CJK script never needs it). Never
    /// escapes this module.
    private var systemContextStorage: OpaquePointer?
    /// The thread's machine font map, asked for when ``systemContext`` is first needed.
    private let machineFontMap: () -> UnsafeMutablePointer<PangoFontMap>
    /// The font options ``reportContext`` lays text out with: ezreport's merged with the surface's,
    /// as `pango_cairo_update_context` merges them (owned; for ``systemContext``).
    private let mergedOptions: OpaquePointer
    let kind: Kind
    private var newer: [LayoutKey: LaidOutText] = [:]
    private var older: [LayoutKey: LaidOutText] = [:]

    /// Contexts with ezreport's font options, set up for `cairo`'s surface and transformation.
    init(kind: Kind, for cairo: CairoContext, reportFontMap: UnsafeMutablePointer<PangoFontMap>?,
         machineFontMap: @escaping () -> UnsafeMutablePointer<PangoFontMap>) {
        self.kind = kind
        self.machineFontMap = machineFontMap
        mergedOptions = cairo_font_options_create()
        cairo_surface_get_font_options(cairo.surface.pointer, mergedOptions)
        let ours = PangoBinding.fontOptions()
        cairo_font_options_merge(mergedOptions, ours)
        cairo_font_options_destroy(ours)
        if let reportFontMap {
            reportContext = PangoBinding.context(on: reportFontMap, for: cairo)
        } else {
            reportContext = nil
            systemContextStorage = PangoBinding.context(on: machineFontMap(), for: cairo)
        }
    }

    /// A context on `fontMap` with ezreport's font options, for `cairo`'s surface and transformation.
    private static func context(on fontMap: UnsafeMutablePointer<PangoFontMap>, for cairo: CairoContext) -> OpaquePointer {
        let context = pango_font_map_create_context(fontMap)!
        let options = fontOptions()
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, PangoBinding.layoutLanguage)
        let cr = cairo.pointer
        var matrix = cairo.pangoMatrix
        cairo_save(cr)
        cairo_set_matrix(cr, &matrix)
        pango_cairo_update_context(cr, context)
        cairo_restore(cr)
        return context
    }

    /// The language every layout starts from: English, whatever the process's locale. Pango
    /// takes its default from `LANG`, and under `C.UTF-8` (a container's, CI's) that is `c`, a
    /// language Pango does not know and so treats as covering every script: a run of Tamil then
    /// got no Tamil preference, and fontconfig's fallback drew ப from Noto Sans Grantha and its
    /// vowel sign from Noto Sans Tamil, split on a dotted circle ("பிப்." as "ப◌ிப◌்.": outside
    /// languages test). English covers Latin only, so every other script is laid out in its own
    /// language (Pango's sample language for the script: Tamil's `ta`), on any machine alike.
    static var layoutLanguage: OpaquePointer? { pango_language_from_string("en") }   // interned by Pango: the same pointer each time

    /// ezreport's font options (a new object the caller destroys).
    private static func fontOptions() -> OpaquePointer {
        let options = cairo_font_options_create()!
        // No hinting of metrics: text lays out identically in a PNG and a PDF.
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        return options
    }

    /// The context on the machine's whole font configuration, set up as ``reportContext`` is: the
    /// same font options (``mergedOptions``: with no surface options of its own, Pango merges
    /// nothing more into them) and the same transformation.
    var systemContext: OpaquePointer {
        if let c = systemContextStorage { return c }
        let report = reportContext!
        let context = pango_font_map_create_context(machineFontMap())!
        pango_cairo_context_set_font_options(context, mergedOptions)
        pango_context_set_round_glyph_positions(context, 0)
        pango_context_set_language(context, PangoBinding.layoutLanguage)
        pango_context_set_matrix(context, pango_context_get_matrix(report))
        systemContextStorage = context
        return context
    }

    deinit {
        newer.removeAll()
        older.removeAll()
        if let c = reportContext { g_object_unref(UnsafeMutableRawPointer(c)) }
        if let c = systemContextStorage { g_object_unref(UnsafeMutableRawPointer(c)) }
        cairo_font_options_destroy(mergedOptions)
    }

    /// The context `text` in `font` is laid out on: the report fonts' when they cover it, else the
    /// machine's (and then the text's every use is made under ``MachineFontLock``).
    func context(for text: String, font: PangoThreadCache.ParsedFont) -> (context: OpaquePointer, machine: Bool) {
        if let reportContext, font.asksForReportFonts, let fonts = FontConfiguration.report, fonts.covers(text) {
            return (reportContext, false)
        }
        return (systemContext, true)
    }

    /// How many layouts the cache holds now (both generations).
    var cachedCount: Int { newer.count + older.count }

    /// The text laid out as `key` says, from the cache or laid out now.
    func layout(_ key: LayoutKey, font: PangoThreadCache.ParsedFont) -> LaidOutText {
        if let hit = newer[key] { return hit }
        let found: LaidOutText
        if let hit = older.removeValue(forKey: key) {
            found = hit
        } else {
            let (context, machine) = context(for: key.text, font: font)
            found = LaidOutText(context: context, key: key, font: font.description, usesMachineFonts: machine)
        }
        if newer.count >= PangoBinding.generationLimit {
            older = newer
            newer = Dictionary(minimumCapacity: PangoBinding.generationLimit)
        }
        newer[key] = found
        return found
    }
}

/// One `PangoLayout`, set up once and never changed afterwards (so it is laid out once).
final class LaidOutText {
    /// The `PangoLayout`; never escapes this module.
    let layout: OpaquePointer
    /// Whether it is laid out on the machine's fonts: then Pango may lay it out (it does so on
    /// first use) and Cairo draw it only under ``MachineFontLock``.
    let usesMachineFonts: Bool

    init(context: OpaquePointer, key: PangoBinding.LayoutKey, font: OpaquePointer, usesMachineFonts: Bool) {
        self.usesMachineFonts = usesMachineFonts
        layout = pango_layout_new(context)!
        pango_layout_set_font_description(layout, font)
        pango_layout_set_text(layout, CairoText.drawable(key.text), -1)
        pango_layout_set_width(layout, key.width)
        pango_layout_set_height(layout, key.height)
        pango_layout_set_ellipsize(layout, PangoEllipsizeMode(key.ellipsize))
        pango_layout_set_wrap(layout, PangoWrapMode(key.wrap))
        pango_layout_set_alignment(layout, PangoAlignment(key.alignment))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// For a layout made without a width: if it is one line no wider than `width` (Pango units),
    /// how far right Pango would draw that line in a layout of that width and `alignment`, which is
    /// otherwise the same layout (nothing to wrap or ellipsize); nil if it is not.
    ///
    /// Pango's rule (`get_x_offset` in pango-layout.c): right-aligned lines start at the width less
    /// the line's logical width, centred ones at half that, rounded to whole points when both are
    /// whole points; a right-to-left line swaps left and right alignment.
    func offsetOfSingleLine(within width: Int32, alignment: PangoAlignment) -> Int32? {
        guard pango_layout_get_line_count(layout) == 1, let line = pango_layout_get_line_readonly(layout, 0) else {
            return nil
        }
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &logical)
        guard logical.width <= width else { return nil }
        var effective = alignment
        if pango_layout_get_auto_dir(layout) != 0,
           pango_layout_line_get_resolved_direction(line) == PANGO_DIRECTION_RTL {
            if alignment == PANGO_ALIGN_LEFT { effective = PANGO_ALIGN_RIGHT }
            else if alignment == PANGO_ALIGN_RIGHT { effective = PANGO_ALIGN_LEFT }
        }
        switch effective {
        case PANGO_ALIGN_RIGHT:
            return width - logical.width
        case PANGO_ALIGN_CENTER:
            let offset = (width - logical.width) / 2
            if (width | logical.width) & (PANGO_SCALE - 1) == 0 {
                return (offset + PANGO_SCALE / 2) & ~(PANGO_SCALE - 1)  // PANGO_UNITS_ROUND
            }
            return offset
        default:
            return 0
        }
    }
}
