import EZCore

/// Why a figure could not be computed, with the user, row and group it concerns.
///
/// Prints as one line, e.g.
/// `analytics failed for user #7, transaction #1234 (group #3): no exchange rate USD→EUR on or before 2026-10-01`.
package struct AnalyticsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The user whose report was being computed.
    package var userId: Int64
    /// The transaction (or budget or goal, see `reason`) being handled, when there is one.
    package var transactionId: Int64?
    /// The group, for a group expense or a group's figures.
    package var groupId: Int64?
    /// What went wrong.
    package var reason: String

    /// Makes an error for `userId` about `transactionId` (and `groupId`) with a one-line `reason`.
    package init(userId: Int64, transactionId: Int64? = nil, groupId: Int64? = nil, reason: String) {
        self.userId = userId; self.transactionId = transactionId; self.groupId = groupId; self.reason = reason
    }

    package var description: String {
        var s = "analytics failed for user #\(userId)"
        if let t = transactionId { s += ", transaction #\(t)" }
        if let g = groupId { s += " (group #\(g))" }
        return s + ": " + reason
    }
}

extension RateTable {
    /// `convert`, with a failure turned into an ``AnalyticsError`` naming the row.
    @inline(__always)
    func convert(_ minor: Int64, from: Currency, to: Currency, on day: CivilDate,
                 user: Int64, transaction: Int64?, group: Int64? = nil) throws(AnalyticsError) -> Int64 {
        if from == to { return minor }
        do {
            return try convert(minor, from: from, to: to, on: day)
        } catch {
            throw AnalyticsError(userId: user, transactionId: transaction, groupId: group, reason: error.description)
        }
    }
}

/// Overflow-checked multiplication that reports the user it concerns.
@inline(__always)
func checkedMultiply(_ a: Int64, _ b: Int64, user: Int64, transaction: Int64? = nil) throws(AnalyticsError) -> Int64 {
    let (r, o) = a.multipliedReportingOverflow(by: b)
    if o { throw AnalyticsError(userId: user, transactionId: transaction, reason: "money overflow in \(a) × \(b)") }
    return r
}

/// Overflow-checked addition that reports the user it concerns.
@inline(__always)
func checkedAdd(_ a: Int64, _ b: Int64, user: Int64, transaction: Int64? = nil) throws(AnalyticsError) -> Int64 {
    let (r, o) = a.addingReportingOverflow(b)
    if o { throw AnalyticsError(userId: user, transactionId: transaction, reason: "money overflow in \(a) + \(b)") }
    return r
}
