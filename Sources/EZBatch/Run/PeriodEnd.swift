import EZCore
import Foundation

/// When a user's period is over in their own time zone, so that a scheduled run made a little
/// after midnight UTC does not write (and `deliver` mail) a statement the user's last evening of
/// the month can still change.
///
/// A run at 02:00 UTC on 1 November is still 31 October 22:00 in New York and 15:00 in Pago Pago:
/// those users' October was not over, yet it was written and mailed, then written and mailed again
/// with other figures by the next run (outside operations test).
package struct PeriodEnd: Sendable {
    /// The instant the run started.
    package var runStarted: Date

    package init(runStarted: Date) { self.runStarted = runStarted }

    /// Why the user's statement must wait, or nil when it may be written now.
    ///
    /// It waits only when the run treats the period as over (the as-of date is after the user's
    /// last day of it, as `last-month` resolves it) and that as-of date is today or earlier in UTC
    /// (a run given a future as-of date is a rehearsal, not the scheduled run), while the instant the
    /// run started is before midnight ending that last day in the user's zone.
    package func wait(period: Period, asOf: CivilDate, zone identifier: String) -> String? {
        guard asOf > period.end, asOf <= Self.utcDay(of: runStarted), let zone = TimeZone(identifier: identifier) else { return nil }
        let ends = Self.start(of: period.end.adding(days: 1), in: zone)
        guard runStarted < ends else { return nil }
        return "held back: the period ends at \(Self.utcMinute(ends)) in the user's time zone (\(identifier)), "
            + "after this run began; a run after then writes this statement"
    }

    /// The instant `day` begins in `zone` (its first instant, should midnight not exist there).
    static func start(of day: CivilDate, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = day.components
        return calendar.date(from: DateComponents(year: c.year, month: c.month, day: c.day))
            ?? Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400)
    }

    static func utcDay(of instant: Date) -> CivilDate {
        CivilDate(dayNumber: Int32((instant.timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    /// `2026-11-01 04:00 UTC`.
    static func utcMinute(_ instant: Date) -> String {
        let seconds = Int64((instant.timeIntervalSince1970).rounded(.down))
        let day = utcDay(of: instant)
        let minute = Int((seconds - Int64(day.dayNumber) * 86_400) / 60)
        return "\(day) " + String(format: "%02d:%02d", minute / 60, minute % 60) + " UTC"
    }
}
