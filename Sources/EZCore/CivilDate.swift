/// A calendar date with no time and no zone: the "local date" every figure is bucketed by.
///
/// Stored as days since 1970-01-01 so that comparison and arithmetic are integer operations.
/// Conversions use Howard Hinnant's civil-from-days algorithms (proleptic Gregorian).
///
/// ```swift
/// let d = CivilDate(year: 2026, month: 2, day: 28)
/// d.adding(days: 1)   // 2026-03-01
/// ```
package struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before it).
    package let dayNumber: Int32

    /// The date `dayNumber` days after 1970-01-01.
    @inlinable
    package init(dayNumber: Int32) { self.dayNumber = dayNumber }

    /// The given calendar date; `month` and `day` must be in range (see ``init(validYear:month:day:)``).
    package init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        self.dayNumber = Int32(era * 146097 + doe - 719468)
    }

    /// The given date, or nil when it does not exist (2026-02-30).
    package init?(validYear year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= CivilDate.daysIn(year: year, month: month) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`.
    package init?(iso text: some StringProtocol) {
        let b = Array(text.utf8)
        guard b.count == 10, let d = CivilDate.parse(b, 0) else { return nil }
        self = d
    }

    /// Parses `YYYY-MM-DD` given as UTF-8 bytes (a ledger column's text, read in place).
    package init?(iso b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 10, let d = CivilDate.parse(b, 0) else { return nil }
        self = d
    }

    /// (year, month, day) of this date.
    package var components: (year: Int, month: Int, day: Int) {
        let z = Int(dayNumber) + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }

    package var year: Int { components.year }
    package var month: Int { components.month }
    package var day: Int { components.day }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    package var isoWeekday: Int {
        let w = (Int(dayNumber) + 3) % 7  // 1970-01-01 was a Thursday (index 3 from Monday)
        return (w < 0 ? w + 7 : w) + 1
    }

    /// The date `days` later (earlier when negative).
    @inlinable
    package func adding(days: Int) -> CivilDate { CivilDate(dayNumber: dayNumber + Int32(days)) }

    /// The same day-of-month `months` later, clamped to the month's last day.
    package func adding(months: Int) -> CivilDate {
        let (y, m, d) = components
        let total = y * 12 + (m - 1) + months
        let ny = total >= 0 ? total / 12 : (total - 11) / 12
        let nm = total - ny * 12 + 1
        return CivilDate(year: ny, month: nm, day: min(d, CivilDate.daysIn(year: ny, month: nm)))
    }

    /// Days from `self` to `other` (positive when `other` is later).
    package func days(to other: CivilDate) -> Int { Int(other.dayNumber) - Int(dayNumber) }

    /// The first day of this date's month.
    package var startOfMonth: CivilDate { let c = components; return CivilDate(year: c.year, month: c.month, day: 1) }
    /// The last day of this date's month.
    package var endOfMonth: CivilDate {
        let c = components
        return CivilDate(year: c.year, month: c.month, day: CivilDate.daysIn(year: c.year, month: c.month))
    }
    /// The Monday of this date's ISO week.
    package var startOfISOWeek: CivilDate { adding(days: 1 - isoWeekday) }

    /// The ISO-8601 week-numbering year and week of this date.
    package var isoWeek: (year: Int, week: Int) {
        let thursday = adding(days: 4 - isoWeekday)
        let y = thursday.year
        let jan1 = CivilDate(year: y, month: 1, day: 1)
        return (y, jan1.days(to: thursday) / 7 + 1)
    }

    /// `YYYY-MM-DD`.
    package var description: String {
        let (y, m, d) = components
        return CivilDate.pad(y, 4) + "-" + CivilDate.pad(m, 2) + "-" + CivilDate.pad(d, 2)
    }

    @inlinable
    package static func < (a: CivilDate, b: CivilDate) -> Bool { a.dayNumber < b.dayNumber }

    /// Whether `year` is a Gregorian leap year.
    package static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// The number of days in a month.
    package static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        var s = String(v)
        while s.count < width { s = "0" + s }
        return s
    }

    /// Parses `YYYY-MM-DD` at `i` in `b` without allocating.
    @usableFromInline
    static func parse<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ i: Int) -> CivilDate? where Bytes.Index == Int {
        guard b.count >= i + 10, b[i + 4] == 0x2D, b[i + 7] == 0x2D,
              let y = digits(b, i, 4), let m = digits(b, i + 5, 2), let d = digits(b, i + 8, 2)
        else { return nil }
        return CivilDate(validYear: y, month: m, day: d)
    }

    @usableFromInline
    static func digits<Bytes: RandomAccessCollection<UInt8>>(_ b: Bytes, _ start: Int, _ count: Int) -> Int? where Bytes.Index == Int {
        var v = 0
        for k in start..<(start + count) {
            let c = b[k] &- 0x30
            guard c <= 9 else { return nil }
            v = v * 10 + Int(c)
        }
        return v
    }
}
