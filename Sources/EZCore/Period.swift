/// A reporting period: an inclusive range of local dates with a canonical name.
///
/// Accepted forms (see ``Period/parse(_:asOf:)``): a month `2026-10`, a quarter `2026-Q3`,
/// a year `2026`, an ISO week `2026-W05`, an inclusive range `2026-01-15..2026-03-31`, and the
/// presets `today`, `yesterday`, `this-week`, `last-week`, `this-month`, `last-month`,
/// `this-year`, `last-year`, relative to an as-of date. Weeks start on Monday.
///
/// A month may start on another day than the 1st (a user's payday, `users.month_start_day`):
/// a month is named by the month its last day falls in, so with day 25 `2026-10` is
/// 25 Sep … 24 Oct. A month period remembers how it was asked for (``MonthAnchor``), so that
/// ``startingMonths(onDay:)`` can move it to a user's month start: `2026-10` stays October,
/// `this-month` stays the month containing the as-of date.
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

    /// How a month period was asked for: what it means for a month that starts on another day.
    package enum MonthAnchor: Hashable, Sendable {
        /// A named month, `2026-10`: the month whose last day falls in that calendar month.
        case named(year: Int, month: Int)
        /// The month containing a date (`this-month`).
        case containing(CivilDate)
        /// The month before the one containing a date (`last-month`).
        case before(CivilDate)
    }

    /// The first day of a month a user may choose (`users.month_start_day`): 1…28, so that every
    /// month has the day.
    package static let monthStartDays = 1...28

    /// The kind of period.
    package let kind: Kind
    /// The first local date in the period.
    package let start: CivilDate
    /// The last local date in the period (inclusive).
    package let end: CivilDate

    /// For a month: how it was asked for (nil when built from bare dates: then it is the month
    /// named by its end). Not part of equality: two periods are equal when they cover the same days.
    package let anchor: MonthAnchor?

    /// Makes a period; `end` must not be before `start`.
    package init(kind: Kind, start: CivilDate, end: CivilDate, anchor: MonthAnchor? = nil) {
        precondition(start <= end, "period end before start")
        self.kind = kind
        self.start = start
        self.end = end
        self.anchor = kind == .month ? anchor : nil
    }

    package static func == (a: Period, b: Period) -> Bool { a.kind == b.kind && a.start == b.start && a.end == b.end }
    package func hash(into h: inout Hasher) { h.combine(kind); h.combine(start); h.combine(end) }

    // MARK: - Months

    /// The month named `year`-`month` for months starting on `startDay` (1…28): with 1 the
    /// calendar month, else from `startDay` of the month before to the day before `startDay`.
    package static func month(named year: Int, _ month: Int, startDay: Int = 1) -> Period {
        let first = CivilDate(year: year, month: month, day: 1)
        let day = clampedStartDay(startDay)
        let anchor = MonthAnchor.named(year: year, month: month)
        guard day > 1 else { return Period(kind: .month, start: first, end: first.endOfMonth, anchor: anchor) }
        let end = CivilDate(year: year, month: month, day: day - 1)
        return Period(kind: .month, start: first.adding(months: -1).adding(days: day - 1), end: end, anchor: anchor)
    }

    /// The month containing `date`, for months starting on `startDay` (1 by default: the calendar month).
    package static func month(containing date: CivilDate, startDay: Int = 1) -> Period {
        let d = date.components.day
        let day = clampedStartDay(startDay)
        // On or after the start day, the date is in the month that ends next calendar month.
        let named = day > 1 && d >= day ? date.startOfMonth.adding(months: 1) : date.startOfMonth
        let p = month(named: named.year, named.month, startDay: day)
        return Period(kind: .month, start: p.start, end: p.end, anchor: .containing(date))
    }

    /// The day this month starts on (1 for a calendar month and for other kinds of period).
    package var monthStartDay: Int { kind == .month ? start.components.day : 1 }

    /// The same request for a user whose months start on `day` (1…28; other values are taken as 1):
    /// `2026-10` stays the month named October, `this-month` the month containing its as-of date,
    /// `last-month` the one before it. Other kinds of period are returned as they are.
    package func startingMonths(onDay day: Int) -> Period {
        guard kind == .month else { return self }
        let d = Self.clampedStartDay(day)
        switch anchor {
        case .containing(let x): return .month(containing: x, startDay: d)
        case .before(let x):
            let p = Period.month(containing: x, startDay: d).previous
            return Period(kind: .month, start: p.start, end: p.end, anchor: .before(x))
        case .named(let y, let m): return .month(named: y, m, startDay: d)
        case nil: return .month(named: end.year, end.month, startDay: d)
        }
    }

    /// The same month by its name: `this-month` and `last-month` become the calendar month they
    /// resolve to (`2026-10`), which every user then gets from their own month start. A run over
    /// many users names one folder by its period, and each user's statement in it must be that
    /// named month: resolved from each user's payday instead, a user paid on the 28th would get,
    /// as of 28 March, the month ending 27 March (`2024-03`) in the folder `2024-02`. Other
    /// periods are returned as they are.
    package var named: Period {
        guard kind == .month else { return self }
        return Period(kind: .month, start: start, end: end, anchor: .named(year: end.year, month: end.month))
    }

    /// The latest day this period reaches for any month start day: a loader that reads through it
    /// has every row any user's version of the period needs.
    package var latestEndForAnyMonthStart: CivilDate {
        guard kind == .month else { return end }
        return Self.monthStartDays.map { startingMonths(onDay: $0).end }.max() ?? end
    }

    private static func clampedStartDay(_ day: Int) -> Int { monthStartDays.contains(day) ? day : 1 }

    /// Whether `date` falls inside the period.
    @inlinable
    package func contains(_ date: CivilDate) -> Bool { date >= start && date <= end }

    /// The number of days in the period.
    package var dayCount: Int { start.days(to: end) + 1 }

    /// The canonical name: `2025-10`, `2025-Q3`, `2025`, `2025-W05`, `2025-10-01` or `2025-01-15..2025-03-31`.
    /// A month is named by the month of its last day (a month from 25 Sep to 24 Oct is `2025-10`).
    package var name: String {
        let (y, m, _) = start.components
        switch kind {
        case .day: return start.description
        case .month: return CivilDate.pad(end.year, 4) + "-" + CivilDate.pad(end.month, 2)
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
        case .month: return Period.month(containing: start.adding(days: -1), startDay: monthStartDay)
        case .quarter: return Period(kind: .quarter, start: start.adding(months: -3), end: start.adding(days: -1))
        case .year: return Period(kind: .year, start: start.adding(months: -12), end: start.adding(days: -1))
        case .range: return Period(kind: .range, start: start.adding(days: -dayCount), end: start.adding(days: -1))
        }
    }

    /// The forms `parse` accepts, for error messages and help text.
    package static let acceptedForms =
        "YYYY-MM (2026-10), YYYY-Qn (2026-Q3), YYYY (2026), YYYY-Www (2026-W05), YYYY-MM-DD (a day), "
        + "YYYY-MM-DD..YYYY-MM-DD, today, yesterday, this-week, last-week, this-month, last-month, this-year, last-year"

    /// The years a report may be about: a statement also reads the 12 months before its period
    /// and the same period a year earlier, and every date must stay a real Gregorian date (year
    /// 1 on); 1900 leaves room for that, and 9998 for the periods a payday user's months spill into.
    package static let supportedYears = 1900...9998

    /// Whether `start...end` is at most 10 years long: it ends before `start`'s tenth
    /// anniversary (a 29 February's is 1 March in a year without one). The calendar, not a day
    /// count: `2017-01-01..2026-12-31` is ten years and `2017-01-01..2027-01-01` is not, though
    /// both are 3,652 days apart from ends that cross different numbers of leap days.
    package static func isAtMostTenYears(from start: CivilDate, to end: CivilDate) -> Bool {
        let (y, m, d) = start.components
        let sameDay = d <= CivilDate.daysIn(year: y + 10, month: m)
        let anniversary = sameDay ? CivilDate(year: y + 10, month: m, day: d) : CivilDate(year: y + 10, month: m + 1, day: 1)
        return end < anniversary
    }

    /// Whether `date` lies in ``supportedYears``.
    package static func isSupported(_ date: CivilDate) -> Bool { supportedYears.contains(date.year) }

    /// Parses a period, resolving presets against `asOf`; a period outside ``supportedYears``
    /// (`0001-01`, or `last-month` as of 0001-01-01) is refused.
    package static func parse(_ text: String, asOf: CivilDate) throws(PeriodError) -> Period {
        let period = try parseAnyYear(text, asOf: asOf)
        guard isSupported(period.start), isSupported(period.end) else {
            throw PeriodError(text: text, reason: "periods from \(supportedYears.lowerBound) to \(supportedYears.upperBound) only")
        }
        return period
    }

    private static func parseAnyYear(_ text: String, asOf: CivilDate) throws(PeriodError) -> Period {
        let t = text.trimmingASCIIWhitespace()
        switch t {
        case "today": return Period(kind: .day, start: asOf, end: asOf)
        case "yesterday": let d = asOf.adding(days: -1); return Period(kind: .day, start: d, end: d)
        case "this-week": let s = asOf.startOfISOWeek; return Period(kind: .week, start: s, end: s.adding(days: 6))
        case "last-week": let s = asOf.startOfISOWeek.adding(days: -7); return Period(kind: .week, start: s, end: s.adding(days: 6))
        case "this-month": return .month(containing: asOf)
        case "last-month":
            let p = Period.month(containing: asOf).previous
            return Period(kind: .month, start: p.start, end: p.end, anchor: .before(asOf))
        case "this-year": return year(asOf.year)
        case "last-year": return year(asOf.year - 1)
        default: break
        }
        let b = Array(t.utf8)
        // The standard library's search: Foundation's `range(of:)` traps on some text with a NUL (see TransactionFilter).
        if let r = t.firstRange(of: "..") {
            guard let s = CivilDate(iso: t[..<r.lowerBound]), let e = CivilDate(iso: t[r.upperBound...]) else {
                throw PeriodError(text: text, reason: "a range needs two dates YYYY-MM-DD..YYYY-MM-DD")
            }
            guard s <= e else { throw PeriodError(text: text, reason: "the range ends before it starts") }
            // The same bound as the server's from/to: a statement over 8,000 years took a render
            // slot for a minute and 1–2 GB, and no statement is about more than a decade.
            guard isAtMostTenYears(from: s, to: e) else { throw PeriodError(text: text, reason: "a range is at most 10 years") }
            return Period(kind: .range, start: s, end: e)
        }
        if b.count == 4, let y = CivilDate.digits(b, 0, 4), y >= 1 { return year(y) }
        if b.count == 7, b[4] == 0x2D, let y = CivilDate.digits(b, 0, 4), let m = CivilDate.digits(b, 5, 2) {
            guard (1...12).contains(m), y >= 1 else { throw PeriodError(text: text, reason: "month \(m) does not exist") }
            return .month(named: y, m)
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
