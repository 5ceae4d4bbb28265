import CQPDF

/// Completes the tagged PDF Cairo writes, with what Cairo 1.16 (Debian 12) cannot write itself:
///
/// - the catalog's `/Lang` (the reader's language, so that a screen reader speaks it right) and
///   `/ViewerPreferences << /DisplayDocTitle true >>` (viewers show the title, not the file name);
/// - each `Figure` element's `/Alt`, the chart's data in words, in the order the charts were drawn;
/// - artifacts: Cairo 1.16 knows only the standard structure types, so page furniture (footers,
///   repeated table headers) is drawn in a `Private` element; here those elements leave the
///   structure tree and its parent tree, and their marked content becomes `/Artifact BMC`.
///
/// Done with qpdf's library (libqpdf) on the finished bytes; other streams are copied untouched.
///
/// qpdf holds every object of a document it rewrites, ~2 KB each, and each table cell was an
/// object: a statement of 100,000 transactions (600,000 elements) took 2.2 GB and four minutes
/// in this pass. Long documents therefore tag table rows coarsely (``rowLimit``), and a document
/// that still has more than ``elementLimit`` structure elements is left as Cairo wrote it
/// (tagged, its furniture in `Private` elements, without `/Lang`, `/Alt` and artifacts).
enum PDFAccessibility {
    /// The most structure elements a document may have for this pass to run (a few tens of MB in
    /// qpdf). Documents stay under it by tagging rows and cells only up to ``rowLimit``.
    static let elementLimit = 12_000
    /// The most table rows a document tags as `TR` elements of `TD`/`TH` cells (~6 elements a
    /// row), far more than a person's month or year. A longer document (a shop's 100,000 sales)
    /// keeps one `Table` element per table, its rows as that element's content in reading order:
    /// tagged, with `/Lang`, `/Alt` and artifacts, in bounded memory.
    static let rowLimit = 1_500

    /// The structure type page furniture is drawn in (see ``PDFTag/artifact``).
    static let furniture = "/" + PDFTag.artifact.rawValue

    /// The document with the additions above.
    ///
    /// `pdf` is consumed: qpdf reads its own copy, and Cairo's bytes are released before qpdf
    /// builds its objects and writes the result.
    /// The result is written as `output` says (``PDFOutput``).
    static func complete(_ pdf: consuming [UInt8], language: String, figureDescriptions: [String],
                         to output: PDFOutput = .bytes) throws(QPDFError) -> [UInt8] {
        let doc = try QPDFDocument(pdf, name: "the PDF Cairo wrote")   // the last use: `pdf` is released in there
        let root = doc.root
        doc.set(root, "/Lang", doc.text(language))
        let preferences = doc.dictionary()
        doc.set(preferences, "/DisplayDocTitle", doc.bool(true))
        doc.set(root, "/ViewerPreferences", preferences)
        if let tree = doc.key(root, "/StructTreeRoot") {
            var figures = figureDescriptions[...]
            var unlinked = Set<Int32>()
            walk(tree, doc, figures: &figures, unlinked: &unlinked)
            if let parents = doc.key(tree, "/ParentTree") { clearFurniture(inNumberTree: parents, doc, unlinked: unlinked) }
            try markFurnitureAsArtifacts(doc)
        }
        return try doc.write("completing the tagged PDF", to: output)
    }

    static func isFurniture(_ oh: qpdf_oh, _ doc: QPDFDocument) -> Bool {
        structureType(oh, doc) == furniture
    }

    /// The `/S` of a structure element (`/Table`, `/Private`, …), or nil for anything else (a
    /// marked-content reference, an MCID).
    static func structureType(_ oh: qpdf_oh, _ doc: QPDFDocument) -> String? {
        guard doc.isDictionary(oh), let s = doc.key(oh, "/S") else { return nil }
        defer { doc.release(s) }
        return doc.nameText(s)
    }

    /// Element types whose subtrees hold a table's rows and cells only. A row is never split by a
    /// page break, so no footer or repeated header (furniture) and no chart (`Figure`) is ever
    /// inside one: ``walk(_:_:figures:unlinked:)`` does not descend into them. They are most of a
    /// statement's elements (six or more per transaction), and each visit is several qpdf calls.
    static let rowsAndCells: Set<String> = ["/TR", "/TD", "/TH", "/THead", "/TBody", "/TFoot"]

    /// Visits structure elements in document order: figures get their text, furniture is unlinked
    /// (and its object number added to `unlinked`).
    static func walk(_ element: qpdf_oh, _ doc: QPDFDocument, figures: inout ArraySlice<String>, unlinked: inout Set<Int32>) {
        walk(element, type: structureType(element, doc), doc, figures: &figures, unlinked: &unlinked)
    }

    private static func walk(_ element: qpdf_oh, type: String?, _ doc: QPDFDocument, figures: inout ArraySlice<String>,
                             unlinked: inout Set<Int32>) {
        if type == "/Figure", let alt = figures.popFirst() {
            doc.set(element, "/Alt", doc.text(alt))
        }
        if let type, rowsAndCells.contains(type) { return }
        guard let kids = doc.key(element, "/K") else { return }
        defer { doc.release(kids) }
        if doc.isArray(kids) {
            let items = doc.items(kids)
            defer { doc.release(items) }
            let types = items.map { structureType($0, doc) }
            if types.contains(furniture) {
                // The kept kids go into one new array: erasing them one by one made qpdf rebuild a
                // long array on every erase: 13 s for the ~9,000 furniture elements of a
                // 2,228-page statement.
                var kept: [qpdf_oh] = []
                kept.reserveCapacity(items.count)
                for (item, kidType) in zip(items, types) {
                    if kidType == furniture { unlinked.insert(doc.objectID(item)) } else { kept.append(item) }
                }
                let array = doc.array(kept)
                doc.set(element, "/K", array)
                doc.release(array)
            }
            for (kid, kidType) in zip(items, types) where kidType != nil && kidType != furniture {
                walk(kid, type: kidType, doc, figures: &figures, unlinked: &unlinked)
            }
        } else if let kidType = structureType(kids, doc) {
            if kidType == furniture {
                unlinked.insert(doc.objectID(kids))
                doc.removeKey(element, "/K")
            } else {
                walk(kids, type: kidType, doc, figures: &figures, unlinked: &unlinked)
            }
        }
    }

    /// Replaces the parent tree's references to furniture elements with null. The parent tree
    /// names an element for every marked content of every page, so its items are matched by
    /// object number against the elements ``walk(_:_:figures:unlinked:)`` unlinked (one qpdf
    /// call each); an item that is not an indirect object is looked at itself.
    static func clearFurniture(inNumberTree node: qpdf_oh, _ doc: QPDFDocument, unlinked: Set<Int32>) {
        if let nums = doc.key(node, "/Nums") {
            defer { doc.release(nums) }
            for value in doc.isArray(nums) ? doc.items(nums) : [] {
                defer { doc.release(value) }
                guard doc.isArray(value) else { continue }
                for (i, item) in doc.items(value).enumerated() {
                    defer { doc.release(item) }
                    let id = doc.objectID(item)
                    if id == 0 ? isFurniture(item, doc) : unlinked.contains(id) {
                        let null = doc.null()
                        doc.setItem(value, i, null)
                        doc.release(null)
                    }
                }
            }
        }
        if let kids = doc.key(node, "/Kids") {
            defer { doc.release(kids) }
            for kid in doc.isArray(kids) ? doc.items(kids) : [] {
                clearFurniture(inNumberTree: kid, doc, unlinked: unlinked)
                doc.release(kid)
            }
        }
    }

    /// In every page's content, `/Private << /MCID n >> BDC` becomes `/Artifact BMC`.
    static func markFurnitureAsArtifacts(_ doc: QPDFDocument) throws(QPDFError) {
        // Each page's handles are released once it is done (see ``QPDFDocument/release(_:)-(qpdf_oh...)``).
        for page in doc.pages {
            defer { doc.release(page) }
            guard let contents = doc.key(page, "/Contents") else { continue }
            defer { doc.release(contents) }
            let isArray = doc.isArray(contents)
            let streams = isArray ? doc.items(contents) : [contents]
            defer { if isArray { doc.release(streams) } }
            for stream in streams {
                let data = try doc.streamData(stream)
                if let rewritten = artifactMarked(data) { try doc.replaceStreamData(stream, rewritten) }
            }
        }
    }

    /// `content` with each furniture marked-content opening replaced, or nil when it has none.
    static func artifactMarked(_ content: [UInt8]) -> [UInt8]? {
        let open = Array("\(furniture) << /MCID ".utf8), close = Array(" >> BDC".utf8), artifact = Array("/Artifact BMC".utf8)
        var out: [UInt8] = []
        var i = 0, changed = false
        while i < content.count {
            if content[i] == open[0], content.count - i >= open.count, content[i..<i + open.count].elementsEqual(open) {
                var j = i + open.count
                while j < content.count, (48...57).contains(content[j]) { j += 1 }
                if j > i + open.count, content.count - j >= close.count, content[j..<j + close.count].elementsEqual(close) {
                    out += artifact
                    i = j + close.count
                    changed = true
                    continue
                }
            }
            out.append(content[i])
            i += 1
        }
        return changed ? out : nil
    }
}
