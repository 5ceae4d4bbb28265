import XCTest
@testable import EZCore

final class LedgerTimeTests: XCTestCase {
    let rome = try! ZoneRules.named("Europe/Rome")!

    func testParsesEveryContractForm() {
        XCTAssertEqual(LedgerTime(parsing: "1970-01-01T00:00:01Z"), .instant(millis: 1_000))
        XCTAssertEqual(LedgerTime(parsing: "1970-01-01T00:00:01.5Z"), .instant(millis: 1_500))
        XCTAssertEqual(LedgerTime(parsing: "1970-01-01T00:00:01.123Z"), .instant(millis: 1_123))
        XCTAssertEqual(LedgerTime(parsing: "1970-01-01T01:00:00+01:00"), .instant(millis: 0))
        XCTAssertEqual(LedgerTime(parsing: "1969-12-31T19:00:00-05:00"), .instant(millis: 0))
        XCTAssertEqual(LedgerTime(parsing: "2026-10-31"), .date(CivilDate(iso: "2026-10-31")!))
    }

    func testMoreThanThreeFractionDigitsAreTruncatedNotACrash() {
        XCTAssertEqual(LedgerTime(parsing: "1970-01-01T00:00:01.123456Z"), .instant(millis: 1_123))
    }

    func testRejectsMalformedTimestamps() {
        for bad in ["", "2026-10-31T", "2026-10-31T24:00:00Z", "2026-10-31T10:00:00", "2026-10-31T10:00:00+1:00",
                    "2026-10-31T10:00:00.Z", "2026-02-30", "2026-10-31T10:60:00Z", "2026-10-31T10:00:00Zjunk", "20261031"] {
            XCTAssertNil(LedgerTime(parsing: bad), bad)
        }
    }

    func testLateOctoberThirtyFirstUTCIsNovemberInRome() {
        XCTAssertEqual(LedgerTime(parsing: "2026-10-31T23:30:00Z")!.localDate(in: rome), CivilDate(iso: "2026-11-01")!)
        XCTAssertEqual(LedgerTime(parsing: "2026-10-31T23:30:00Z")!.localDate(in: .utc), CivilDate(iso: "2026-10-31")!)
    }

    func testBareDatesAreTheSameForEveryZone() {
        let t = LedgerTime(parsing: "2026-10-31")!
        XCTAssertEqual(t.localDate(in: rome), t.localDate(in: try! ZoneRules.named("Pacific/Auckland")!))
    }

    func testInstantsBeforeTheEpochLandOnTheRightDay() {
        XCTAssertEqual(LedgerTime(parsing: "1969-12-31T23:59:59.999Z")!.localDate(in: .utc), CivilDate(iso: "1969-12-31")!)
    }
}
