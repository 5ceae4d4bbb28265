import XCTest
@testable import EZLedger

/// The id table finds every id stored in it, whatever the ids' spread, and nothing else.
final class IdTableTests: XCTestCase {
    func testStoredIdsAreFoundAndOthersAreNot() {
        var table = IdTable<String?>()
        let ids: [Int64] = (0..<500).map { $0 * 7919 } + [Int64.min, Int64.max, -1, 1 << 40, (1 << 40) + 64]
        for id in ids { table.set(id, id % 3 == 0 ? nil : "v\(id)") }
        XCTAssertEqual(table.count, ids.count)
        for id in ids {
            XCTAssertEqual(table[id], .some(id % 3 == 0 ? nil : "v\(id)"), "id \(id)")
        }
        for id: Int64 in [1, 2, 7918, 7920, -2, Int64.min + 1] {
            XCTAssertTrue(table[id] == nil, "id \(id) was never stored")
        }
    }

    func testSettingAnIdAgainReplacesItsValue() {
        var table = IdTable<Int>()
        table.set(42, 1)
        table.set(42, 2)
        XCTAssertEqual(table[42], 2)
        XCTAssertEqual(table.count, 1)
    }
}
