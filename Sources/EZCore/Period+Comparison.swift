/// The periods a statement compares itself with.
extension Period {
    /// The same period a year earlier, of the same kind.
    ///
    /// Every date moves back twelve months (52 weeks for a week, so that weekdays line up), and the
    /// end moves with the day after it: a period that ends on a month's last day still ends on that
    /// month's last day a year earlier (February 2029 against the whole of February 2028). The
    /// window is derived from this period's own dates, so a month that starts on another day
    /// (25 September … 24 October) compares with 25 September … 24 October of the year before.
    ///
    /// ```swift
    /// try Period.parse("2026-10", asOf: today).yearEarlier.name   // "2025-10"
    /// ```
    package var yearEarlier: Period {
        if kind == .week {
            return Period(kind: .week, start: start.adding(days: -364), end: end.adding(days: -364))
        }
        let s = start.adding(months: -12)
        let e = end.adding(days: 1).adding(months: -12).adding(days: -1)
        return Period(kind: kind, start: s, end: max(s, e))
    }
}
