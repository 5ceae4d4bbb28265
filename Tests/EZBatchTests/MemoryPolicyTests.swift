import EZBatch
import XCTest

/// The process-wide allocation policy the command line sets first thing.
final class MemoryPolicyTests: XCTestCase {
    func testGlibcAcceptsTheOneArenaSetting() {
        XCTAssertTrue(MemoryPolicy.useOneArena(), "mallopt(M_ARENA_MAX, 1) was refused")
    }
}
