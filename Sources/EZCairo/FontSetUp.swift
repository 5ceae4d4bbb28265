import CCairo
#if canImport(Glibc)
import Glibc
#endif

/// Fontconfig's one-time set-up, started early on a thread of its own.
///
/// The first text a process lays out waits for fontconfig to read its configuration (some fifty
/// XML files) and font caches: ~6 ms of CPU on a machine with Debian's Noto fonts. A one-shot
/// command (`ezreport export`) that starts it before reading the ledger has it done by the time
/// the PDF lays out its first line; a long-running one (the batch, the server) pays it once
/// anyway and need not call this.
package enum FontSetUp {
    /// Loads ezreport's body font once on a new, detached thread (which then ends): Pango starts
    /// fontconfig's process-wide set-up, and every later thread finds it done. Safe to call more
    /// than once; does nothing visible.
    package static func startInBackground() {
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        _ = pthread_create(&thread, &attributes, { _ in
            FontSetUp.loadBodyFont()
            return nil
        }, nil)
        pthread_attr_destroy(&attributes)
    }

    /// Asks this thread's Pango font map for the body font: the first such request in the process
    /// initialises fontconfig.
    static func loadBodyFont() {
        guard let map = pango_cairo_font_map_get_default(), let context = pango_font_map_create_context(map) else { return }
        let description = pango_font_description_from_string("Noto Sans 9")
        if let font = pango_context_load_font(context, description) { g_object_unref(font) }
        pango_font_description_free(description)
        g_object_unref(UnsafeMutableRawPointer(context))
    }
}
