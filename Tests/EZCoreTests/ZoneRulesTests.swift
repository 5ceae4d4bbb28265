import XCTest
@testable import EZCore

final class ZoneRulesTests: XCTestCase {
    func seconds(_ s: String) -> Int64 {
        guard case .instant(let ms) = LedgerTime(parsing: s)! else { fatalError() }
        return ms / 1000
    }

    func testRomeChangesOffsetOnTheEuropeanDSTDays() {
        let rome = try! ZoneRules.named("Europe/Rome")!
        XCTAssertEqual(rome.offset(atUTCSeconds: seconds("2026-03-29T00:59:59Z")), 3_600)
        XCTAssertEqual(rome.offset(atUTCSeconds: seconds("2026-03-29T01:00:00Z")), 7_200)
        XCTAssertEqual(rome.offset(atUTCSeconds: seconds("2026-10-25T00:59:59Z")), 7_200)
        XCTAssertEqual(rome.offset(atUTCSeconds: seconds("2026-10-25T01:00:00Z")), 3_600)
    }

    func testNewYorkChangesOffsetOnTheAmericanDSTDays() {
        let ny = try! ZoneRules.named("America/New_York")!
        XCTAssertEqual(ny.offset(atUTCSeconds: seconds("2026-03-08T06:59:59Z")), -18_000)
        XCTAssertEqual(ny.offset(atUTCSeconds: seconds("2026-03-08T07:00:00Z")), -14_400)
        XCTAssertEqual(ny.offset(atUTCSeconds: seconds("2026-11-01T06:00:00Z")), -18_000)
        XCTAssertEqual(LedgerTime(parsing: "2026-11-01T04:30:00Z")!.localDate(in: ny), CivilDate(iso: "2026-11-01")!)
        XCTAssertEqual(LedgerTime(parsing: "2026-03-08T04:30:00Z")!.localDate(in: ny), CivilDate(iso: "2026-03-07")!)
    }

    func testZonesWithoutDSTAndUnknownZones() {
        XCTAssertEqual(try! ZoneRules.named("Asia/Tokyo")!.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), 32_400)
        XCTAssertEqual(try! ZoneRules.named("Asia/Kolkata")!.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), 19_800)
        XCTAssertEqual(ZoneRules.utc.offset(atUTCSeconds: 0), 0)
        XCTAssertNil(try! ZoneRules.named("Mars/Olympus"))
        XCTAssertNil(try! ZoneRules.named("CET-ish"))
    }

    /// IANA names without a slash (`GB`, `EST5EDT`, `Japan`, `CET`) are zones of the system's tz
    /// database too, and were quarantined as unknown, their users getting no statement.
    /// Foundation's abbreviations (`PST`), paths out of the database and its `posix/`/`right/`
    /// copies are not zones.
    func testEveryZoneOfTheSystemsDatabaseIsKnownAndNothingElse() {
        let london = try! ZoneRules.named("GB")
        XCTAssertEqual(london?.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), 3_600)
        XCTAssertEqual(london?.offset(atUTCSeconds: seconds("2026-12-01T00:00:00Z")), 0)
        XCTAssertEqual(try! ZoneRules.named("EST5EDT")?.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), -14_400)
        XCTAssertEqual(try! ZoneRules.named("Japan")?.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), 32_400)
        XCTAssertEqual(try! ZoneRules.named("CET")?.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), 7_200)
        XCTAssertEqual(try! ZoneRules.named("EST")?.offset(atUTCSeconds: seconds("2026-07-01T00:00:00Z")), -18_000)
        XCTAssertNotNil(try! ZoneRules.named("Asia/Calcutta"), "a link's old name")
        for notAZone in ["PST", "CEST", "right/Europe/Rome", "posix/Europe/Rome", "posixrules", "localtime", "Factory",
                         "../../etc/passwd", "Europe/../Europe/Rome", "/usr/share/zoneinfo/Europe/Rome", "Europe/Rome/",
                         "zone.tab", "Europe", ""] {
            XCTAssertNil(try! ZoneRules.named(notAZone), notAZone)
        }
    }

    /// Out of file descriptors, the tz database cannot be opened: that says nothing of the zone.
    /// It was taken for "no such zone", and valid users were quarantined for "unknown time zone
    /// 'Europe/Paris'" in a published manifest, their groups with them, and the zone was
    /// remembered as unknown for the rest of the process (outside scale test, `ulimit -n 14`).
    func testAZoneThatCannotBeReadForWantOfFileDescriptorsIsAnErrorNotAnUnknownZone() throws {
        let zone = "America/Argentina/Ushuaia"   // read by no other test: not cached yet
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        var starved = saved
        starved.rlim_cur = 3   // 0, 1 and 2 are open: every open(2) now fails with EMFILE
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &starved), 0)
        let result = Result { () throws(ZoneDatabaseError) -> ZoneRules? in try ZoneRules.named(zone) }
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &saved), 0)
        switch result {
        case .success(let rules): XCTFail("expected a ZoneDatabaseError, got \(String(describing: rules))")
        case .failure(let error):
            XCTAssertEqual(error, ZoneDatabaseError(identifier: zone, reason: String(cString: strerror(EMFILE))))
            XCTAssertEqual("\(error)", "cannot read time zone '\(zone)' from /usr/share/zoneinfo: Too many open files")
        }
        XCTAssertEqual(try ZoneRules.named(zone)?.identifier, zone, "the failure was not remembered as an unknown zone")
    }
}
