/// The width of one step of a time series.
package enum BucketKind: String, Sendable, CaseIterable {
    case day, week, month, quarter, year

    /// The first date of the bucket that contains `date`.
    package func start(of date: CivilDate) -> CivilDate {
        switch self {
        case .day: return date
        case .week: return date.startOfISOWeek
        case .month: return date.startOfMonth
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
    package func starts(from: CivilDate, through: CivilDate) -> [CivilDate] {
        var out: [CivilDate] = []
        var s = start(of: from)
        while s <= through { out.append(s); s = next(after: s) }
        return out
    }
}
