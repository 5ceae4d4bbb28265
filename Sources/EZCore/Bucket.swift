/// The width of one step of a time series.
///
/// Month buckets start on the 1st unless told otherwise: a user whose months start on payday
/// (`users.month_start_day`) has month buckets from that day to the day before it a month later.
package enum BucketKind: String, Sendable, CaseIterable {
    case day, week, month, quarter, year

    /// The first date of the bucket that contains `date`; month buckets start on `monthStartDay` (1…28).
    package func start(of date: CivilDate, monthStartDay: Int = 1) -> CivilDate {
        switch self {
        case .day: return date
        case .week: return date.startOfISOWeek
        case .month:
            let (y, m, d) = date.components
            guard monthStartDay > 1, monthStartDay <= 28 else { return date.startOfMonth }
            let thisMonth = CivilDate(year: y, month: m, day: monthStartDay)
            return d >= monthStartDay ? thisMonth : thisMonth.adding(months: -1)
        case .quarter:
            let (y, m, _) = date.components
            return CivilDate(year: y, month: (m - 1) / 3 * 3 + 1, day: 1)
        case .year: return CivilDate(year: date.year, month: 1, day: 1)
        }
    }

    /// The first date of the bucket after the one starting at `start`.
    package func next(after start: CivilDate) -> CivilDate {
        switch self {
        case .day: return start.adding(days: 1)
        case .week: return start.adding(days: 7)
        case .month: return start.adding(months: 1)
        case .quarter: return start.adding(months: 3)
        case .year: return start.adding(months: 12)
        }
    }

    /// The bucket starts from the one containing `from` up to the one containing `through`.
    package func starts(from: CivilDate, through: CivilDate, monthStartDay: Int = 1) -> [CivilDate] {
        var out: [CivilDate] = []
        var s = start(of: from, monthStartDay: monthStartDay)
        while s <= through { out.append(s); s = next(after: s) }
        return out
    }
}
