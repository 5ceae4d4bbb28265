import EZCore

/// The filters of the app's statistics page, applied to a statement's transaction rows
/// (the rows of `transactions.csv`): categories, an amount range and a text search.
///
/// Dates are not part of the filter: the rows come from a statement over the requested
/// date range (in the user's time zone, both ends inclusive).
///
/// ```swift
/// let filter = TransactionFilter(categories: ["Food"], minCounted: 1250, maxCounted: nil, text: "pizza")
/// let rows = figures.transactions.filter(filter.matches)
/// ```
package struct TransactionFilter: Sendable, Hashable {
    /// Category names a row must have one of; empty: any category.
    package var categories: Set<String>
    /// The smallest absolute counted amount (report currency, minor units), inclusive.
    package var minCounted: Int64?
    /// The largest absolute counted amount (report currency, minor units), inclusive.
    package var maxCounted: Int64?
    /// A case-insensitive substring of the description (case folded fully: see
    /// ``caseFolded(_:)``); nil or empty: any description.
    package var text: String?

    private let loweredText: String?

    /// A filter; nil and empty values match everything.
    package init(categories: Set<String> = [], minCounted: Int64? = nil, maxCounted: Int64? = nil, text: String? = nil) {
        self.categories = categories
        self.minCounted = minCounted
        self.maxCounted = maxCounted
        self.text = text
        self.loweredText = text.flatMap { $0.isEmpty ? nil : Self.caseFolded($0) }
    }

    /// True when `row` passes every filter.
    package func matches(_ row: StatementRow) -> Bool {
        if !categories.isEmpty, !categories.contains(row.category) { return false }
        let magnitude = row.counted.magnitude
        if let minCounted, magnitude < minCounted.magnitude { return false }
        if let maxCounted, magnitude > maxCounted.magnitude { return false }
        // The standard library's search, by Character: Foundation's `contains`/`range(of:)` traps
        // ("String index is out of bounds") when the text ends in 'é' and the query is "é" and a NUL,
        // which any caller could send to the server.
        if let loweredText, Self.caseFolded(row.description).firstRange(of: loweredText) == nil { return false }
        return true
    }

    /// `text` with its case folded fully, so that a search finds a text whatever its case:
    /// `straße` and `STRASSE` both fold to `strasse`, `ﬁ` to `fi`, final `ς` to `σ` (lower-casing
    /// alone, one letter for one, found neither), capital `ẞ` to `ss`. Turkish `İ` folds to `i` (not `i` and a
    /// combining dot above, as Unicode's own folding has it), so that `istanbul` finds
    /// `İSTANBUL`.
    static func caseFolded(_ text: String) -> String {
        // ASCII keeps its length through case: lower-casing alone folds it, one allocation, not two
        // (run once per row of a filtered list).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        let folded = text.uppercased().lowercased()
        // Two leftovers of that round trip: capital ẞ lower-cases to ß (which ß itself does not
        // stay: it upper-cases to SS), and İ to i with a combining dot above.
        guard folded.unicodeScalars.contains(where: { $0 == "\u{DF}" || $0 == "\u{307}" }) else { return folded }
        var out = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in folded.unicodeScalars {
            defer { previous = scalar }
            if scalar == "\u{DF}" { out.append(contentsOf: "ss".unicodeScalars); continue }
            if scalar == "\u{307}", previous == "i" { continue }
            out.append(scalar)
        }
        return String(out)
    }

}
