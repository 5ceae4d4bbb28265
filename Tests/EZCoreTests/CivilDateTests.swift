import XCTest
@testable import EZCore

final class CivilDateTests: XCTestCase {
    func d(_ s: String) -> CivilDate { CivilDate(iso: s)! }

    func testRoundTripsThroughDayNumbers() {
        XCTAssertEqual(d("1970-01-01").dayNumber, 0)
        XCTAssertEqual(d("2000-03-01").dayNumber, 11_017)
        XCTAssertEqual(CivilDate(dayNumber: -1).description, "1969-12-31")
        for n in stride(from: Int32(-800_000), through: 800_000, by: 997) {
            let c = CivilDate(dayNumber: n).components
            XCTAssertEqual(CivilDate(year: c.year, month: c.month, day: c.day).dayNumber, n)
        }
    }

    func testLeapDaysExistOnlyInLeapYears() {
        XCTAssertNotNil(CivilDate(iso: "2028-02-29"))
        XCTAssertNil(CivilDate(iso: "2026-02-29"))
        XCTAssertNil(CivilDate(iso: "2100-02-29"))
        XCTAssertNotNil(CivilDate(iso: "2000-02-29"))
        XCTAssertEqual(d("2028-02-28").adding(days: 1), d("2028-02-29"))
        XCTAssertEqual(d("2028-02-29").adding(months: 12), d("2029-02-28"))
        XCTAssertEqual(d("2026-01-31").adding(months: 1), d("2026-02-28"))
        XCTAssertEqual(d("2026-03-31").adding(months: -13), d("2025-02-28"))
    }

    func testISOWeeksAroundNewYear() {
        XCTAssertEqual(d("2026-01-01").isoWeek.year, 2026)           // Thursday: week 1
        XCTAssertEqual(d("2026-01-01").isoWeek.week, 1)
        XCTAssertEqual(d("2027-01-01").isoWeek.year, 2026)           // Friday: week 53 of 2026
        XCTAssertEqual(d("2027-01-01").isoWeek.week, 53)
        XCTAssertEqual(d("2024-12-30").isoWeek.year, 2025)           // Monday: week 1 of 2025
        XCTAssertEqual(d("2024-12-30").isoWeek.week, 1)
        XCTAssertEqual(d("2021-01-03").isoWeek.week, 53)             // Sunday: 2020-W53
        XCTAssertEqual(d("2021-01-04").isoWeek.week, 1)
        XCTAssertEqual(d("2026-01-01").startOfISOWeek, d("2025-12-29"))
        XCTAssertEqual(d("2026-10-25").isoWeekday, 7)
    }

    func testInvalidTextIsRejected() {
        XCTAssertNil(CivilDate(iso: "2026-13-01"))
        XCTAssertNil(CivilDate(iso: "2026-1-01"))
        XCTAssertNil(CivilDate(iso: "2026/01/01"))
        XCTAssertNil(CivilDate(iso: "2026-01-00"))
    }
}
