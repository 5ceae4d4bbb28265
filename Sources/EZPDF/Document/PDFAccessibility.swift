import CQPDF
import Glibc

/// Completes the tagged PDF Cairo writes, with what Cairo 1.16 (Debian 12) cannot write itself:
///
/// - the catalog's `/Lang` (the reader's language, so that a screen reader speaks it right) and
///   `/ViewerPreferences << /DisplayDocTitle true >>` (viewers show the title, not the file name);
/// - each `Figure` element's `/Alt`, the chart's data in words, in the order the charts were drawn;
/// - artifacts: Cairo 1.16 knows only the standard structure types, so page furniture (footers,
///   repeated table headers) is drawn in a `Private` element; here those elements leave the
///   structure tree and its parent tree, and their marked content becomes `/Artifact BMC`.
///
/// Done with qpdf's library (libqpdf) on the finished bytes: qpdf reads and edits the objects
/// named above, and every other object is copied as Cairo wrote it (``PDFObjectSplicer``), not
/// parsed; other streams are never decoded.
///
/// When qpdf wrote the whole document, it held every object, ~2 KB each, and each table cell was
/// an object: a statement of 100,000 transactions (600,000 elements) took 2.2 GB and four minutes
/// in this pass. qpdf still writes a document whose layout cannot be read (see
/// ``PDFObjectLayout``). Long documents therefore tag table rows coarsely (``rowLimit``), and a document
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
    /// The result is written as `output` says (``PDFOutput``): when the document's layout can be
    /// read (always, for Cairo's), the objects changed here are written from qpdf's text of them
    /// and every other object is copied as it is (``PDFObjectSplicer``); otherwise, or when
    /// `splicing` is false (for tests), qpdf writes it.
    static func complete(_ pdf: consuming [UInt8], language: String, figureDescriptions: [String],
                         to output: PDFOutput = .bytes, splicing: Bool = true) throws -> [UInt8] {
        let doc = try QPDFDocument(pdf, name: "the PDF Cairo wrote")   // the last use: `pdf` is released in there
        var edits = Edits()
        let root = doc.root
        doc.set(root, "/Lang", doc.text(language))
        let preferences = doc.dictionary()
        doc.set(preferences, "/DisplayDocTitle", doc.bool(true))
        doc.set(root, "/ViewerPreferences", preferences)
        edits.changed(doc.objectID(root))
        if let tree = doc.key(root, "/StructTreeRoot") {
            var figures = figureDescriptions[...]
            var unlinked = Set<Int32>()
            walk(tree, doc, owner: doc.objectID(tree), figures: &figures, unlinked: &unlinked, edits: &edits)
            if let parents = doc.key(tree, "/ParentTree") {
                clearFurniture(inNumberTree: parents, doc, owner: doc.objectID(tree), unlinked: unlinked, edits: &edits)
            }
            try markFurnitureAsArtifacts(doc, edits: &edits)
        }
        if splicing, !edits.unowned, let written = try doc.withInput({ input throws(PDFOutputError) -> [UInt8]? in
            guard let layout = PDFObjectLayout(input) else { return nil }
            return try splice(doc, layout: layout, edits: edits, input: input, to: output)
        }) {
            return written
        }
        for content in edits.contents {
            let stream = doc.object(content.number)
            doc.replaceStreamData(stream, compressed: content.data)
            doc.release(stream)
        }
        return try doc.write("completing the tagged PDF", to: output)
    }

    /// What this pass changed, for ``PDFObjectSplicer``: the indirect objects to write again (an
    /// edit inside a direct object changes the indirect object holding it), the objects nothing
    /// refers to any more, and the pages' rewritten content.
    struct Edits {
        /// Indirect objects (by number) whose edited text replaces theirs.
        private(set) var changedObjects: Set<Int32> = []
        /// Objects no longer referred to: unlinked furniture elements, replaced streams' lengths.
        var dropped: Set<Int32> = []
        /// Content streams (by number) with their new data, compressed.
        var contents: [(number: Int32, data: [UInt8])] = []
        /// Set when an edit was made in an object that is not inside any indirect object (which
        /// only qpdf's writer can write).
        private(set) var unowned = false

        mutating func changed(_ owner: Int32) {
            if owner == 0 { unowned = true } else { changedObjects.insert(owner) }
        }
    }

    /// Writes the edited document from its layout: each changed object from qpdf's text of it,
    /// each content stream from its new data, the dropped objects left out, the rest copied.
    private static func splice(_ doc: QPDFDocument, layout: PDFObjectLayout, edits: Edits,
                               input: UnsafeBufferPointer<UInt8>, to output: PDFOutput) throws(PDFOutputError) -> [UInt8] {
        var splicer = PDFObjectSplicer(layout: layout)
        splicer.dropped = edits.dropped
        for number in edits.changedObjects {
            let object = doc.object(number)
            splicer.replacements[number] = .object(doc.unparsed(object))
            doc.release(object)
        }
        let flate = doc.name("/FlateDecode")
        defer { doc.release(flate) }
        for content in edits.contents {
            let stream = doc.object(content.number)
            let dictionary = doc.streamDictionary(stream)
            let length = doc.integer(content.data.count)
            doc.set(dictionary, "/Length", length)
            doc.set(dictionary, "/Filter", flate)
            doc.removeKey(dictionary, "/DecodeParms")
            splicer.replacements[content.number] = .stream(dictionary: doc.unparsed(dictionary), data: content.data)
            doc.release(stream, dictionary, length)
        }
        return try splicer.write(from: input, to: output) { id in
            let trailer = doc.trailer, value = doc.binaryString(id)
            defer { doc.release(trailer, value) }
            doc.set(trailer, "/ID", doc.array([value, value]))
            return doc.unparsed(trailer)
        }
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
    /// (and its object number added to `unlinked`). `owner` is the indirect object holding
    /// `element` when it is direct itself.
    static func walk(_ element: qpdf_oh, _ doc: QPDFDocument, owner: Int32, figures: inout ArraySlice<String>,
                     unlinked: inout Set<Int32>, edits: inout Edits) {
        walk(element, type: structureType(element, doc), doc, owner: owner, figures: &figures, unlinked: &unlinked, edits: &edits)
    }

    private static func walk(_ element: qpdf_oh, type: String?, _ doc: QPDFDocument, owner: Int32,
                             figures: inout ArraySlice<String>, unlinked: inout Set<Int32>, edits: inout Edits) {
        let id = doc.objectID(element), owner = id != 0 ? id : owner
        if type == "/Figure", let alt = figures.popFirst() {
            doc.set(element, "/Alt", doc.text(alt))
            edits.changed(owner)
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
                    if kidType == furniture { unlink(item, doc, unlinked: &unlinked, edits: &edits) } else { kept.append(item) }
                }
                let array = doc.array(kept)
                doc.set(element, "/K", array)
                doc.release(array)
                edits.changed(owner)
            }
            for (kid, kidType) in zip(items, types) where kidType != nil && kidType != furniture {
                walk(kid, type: kidType, doc, owner: owner, figures: &figures, unlinked: &unlinked, edits: &edits)
            }
        } else if let kidType = structureType(kids, doc) {
            if kidType == furniture {
                unlink(kids, doc, unlinked: &unlinked, edits: &edits)
                doc.removeKey(element, "/K")
                edits.changed(owner)
            } else {
                walk(kids, type: kidType, doc, owner: owner, figures: &figures, unlinked: &unlinked, edits: &edits)
            }
        }
    }

    /// Notes a furniture element taken out of the tree. It is left out of the document when it
    /// holds marked content only (an MCID or a list of them, as Cairo writes it): then nothing
    /// refers to it once the parent tree's entries are cleared.
    private static func unlink(_ element: qpdf_oh, _ doc: QPDFDocument, unlinked: inout Set<Int32>, edits: inout Edits) {
        let id = doc.objectID(element)
        unlinked.insert(id)
        guard id != 0, let kids = doc.key(element, "/K") else { return }
        defer { doc.release(kids) }
        let marksOnly: Bool
        if doc.isArray(kids) {
            let items = doc.items(kids)
            marksOnly = items.allSatisfy { doc.isInteger($0) }
            doc.release(items)
        } else {
            marksOnly = doc.isInteger(kids)
        }
        if marksOnly { edits.dropped.insert(id) }
    }

    /// Replaces the parent tree's references to furniture elements with null. The parent tree
    /// names an element for every marked content of every page, so its items are matched by
    /// object number against the elements ``walk(_:_:owner:figures:unlinked:edits:)`` unlinked
    /// (one qpdf call each); an item that is not an indirect object is looked at itself.
    static func clearFurniture(inNumberTree node: qpdf_oh, _ doc: QPDFDocument, owner: Int32, unlinked: Set<Int32>,
                               edits: inout Edits) {
        let id = doc.objectID(node), owner = id != 0 ? id : owner
        if let nums = doc.key(node, "/Nums") {
            defer { doc.release(nums) }
            let numsOwner = doc.objectID(nums) != 0 ? doc.objectID(nums) : owner
            for value in doc.isArray(nums) ? doc.items(nums) : [] {
                defer { doc.release(value) }
                guard doc.isArray(value) else { continue }
                let valueOwner = doc.objectID(value) != 0 ? doc.objectID(value) : numsOwner
                for (i, item) in doc.items(value).enumerated() {
                    defer { doc.release(item) }
                    let id = doc.objectID(item)
                    if id == 0 ? isFurniture(item, doc) : unlinked.contains(id) {
                        let null = doc.null()
                        doc.setItem(value, i, null)
                        doc.release(null)
                        edits.changed(valueOwner)
                    }
                }
            }
        }
        if let kids = doc.key(node, "/Kids") {
            defer { doc.release(kids) }
            for kid in doc.isArray(kids) ? doc.items(kids) : [] {
                clearFurniture(inNumberTree: kid, doc, owner: owner, unlinked: unlinked, edits: &edits)
                doc.release(kid)
            }
        }
    }

    /// In every page's content, `/Private << /MCID n >> BDC` becomes `/Artifact BMC`: each content
    /// stream that changes is added to `edits` with its new data, compressed, and the object
    /// holding its old `/Length` (Cairo writes lengths as objects of their own) is dropped.
    static func markFurnitureAsArtifacts(_ doc: QPDFDocument, edits: inout Edits) throws(QPDFError) {
        // Each page's handles are released once it is done (see ``QPDFDocument/release(_:)-(qpdf_oh...)``).
        for page in doc.pages {
            defer { doc.release(page) }
            guard let contents = doc.key(page, "/Contents") else { continue }
            defer { doc.release(contents) }
            let isArray = doc.isArray(contents)
            let streams = isArray ? doc.items(contents) : [contents]
            defer { if isArray { doc.release(streams) } }
            for stream in streams {
                guard let rewritten = try doc.withStreamData(stream, { data throws(QPDFError) in
                    try artifactMarked(data).map { marked throws(QPDFError) in try QPDFDocument.deflated(marked) }
                }) else { continue }
                edits.contents.append((doc.objectID(stream), rewritten))
                let dictionary = doc.streamDictionary(stream)
                if let length = doc.key(dictionary, "/Length") {
                    if doc.objectID(length) != 0 { edits.dropped.insert(doc.objectID(length)) }
                    doc.release(length)
                }
                doc.release(dictionary)
            }
        }
    }

    /// `content` with each furniture marked-content opening replaced, or nil when it has none.
    ///
    /// The openings are found with `memchr` and `memcmp`, and the bytes between them copied in one
    /// piece each: a statement's pages are ~85 KB of operators with a few dozen openings, and a
    /// byte-at-a-time copy was ~1 % of a served PDF's CPU.
    static func artifactMarked(_ content: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let base = content.baseAddress else { return nil }
        let open = Array("\(furniture) << /MCID ".utf8), close = Array(" >> BDC".utf8), artifact = Array("/Artifact BMC".utf8)
        var out: [UInt8] = []
        var copied = 0  // content[..<copied] is in `out` or replaced
        var from = 0    // where the next search starts
        while from < content.count {
            guard let hit = memchr(base + from, Int32(open[0]), content.count - from) else { break }
            let start = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            guard content.count - start >= open.count, memcmp(base + start, open, open.count) == 0 else {
                from = start + 1
                continue
            }
            var end = start + open.count
            while end < content.count, (48...57).contains(content[end]) { end += 1 }
            guard end > start + open.count, content.count - end >= close.count,
                  memcmp(base + end, close, close.count) == 0 else {
                from = start + 1
                continue
            }
            if out.isEmpty { out.reserveCapacity(content.count) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: content[copied..<start]))
            out += artifact
            copied = end + close.count
            from = copied
        }
        guard copied > 0 else { return nil }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: content[copied...]))
        return out
    }

    /// ``artifactMarked(_:)-(UnsafeBufferPointer<UInt8>)`` of an array.
    static func artifactMarked(_ content: [UInt8]) -> [UInt8]? {
        content.withUnsafeBufferPointer { artifactMarked($0) }
    }
}
