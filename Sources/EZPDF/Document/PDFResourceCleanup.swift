/// Removes the repeated XObject names cairo 1.16 writes into a page's resources.
///
/// Each time a colour-emoji glyph (a bitmap) is drawn, cairo 1.16 appends `/x13 13 0 R` to the
/// page's `/XObject` dictionary even when the name is already there, so `qpdf --check` warns about
/// duplicated keys. The repeats always name the same object, so blanking them with spaces gives an
/// equivalent document; every other byte keeps its offset, so the cross-reference table stays valid.
enum PDFResourceCleanup {
    /// The dictionary's opening as cairo writes it in a resources object (never inside a stream).
    private static let marker = Array("\n   /XObject << ".utf8)

    /// Blanks repeated `/name n 0 R` entries of every `/XObject` resource dictionary, in place.
    /// - Complexity: O(n) in the document's size.
    static func removeDuplicateXObjectNames(_ pdf: inout [UInt8]) {
        var i = 0
        let n = pdf.count
        while let start = find(marker, in: pdf, from: i) {
            var p = start + marker.count
            // The dictionary ends at the first ">>" on the same line; give up on anything else.
            guard let close = endOfDictionary(pdf, from: p) else { i = p; continue }
            var seen: [ArraySlice<UInt8>] = []
            while p < close {
                // Entries look like "/x13 13 0 R " exactly.
                guard pdf[p] == UInt8(ascii: "/") else { p += 1; continue }
                let nameEnd = pdf[p..<close].firstIndex(of: UInt8(ascii: " ")) ?? close
                guard let r = pdf[nameEnd..<close].firstIndex(of: UInt8(ascii: "R")) else { break }
                let entryEnd = r + 1
                let name = pdf[p..<nameEnd]
                if seen.contains(name) {
                    for k in p..<entryEnd { pdf[k] = UInt8(ascii: " ") }
                } else {
                    seen.append(name)
                }
                p = entryEnd
            }
            i = min(close, n)
        }
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard needle.count <= hay.count, from <= hay.count - needle.count else { return nil }
        let first = needle[0]
        var i = from
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == first {
                var k = 1
                while k < needle.count && hay[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// The index of the ">>" closing the one-line dictionary body starting at `from`, or nil when a
    /// newline or a nested "<<" comes first.
    private static func endOfDictionary(_ pdf: [UInt8], from: Int) -> Int? {
        var i = from
        while i + 1 < pdf.count {
            let c = pdf[i]
            if c == UInt8(ascii: "\n") { return nil }
            if c == UInt8(ascii: "<") && pdf[i + 1] == UInt8(ascii: "<") { return nil }
            if c == UInt8(ascii: ">") && pdf[i + 1] == UInt8(ascii: ">") { return i }
            i += 1
        }
        return nil
    }
}
