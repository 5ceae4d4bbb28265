#if canImport(Glibc)
import Glibc
#endif

/// The pixels of an opaque image surface: a block mapped from the system for one surface,
/// painted once with its background, and unmapped when the surface is destroyed.
///
/// A 1600 × 1000 chart needs 6.4 MB of pixels. A new Cairo image surface gets them zeroed and
/// the chart then paints them white: two passes over memory. Here they are painted once with the
/// background instead. The block is mapped and unmapped directly rather than taken from `malloc`:
/// glibc keeps a freed block that size in the thread's heap, and a worker that had drawn a chart
/// then held 6.4 MB for the rest of the run. (An earlier pool of reused blocks saved 0.12 ms per
/// chart but held one or more idle blocks per worker: 14 MB of a `--jobs 2` batch's peak.)
/// `@unchecked Sendable`: a block has one user at a time, its surface.
final class PixelMemory: @unchecked Sendable {
    /// The first byte; never escapes ``CairoSurface``.
    let base: UnsafeMutableRawPointer
    let byteCount: Int

    /// A block of `byteCount` bytes with every 32-bit pixel set to `pixel`; nil when memory runs out.
    init?(byteCount: Int, filledWith pixel: UInt32) {
        let p = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let p, p != MAP_FAILED else { return nil }
        base = p
        self.byteCount = byteCount
        base.initializeMemory(as: UInt32.self, repeating: pixel, count: byteCount / 4)
    }

    deinit { munmap(base, byteCount) }
}
