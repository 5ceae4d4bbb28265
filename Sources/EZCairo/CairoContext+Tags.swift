import CCairo

extension CairoContext {
    /// Opens a structure element of a tagged PDF (`cairo_tag_begin`), such as `Document`, `H1`, `P`,
    /// `Table`, `TR`, `TH`, `TD` or `Figure`; what is drawn until the matching ``endTag(_:)`` is
    /// its content. Elements nest; on other surfaces the calls do nothing.
    ///
    /// Cairo 1.16 writes the structure tree, the marked content and `/MarkInfo`; it reads no
    /// attributes for structure elements (no `/Alt`, no `/Lang`) and accepts only the standard
    /// structure types (no `Artifact`): EZPDF adds those afterwards. An unknown name or a bad
    /// nesting puts the context in `CAIRO_STATUS_TAG_ERROR`, which ``checkStatus(_:)`` reports.
    ///
    /// ```swift
    /// ctx.beginTag("H1"); /* draw the title */; ctx.endTag("H1")
    /// ```
    package func beginTag(_ name: String, attributes: String = "") {
        structureElements += 1
        cairo_tag_begin(pointer, name, CairoText.drawable(attributes))
    }

    /// Closes the structure element `name` opened by ``beginTag(_:attributes:)``.
    package func endTag(_ name: String) {
        cairo_tag_end(pointer, name)
    }
}
