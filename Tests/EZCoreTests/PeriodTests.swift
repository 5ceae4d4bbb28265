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
}
