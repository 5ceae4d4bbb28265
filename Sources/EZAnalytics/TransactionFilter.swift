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
    /// A case-insensitive substring of the description; nil or empty: any description.
    package var text: String?

    private let loweredText: String?

    /// A filter; nil and empty values match everything.
    package init(categories: Set<String> = [], minCounted: Int64? = nil, maxCounted: Int64? = nil, text: String? = nil) {
        self.categories = categories
        self.minCounted = minCounted
        self.maxCounted = maxCounted
        self.text = text
        self.loweredText = text.flatMap { $0.isEmpty ? nil : $0.lowercased() }
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
        if let loweredText, row.description.lowercased().firstRange(of: loweredText) == nil { return false }
        return true
    }
}
