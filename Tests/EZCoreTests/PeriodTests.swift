import XCTest
@testable import EZCore

final class PeriodTests: XCTestCase {
    let asOf = CivilDate(iso: "2026-11-04")!   // a Wednesday
    func d(_ s: String) -> CivilDate { CivilDate(iso: s)! }
    func p(_ s: String) throws -> Period { try Period.parse(s, asOf: asOf) }

    func testEveryExplicitForm() throws {
        XCTAssertEqual(try p("2026-10"), Period(kind: .month, start: d("2026-10-01"), end: d("2026-10-31")))
        XCTAssertEqual(try p("2026-Q3"), Period(kind: .quarter, start: d("2026-07-01"), end: d("2026-09-30")))
        XCTAssertEqual(try p("2026"), Period(kind: .year, start: d("2026-01-01"), end: d("2026-12-31")))
        XCTAssertEqual(try p("2026-W05"), Period(kind: .week, start: d("2026-01-26"), end: d("2026-02-01")))
        XCTAssertEqual(try p("2026-01-15..2026-03-31"), Period(kind: .range, start: d("2026-01-15"), end: d("2026-03-31")))
        XCTAssertEqual(try p(" 2028-02 ").end, d("2028-02-29"))
    }

    func testPresetsAreRelativeToTheAsOfDate() throws {
        XCTAssertEqual(try p("today").start, asOf)
        XCTAssertEqual(try p("yesterday").start, d("2026-11-03"))
        XCTAssertEqual(try p("this-week"), Period(kind: .week, start: d("2026-11-02"), end: d("2026-11-08")))
        XCTAssertEqual(try p("last-week"), Period(kind: .week, start: d("2026-10-26"), end: d("2026-11-01")))
        XCTAssertEqual(try p("this-month").name, "2026-11")
        XCTAssertEqual(try p("last-month").name, "2026-10")
        XCTAssertEqual(try p("this-year").name, "2026")
        XCTAssertEqual(try p("last-year").name, "2025")
        XCTAssertEqual(try Period.parse("last-month", asOf: d("2026-01-15")).name, "2025-12")
    }

    func testISOWeeksAroundNewYear() throws {
        XCTAssertEqual(try p("2026-W53"), Period(kind: .week, start: d("2026-12-28"), end: d("2027-01-03")))
        XCTAssertEqual(try p("2025-W01").start, d("2024-12-30"))
        XCTAssertThrowsError(try p("2025-W53"))
        XCTAssertThrowsError(try p("2026-W00"))
        XCTAssertEqual(try p("2026-W53").name, "2026-W53")
    }

    func testNamesAndPreviousPeriods() throws {
        XCTAssertEqual(try p("2026-03").previous.name, "2026-02")
        XCTAssertEqual(try p("2026-Q1").previous.name, "2025-Q4")
        XCTAssertEqual(try p("2026-W01").previous.name, "2025-W52")
        XCTAssertEqual(try p("2026-01-11..2026-01-20").previous, Period(kind: .range, start: d("2026-01-01"), end: d("2026-01-10")))
    }

    func testABadPeriodIsOneErrorListingTheAcceptedForms() {
        for bad in ["2026-13", "2026-Q5", "October", "2026-03-31..2026-01-01", "2026-02-30..2026-03-01", ""] {
            XCTAssertThrowsError(try p(bad), bad) { e in
                let text = (e as? PeriodError)?.description ?? ""
                XCTAssertTrue(text.hasPrefix("invalid period '\(bad)'"), text)
                XCTAssertTrue(text.hasSuffix("accepted: " + Period.acceptedForms), text)
                XCTAssertFalse(text.contains("\n"))
            }
        }
        XCTAssertTrue(Period.acceptedForms.contains("2026-W05"))
        XCTAssertTrue(Period.acceptedForms.contains("last-year"))
    }

    // MARK: - Months that start on payday

    func testAPaydayMonthIsNamedByTheMonthItEndsIn() throws {
        let october = try p("2026-10").startingMonths(onDay: 25)
        XCTAssertEqual(october, Period(kind: .month, start: d("2026-09-25"), end: d("2026-10-24")))
        XCTAssertEqual(october.name, "2026-10")
        XCTAssertEqual(october.monthStartDay, 25)
        XCTAssertEqual(october.previous, Period(kind: .month, start: d("2026-08-25"), end: d("2026-09-24")))
        XCTAssertEqual(october.previous.name, "2026-09")
        // January's month starts in December of the year before.
        XCTAssertEqual(try p("2026-01").startingMonths(onDay: 28), Period(kind: .month, start: d("2025-12-28"), end: d("2026-01-27")))
        // Day 1 is the calendar month.
        XCTAssertEqual(try p("2026-02").startingMonths(onDay: 1), Period(kind: .month, start: d("2026-02-01"), end: d("2026-02-28")))
    }

    func testPresetsFollowThePaydayAroundTheAsOfDate() throws {
        // 4 Nov, paid on the 25th: this month is 25 Oct … 24 Nov ("2026-11"), last month 25 Sep … 24 Oct.
        XCTAssertEqual(try p("this-month").startingMonths(onDay: 25), Period(kind: .month, start: d("2026-10-25"), end: d("2026-11-24")))
        XCTAssertEqual(try p("last-month").startingMonths(onDay: 25), Period(kind: .month, start: d("2026-09-25"), end: d("2026-10-24")))
        // On payday itself a new month has begun.
        let payday = try Period.parse("this-month", asOf: d("2026-11-25"))
        XCTAssertEqual(payday.name, "2026-11")
        XCTAssertEqual(payday.startingMonths(onDay: 25).name, "2026-12")
        XCTAssertEqual(try Period.parse("last-month", asOf: d("2026-11-25")).startingMonths(onDay: 25).name, "2026-11")
        // Resolving twice is resolving once, whatever the order of start days.
        XCTAssertEqual(try p("this-month").startingMonths(onDay: 10).startingMonths(onDay: 25), try p("this-month").startingMonths(onDay: 25))
    }

    func testOtherKindsOfPeriodStayCalendarOnes() throws {
        for text in ["2026-Q3", "2026", "2026-W05", "2026-01-15..2026-03-31", "today"] {
            XCTAssertEqual(try p(text).startingMonths(onDay: 25), try p(text), text)
        }
        XCTAssertEqual(try p("2026-10").startingMonths(onDay: 0), try p("2026-10"), "an impossible day is taken as 1")
    }

    func testTheLatestEndCoversEveryStartDay() throws {
        XCTAssertEqual(try p("2026-10").latestEndForAnyMonthStart, d("2026-10-31"))
        XCTAssertEqual(try Period.parse("this-month", asOf: d("2026-10-30")).latestEndForAnyMonthStart, d("2026-11-27"))
    }

    func testPaydayMonthBuckets() {
        XCTAssertEqual(BucketKind.month.start(of: d("2026-10-24"), monthStartDay: 25), d("2026-09-25"))
        XCTAssertEqual(BucketKind.month.start(of: d("2026-10-25"), monthStartDay: 25), d("2026-10-25"))
        XCTAssertEqual(BucketKind.month.start(of: d("2026-01-03"), monthStartDay: 10), d("2025-12-10"))
        XCTAssertEqual(BucketKind.month.starts(from: d("2026-09-25"), through: d("2026-12-24"), monthStartDay: 25),
                       [d("2026-09-25"), d("2026-10-25"), d("2026-11-25")])
    }

    // MARK: - The same period a year earlier

    func testAYearEarlierKeepsTheKindAndWholeMonths() throws {
        XCTAssertEqual(try p("2026-10").yearEarlier, Period(kind: .month, start: d("2025-10-01"), end: d("2025-10-31")))
        XCTAssertEqual(try p("2026-10").yearEarlier.name, "2025-10")
        XCTAssertEqual(try p("2026-Q3").yearEarlier, Period(kind: .quarter, start: d("2025-07-01"), end: d("2025-09-30")))
        XCTAssertEqual(try p("2026").yearEarlier, try p("2025"))
        // A whole February stays whole: 28 days against the 29 of a leap year, and back.
        XCTAssertEqual(try p("2029-02").yearEarlier.end, d("2028-02-29"))
        XCTAssertEqual(try p("2028-02").yearEarlier.end, d("2027-02-28"))
        XCTAssertEqual(try p("2028-02-29").yearEarlier, Period(kind: .day, start: d("2027-02-28"), end: d("2027-02-28")))
        XCTAssertEqual(try p("2026-01-15..2026-03-31").yearEarlier,
                       Period(kind: .range, start: d("2025-01-15"), end: d("2025-03-31")))
    }

    func testAWeekAYearEarlierIs52WeeksBackSoWeekdaysLineUp() throws {
        let week = try p("2026-W05")
        let before = week.yearEarlier
        XCTAssertEqual(before.kind, .week)
        XCTAssertEqual(before.start.days(to: week.start), 364)
        XCTAssertEqual(before.start.startOfISOWeek, before.start, "still starts on a Monday")
        XCTAssertEqual(before.dayCount, 7)
    }

    /// A month that starts on another day (a payday month) is compared with the same days a year
    /// earlier, from its own dates.
    func testAMonthStartingOnAnotherDayKeepsItsDaysAYearEarlier() {
        let payday = Period(kind: .month, start: d("2026-09-25"), end: d("2026-10-24"))
        XCTAssertEqual(payday.yearEarlier, Period(kind: .month, start: d("2025-09-25"), end: d("2025-10-24")))
        let overFebruary = Period(kind: .month, start: d("2028-02-25"), end: d("2028-03-24"))
        XCTAssertEqual(overFebruary.yearEarlier, Period(kind: .month, start: d("2027-02-25"), end: d("2027-03-24")))
    }
    /// A statement reads a year back from its period (the trend, the comparison): periods whose
    /// dates or look-back would leave the Gregorian calendar are refused with a reason, whatever
    /// form names them.
    func testPeriodsOutsideTheSupportedYearsAreRefused() throws {
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        for text in ["0001-01", "0001", "0001-Q1", "0001-01-01..0001-02-01", "9999-12", "1899-12"] {
            XCTAssertThrowsError(try Period.parse(text, asOf: asOf), text) { error in
                XCTAssertTrue("\(error)".contains("1900"), "\(error)")
            }
        }
        XCTAssertThrowsError(try Period.parse("last-month", asOf: CivilDate(year: 1, month: 1, day: 1)))
        XCTAssertThrowsError(try Period.parse("1900-01-01..9998-12-31", asOf: asOf)) { XCTAssertTrue("\($0)".contains("10 years")) }
        XCTAssertNoThrow(try Period.parse("2016-11-02..2026-10-31", asOf: asOf), "ten years is allowed")
        XCTAssertEqual(try Period.parse("1900-01", asOf: asOf).start, CivilDate(year: 1900, month: 1, day: 1))
        XCTAssertEqual(try Period.parse("9998-12", asOf: asOf).end, CivilDate(year: 9998, month: 12, day: 31))
    }

    /// "At most 10 years" is the calendar's: a range ends before its start's tenth anniversary,
    /// whatever leap days it crosses. Two ranges 3,652 days apart differ: one crosses three leap
    /// days and is exactly ten years, the other crosses two and is ten years and a day.
    func testTheTenYearLimitFollowsTheCalendar() throws {
        let asOf = CivilDate(year: 2026, month: 11, day: 1)
        for allowed in ["2016-01-01..2025-12-31", "2017-01-01..2026-12-31", "2016-02-29..2026-02-28",
                        "2015-03-01..2025-02-28", "2026-10-01..2026-10-31"] {
            XCTAssertNoThrow(try Period.parse(allowed, asOf: asOf), allowed)
        }
        for refused in ["2016-01-01..2026-01-01", "2017-01-01..2027-01-01", "2016-02-29..2026-03-01",
                        "2015-03-01..2025-03-01"] {
            XCTAssertThrowsError(try Period.parse(refused, asOf: asOf), refused) { error in
                XCTAssertTrue("\(error)".contains("at most 10 years"), "\(error)")
            }
        }
        let start = CivilDate(year: 2017, month: 1, day: 1)
        XCTAssertTrue(Period.isAtMostTenYears(from: start, to: CivilDate(year: 2026, month: 12, day: 31)))
        XCTAssertFalse(Period.isAtMostTenYears(from: start, to: CivilDate(year: 2027, month: 1, day: 1)))
    }
}
