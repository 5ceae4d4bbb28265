import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The pixels of an opaque image surface, from a small process-wide pool of reused blocks.
///
/// A 1600 × 1000 chart needs 6.4 MB of pixels. A new Cairo image surface gets them zeroed from
/// `calloc`, and the chart then paints them white: two passes over memory, per chart, six charts
/// per statement. A block from the pool is painted once with the background instead (0.25 → 0.13
/// ms per chart, measured with Cairo directly; mapping a fresh block for each chart instead cost a
/// 1,000-user batch 16 s of system time in page faults). The pool keeps at most ``poolLimit``
/// blocks, so it holds no more than the charts being drawn at once need, and
/// ``releaseIdleBlocks()`` hands the idle ones back to the system when memory matters more (a
/// batch about to render a very large statement alone). Blocks are mapped from the system, not
/// taken from `malloc`, so that a released block is really returned (glibc would keep a freed
/// block this size in the thread's heap).
/// `@unchecked Sendable`: a block has one user at a time (a surface, or the pool under its lock).
final class PixelMemory: @unchecked Sendable {
    /// The first byte; never escapes ``CairoSurface``.
    let base: UnsafeMutableRawPointer
    let byteCount: Int

    private init?(byteCount: Int) {
        let p = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let p, p != MAP_FAILED else { return nil }
        base = p
        self.byteCount = byteCount
    }

    deinit { munmap(base, byteCount) }

    /// The most free blocks the pool keeps (a worker draws one chart at a time).
    static let poolLimit = 4
    private static let pool = Mutex<[PixelMemory]>([])

    /// A block of `byteCount` bytes with every 32-bit pixel set to `pixel`, reused when one of
    /// that size is free; nil when memory runs out.
    static func take(byteCount: Int, filledWith pixel: UInt32) -> PixelMemory? {
        let reused = pool.withLock { free -> PixelMemory? in
            guard let i = free.firstIndex(where: { $0.byteCount == byteCount }) else { return nil }
            return free.remove(at: i)
        }
        guard let block = reused ?? PixelMemory(byteCount: byteCount) else { return nil }
        block.base.initializeMemory(as: UInt32.self, repeating: pixel, count: byteCount / 4)
        return block
    }

    /// How many idle blocks the pool holds (for tests).
    static var idleBlockCount: Int { pool.withLock { $0.count } }

    /// Unmaps every idle block of the pool (blocks in use stay with their surfaces).
    static func releaseIdleBlocks() {
        let idle = pool.withLock { free in
            defer { free.removeAll() }
            return free
        }
        _ = consume idle   // unmapped here, outside the lock
    }

    /// Hands `block` back for the next surface (or frees it when the pool is full).
    static func giveBack(_ block: PixelMemory) {
        pool.withLock { free in
            if free.count < poolLimit { free.append(block) }
        }
    }
}
