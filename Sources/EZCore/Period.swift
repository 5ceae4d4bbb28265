/// A reporting period: an inclusive range of local dates with a canonical name.
///
/// Accepted forms (see ``Period/parse(_:asOf:)``): a month `2026-10`, a quarter `2026-Q3`,
/// a year `2026`, an ISO week `2026-W05`, an inclusive range `2026-01-15..2026-03-31`, and the
/// presets `today`, `yesterday`, `this-week`, `last-week`, `this-month`, `last-month`,
/// `this-year`, `last-year`, relative to an as-of date. Weeks start on Monday.
///
/// ```swift
/// let p = try Period.parse("last-month", asOf: CivilDate(year: 2025, month: 11, day: 1))
/// p.name   // "2025-10" — also the name of the batch's output folder
/// ```
package struct Period: Hashable, Sendable, CustomStringConvertible {
    /// The shape of a period, which decides its name and its "previous" period.
    package enum Kind: String, Sendable {
        case day, week, month, quarter, year, range
    }

    /// The kind of period.
    package let kind: Kind
    /// The first local date in the period.
    package let start: CivilDate
    /// The last local date in the period (inclusive).
    package let end: CivilDate

    /// Makes a period; `end` must not be before `start`.
    package init(kind: Kind, start: CivilDate, end: CivilDate) {
        precondition(start <= end, "period end before start")
        self.kind = kind
        self.start = start
        self.end = end
    }

    /// The calendar month containing `date`.
    package static func month(containing date: CivilDate) -> Period {
        Period(kind: .month, start: date.startOfMonth, end: date.endOfMonth)
    }

    /// Whether `date` falls inside the period.
    @inlinable
    package func contains(_ date: CivilDate) -> Bool { date >= start && date <= end }

    /// The number of days in the period.
    package var dayCount: Int { start.days(to: end) + 1 }

    /// The canonical name: `2025-10`, `2025-Q3`, `2025`, `2025-W05`, `2025-10-01` or `2025-01-15..2025-03-31`.
    package var name: String {
        let (y, m, _) = start.components
        switch kind {
        case .day: return start.description
        case .month: return CivilDate.pad(y, 4) + "-" + CivilDate.pad(m, 2)
        case .quarter: return CivilDate.pad(y, 4) + "-Q\((m - 1) / 3 + 1)"
        case .year: return CivilDate.pad(y, 4)
        case .week:
            let w = start.isoWeek
            return CivilDate.pad(w.year, 4) + "-W" + CivilDate.pad(w.week, 2)
        case .range: return "\(start)..\(end)"
        }
    }

    package var description: String { name }

    /// The period of the same kind just before this one (for a range, the same number of days before it).
    package var previous: Period {
        switch kind {
        case .day: return Period(kind: .day, start: start.adding(days: -1), end: start.adding(days: -1))
        case .week: return Period(kind: .week, start: start.adding(days: -7), end: start.adding(days: -1))
        case .month: return Period.month(containing: start.adding(days: -1))
        case .quarter: return Period(kind: .quarter, start: start.adding(months: -3), end: start.adding(days: -1))
        case .year: return Period(kind: .year, start: start.adding(months: -12), end: start.adding(days: -1))
        case .range: return Period(kind: .range, start: start.adding(days: -dayCount), end: start.adding(days: -1))
        }
    }

    /// The forms `parse` accepts, for error messages and help text.
    package static let acceptedForms =
        "YYYY-MM (2026-10), YYYY-Qn (2026-Q3), YYYY (2026), YYYY-Www (2026-W05), "
        + "YYYY-MM-DD..YYYY-MM-DD, today, yesterday, this-week, last-week, this-month, last-month, this-year, last-year"

    /// Parses a period, resolving presets against `asOf`.
    package static func parse(_ text: String, asOf: CivilDate) throws(PeriodError) -> Period {
        let t = text.trimmingASCIIWhitespace()
        switch t {
        case "today": return Period(kind: .day, start: asOf, end: asOf)
        case "yesterday": let d = asOf.adding(days: -1); return Period(kind: .day, start: d, end: d)
        case "this-week": let s = asOf.startOfISOWeek; return Period(kind: .week, start: s, end: s.adding(days: 6))
        case "last-week": let s = asOf.startOfISOWeek.adding(days: -7); return Period(kind: .week, start: s, end: s.adding(days: 6))
        case "this-month": return .month(containing: asOf)
        case "last-month": return .month(containing: asOf.startOfMonth.adding(days: -1))
        case "this-year": return year(asOf.year)
        case "last-year": return year(asOf.year - 1)
        default: break
        }
        let b = Array(t.utf8)
        if let r = t.range(of: "..") {
            guard let s = CivilDate(iso: t[..<r.lowerBound]), let e = CivilDate(iso: t[r.upperBound...]) else {
                throw PeriodError(text: text, reason: "a range needs two dates YYYY-MM-DD..YYYY-MM-DD")
            }
            guard s <= e else { throw PeriodError(text: text, reason: "the range ends before it starts") }
            return Period(kind: .range, start: s, end: e)
        }
        if b.count == 4, let y = CivilDate.digits(b, 0, 4), y >= 1 { return year(y) }
        if b.count == 7, b[4] == 0x2D, let y = CivilDate.digits(b, 0, 4), let m = CivilDate.digits(b, 5, 2) {
            guard (1...12).contains(m), y >= 1 else { throw PeriodError(text: text, reason: "month \(m) does not exist") }
            return .month(containing: CivilDate(year: y, month: m, day: 1))
        }
        if b.count == 7, b[4] == 0x2D, b[5] == 0x51, let y = CivilDate.digits(b, 0, 4), let q = CivilDate.digits(b, 6, 1) {
            guard (1...4).contains(q) else { throw PeriodError(text: text, reason: "quarter \(q) does not exist") }
            let s = CivilDate(year: y, month: (q - 1) * 3 + 1, day: 1)
            return Period(kind: .quarter, start: s, end: s.adding(months: 3).adding(days: -1))
        }
        if b.count == 8, b[4] == 0x2D, b[5] == 0x57, let y = CivilDate.digits(b, 0, 4), let w = CivilDate.digits(b, 6, 2) {
            let jan4 = CivilDate(year: y, month: 1, day: 4)
            let s = jan4.startOfISOWeek.adding(days: (w - 1) * 7)
            guard w >= 1, s.isoWeek.year == y, s.isoWeek.week == w else {
                throw PeriodError(text: text, reason: "\(y) has no ISO week \(w)")
            }
            return Period(kind: .week, start: s, end: s.adding(days: 6))
        }
        if b.count == 10, let d = CivilDate(iso: t) { return Period(kind: .day, start: d, end: d) }
        throw PeriodError(text: text, reason: nil)
    }

    /// The calendar year `y`.
    package static func year(_ y: Int) -> Period {
        Period(kind: .year, start: CivilDate(year: y, month: 1, day: 1), end: CivilDate(year: y, month: 12, day: 31))
    }
}

/// A period that could not be understood; its description lists the accepted forms.
package struct PeriodError: Error, Equatable, CustomStringConvertible {
    /// The text as given.
    package let text: String
    /// What is wrong, when more specific than "not a period".
    package let reason: String?
    package var description: String {
        "invalid period '\(text)'" + (reason.map { ": \($0)" } ?? "") + "; accepted: \(Period.acceptedForms)"
    }
}

extension StringProtocol {
    /// The string without leading and trailing ASCII spaces, tabs and newlines.
    package func trimmingASCIIWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
