import CCairo

/// Fontconfig's one-time set-up, done early by a command that will lay out text.
///
/// The first text a process lays out waits for fontconfig to read its configuration (some fifty
/// XML files) and font caches, and for ``FontConfiguration/report`` to be picked from them: ~6 ms
/// of CPU on a machine with Debian's Noto fonts. A one-shot command (`ezreport export`) that
/// runs it on another thread while it reads the ledger has it done by the time the PDF lays out
/// its first line; a long-running one (the batch, the server) pays it once anyway and need not
/// call this.
package enum FontSetUp {
    /// Sets up ``FontConfiguration/report`` and loads ezreport's body font from them: every later
    /// thread finds both done (Cairo shares loaded font files between threads). It asks this
    /// thread's Pango font map on the report fonts (or the machine's, without them) for the body
    /// font; the first such request in the process sets fontconfig up. Safe to call more than
    /// once, from any thread; does nothing visible.
    package static func run() {
        let cache = PangoThreadCache.current
        let machine = cache.reportFontMap == nil
        guard let map = cache.reportFontMap ?? pango_cairo_font_map_get_default(),
              let context = pango_font_map_create_context(map) else { return }
        let body = cache.fontDescription("Noto Sans 9")
        // The machine's fonts, without the report fonts, are loaded under their lock as everywhere.
        MachineFontLock.run(if: machine) {
            if let font = pango_context_load_font(context, body.description) { g_object_unref(font) }
        }
        g_object_unref(UnsafeMutableRawPointer(context))
    }
}
