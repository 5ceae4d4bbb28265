import CCairo

/// A fontconfig configuration ezreport sets up itself: the machine's configuration file (every
/// rule, alias and rendering setting) with its fonts, or only the report fonts. Pango's font maps
/// use one of two (``report`` and ``machine``), never fontconfig's default configuration.
///
/// **Why a configuration of the report fonts alone.** Every font choice Pango makes goes through
/// fontconfig, which scores every font of the configuration against the request: once to match
/// and once to sort a fallback list, per font size, weight, language and thread. With Debian's Noto
/// fonts that is 323 fonts per request, and a one-shot export made ~40 such requests: a quarter of
/// a PDF export's CPU (one user's export of every format, 190 → 160 ms wall, 10,000-user ledger).
/// Reports ask for "Noto Sans", then "Droid Sans Fallback". Fontconfig ranks every face of a
/// family a request names with a strong binding before any font it does not, whatever the
/// language or the size; so for a text whose every character one of those faces covers
/// (``covers(_:)``), Pango's choices in ``report`` and in ``machine`` are the same faces, and the
/// glyphs, their positions and the files they come from are the same. Other text (Arabic,
/// Devanagari, emoji, …) is laid out in ``machine`` (``PangoBinding``). The strongly bound families
/// are read from the machine's rules (an alias may add one), not assumed.
///
/// **Why the report fonts' faces are opened here.** Cairo 1.16 (Debian 12's) keeps at most ten
/// font files open: opening the eleventh closes one that no thread holds at that instant, checked
/// without that font's lock, so another thread that has just taken it draws with a closed face.
/// A monthly run or the server drawing two statements at once crashed (SIGSEGV in FreeType, 3 runs
/// in 15 on a ledger whose names are in a dozen scripts) once the statements needed more than ten
/// font files. A face handed to Cairo in the font's pattern (`FC_FT_FACE`, ``FontFaces``) is never
/// closed by Cairo and is used under its own lock: the report fonts, in both configurations, carry
/// one. The machine's other fonts do not (their faces would take 83 MB: 40 of them are CJK CFF
/// faces of ~2 MB each), so Cairo opens and closes those itself, and every use of them is made under
/// ``MachineFontLock``: ezreport's own "−" and "→" come from DejaVu Sans, so most statements with a
/// group take it for a few lines (a 1,000-user batch measured no slower for it).
///
/// Made once per process on first use (``FontSetUp`` starts ``report`` early) and never freed;
/// immutable once made, and fontconfig configurations may be shared between threads.
final class FontConfiguration: @unchecked Sendable {
    /// The `FcConfig`; never escapes this module.
    let config: OpaquePointer
    /// The families kept: nil for every font of the machine.
    let families: [String]?
    /// The font files of the configuration, sorted.
    let files: [String]
    /// The characters one of the fonts covers (`FcCharSet`), for ``report``; nil for ``machine``.
    private let coverage: OpaquePointer?
    /// ``coverage`` for the ASCII characters, looked up without fontconfig.
    private let asciiCovered: [Bool]

    /// The report fonts' families and nothing else; nil when they cannot be set up (no fontconfig
    /// configuration, none of the fonts installed), and then all text is laid out in ``machine``.
    static let report: FontConfiguration? = FontConfiguration(keeping: requestedFamilies)

    /// Every font of the machine, for text the report fonts do not cover; made the first time such
    /// a text is laid out. Nil when it cannot be set up, and then Pango's default font map is used
    /// (on fontconfig's current configuration: the report fonts', when those were set up).
    static let machine: FontConfiguration? = {
        _ = report  // its faces first: the machine's patterns of the same files take the same faces
        return FontConfiguration(keeping: nil)
    }()

    /// The families the reports name in every font description (see ``PangoThreadCache/fontDescription(_:)``).
    static let requestedFamilies = ["Noto Sans", PangoThreadCache.cjkFallback]

    /// The languages a request may carry: Pango's default, and the sample languages of the
    /// scripts the report fonts cover (Pango asks per script run). A rule that adds a strongly
    /// bound family for one of them has that family kept too.
    private static var languages: [String] {
        var list = ["en", "el", "ru", "ja", "ko", "zh-cn", "zh-tw", "zh-hk", "fr", "de", "es"]
        if let d = pango_language_get_default(), let s = pango_language_to_string(d) { list.insert(String(cString: s), at: 0) }
        return list
    }

    /// The machine's configuration with the fonts of `families` only (every font when nil).
    private init?(keeping requested: [String]?) {
        guard let config = FcConfigCreate() else { return nil }
        // The machine's configuration file (FONTCONFIG_FILE and FONTCONFIG_PATH are honoured); asked
        // of this configuration: asked of none, fontconfig would load its default one first.
        guard let file = FcConfigGetFilename(config, nil) else { FcConfigDestroy(config); return nil }
        let loaded = FcConfigParseAndLoad(config, file, 0)
        FcStrFree(file)
        var families: [String]?
        var inEveryLanguage: Set<String> = []
        if loaded != 0, let requested {
            let strong = FontConfiguration.stronglyBoundFamilies(config, requesting: requested)
            // A family name XML would need escaped (none known) leaves the report fonts unset: every
            // text is then laid out on the machine's fonts, as correct and slower.
            let plain = strong.all.allSatisfy { !$0.contains(where: { "&<>\"'".contains($0) }) }
            if plain, !strong.all.isEmpty,
               FcConfigParseAndLoadFromMemory(config, FontConfiguration.selection(keeping: strong.all), 0) != 0 {
                families = strong.all
                inEveryLanguage = strong.inEveryLanguage
            }
        }
        guard loaded != 0, requested == nil || families != nil,
              FcConfigBuildFonts(config) != 0,
              let set = FcConfigGetFonts(config, FcSetSystem), set.pointee.nfont > 0 else {
            FcConfigDestroy(config)
            return nil
        }
        let coverage = requested == nil ? nil : FcCharSetCreate()
        var files: [String] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var path: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(font, FC_FILE, 0, &path) == FcResultMatch, let path,
                  FcPatternGetInteger(font, FC_INDEX, 0, &index) == FcResultMatch else { continue }
            files.append(String(cString: path))
            if let coverage, FontConfiguration.familyNames(of: font).contains(where: inEveryLanguage.contains) {
                var charset: OpaquePointer?
                if FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) == FcResultMatch, let charset {
                    _ = FcCharSetMerge(coverage, charset, nil)
                }
            }
            // The same pattern with the face in it, for the report fonts (a font FreeType cannot
            // open stays as it was: Cairo will fail to open it too, and Pango then skips it); the
            // machine's other fonts stay as they are, for Cairo to open (see ``MachineFontLock``).
            let file = String(cString: path)
            let face = requested == nil ? FontFaces.shared.existingFace(file: file, index: index)
                                        : FontFaces.shared.face(file: file, index: index)
            guard let face, let withFace = FcPatternDuplicate(font) else { continue }
            _ = FcPatternAddFTFace(withFace, FC_FT_FACE, face)
            set.pointee.fonts[i] = withFace
            FcPatternDestroy(font)
        }
        self.config = config
        self.families = families
        if requested != nil {
            // fontconfig's current configuration, so that Pango's own set-up (the `FcInit` it
            // starts on a thread when its first font map is made) finds one and does not parse
            // the machine's configuration and build its 323 fonts once more: ~4 ms of CPU and
            // their patterns' memory in every process. Cairo asks the current configuration only
            // for rendering options (`FcConfigSubstitute`), which come from the same file's rules.
            _ = FcConfigSetCurrent(config)
        }
        self.files = files.sorted()
        self.coverage = coverage
        asciiCovered = (0..<128).map { c in coverage.map { FcCharSetHasChar($0, FcChar32(c)) != 0 } ?? false }
    }

    deinit {
        FcConfigDestroy(config)
        if let coverage { FcCharSetDestroy(coverage) }
    }

    /// Whether Pango would lay `text` out in these fonts alone (false for ``machine``): every
    /// character is covered by one of them, or is one Pango never chooses a font for (controls,
    /// spaces, line and paragraph separators, variation selectors: they keep the font of the text
    /// around them).
    func covers(_ text: String) -> Bool {
        guard let coverage else { return false }
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 128 {
                if asciiCovered[Int(v)] || v < 0x20 || v == 0x7F { continue }
                return false
            }
            if FcCharSetHasChar(coverage, v) != 0 || FontConfiguration.neverChoosesAFont(scalar) { continue }
            return false
        }
        return true
    }

    /// The characters Pango's itemizer does not choose a font for (`itemize_state_process_run`).
    private static func neverChoosesAFont(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        case .spaceSeparator: return scalar.value != 0x1680
        default: return scalar.properties.isVariationSelector
        }
    }

    /// The families a request for `requested` ranks first once the machine's rules have been
    /// applied to it: those it names with a strong (or "same") binding, up to the last of
    /// `requested` (fontconfig ranks fonts by the first such family they match, in this order).
    /// `all` is their union over ``languages`` (the fonts kept); `inEveryLanguage` those ranked
    /// first in every language (only their fonts' characters are ``covers(_:)``'s). A family bound
    /// strongly after the requested ones, or for one language only (Noto Sans CJK SC for Chinese
    /// on Debian, after Droid Sans Fallback), ranks after the machine's other fallbacks in some run,
    /// so its characters are not the report fonts' to give.
    private static func stronglyBoundFamilies(_ config: OpaquePointer, requesting requested: [String])
        -> (all: [String], inEveryLanguage: Set<String>) {
        var found: [String] = []
        var inEveryLanguage: Set<String>?
        for language in languages {
            var strong: [String] = []
            defer {
                let last = strong.lastIndex(where: requested.contains).map { $0 + 1 } ?? 0
                let first = Array(strong.prefix(last))
                for family in first where !found.contains(family) { found.append(family) }
                inEveryLanguage = inEveryLanguage.map { $0.intersection(first) } ?? Set(first)
            }
            guard let pattern = FcPatternCreate() else { continue }
            defer { FcPatternDestroy(pattern) }
            for family in requested { _ = FcPatternAddString(pattern, FC_FAMILY, family) }
            _ = FcPatternAddString(pattern, FC_LANG, language)
            guard FcConfigSubstitute(config, pattern, FcMatchPattern) != 0 else { continue }
            var iterator = FcPatternIter()
            guard FcPatternFindIter(pattern, &iterator, FC_FAMILY) != 0 else { continue }
            for i in 0..<FcPatternIterValueCount(pattern, &iterator) {
                var value = FcValue()
                var binding = FcValueBindingWeak
                guard FcPatternIterGetValue(pattern, &iterator, i, &value, &binding) == FcResultMatch,
                      binding != FcValueBindingWeak, value.type == FcTypeString, let s = value.u.s else { continue }
                let family = String(cString: s)
                if !strong.contains(family) { strong.append(family) }
            }
        }
        return (found, inEveryLanguage ?? [])
    }

    /// Every family name a font pattern gives (a font may have several, "DejaVu Sans" and
    /// "DejaVu Sans Condensed"); fontconfig matches a request's family against each.
    private static func familyNames(of font: OpaquePointer) -> [String] {
        var names: [String] = []
        var n: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(font, FC_FAMILY, n, &value) == FcResultMatch, let value {
            names.append(String(cString: value))
            n += 1
        }
        return names
    }

    /// A configuration fragment that keeps the fonts of `families` (names XML need not escape) and
    /// rejects every other font.
    private static func selection(keeping families: [String]) -> String {
        let accepted = families.map {
            "<pattern><patelt name=\"family\"><string>\($0)</string></patelt></pattern>"
        }.joined()
        return """
            <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
            <fontconfig><selectfont><acceptfont>\(accepted)</acceptfont>\
            <rejectfont><pattern/></rejectfont></selectfont></fontconfig>
            """
    }
}
