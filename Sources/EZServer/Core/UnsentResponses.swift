import HummingbirdCore
import NIOCore
import Synchronization

/// The bytes of finished responses that their clients have not taken yet, and the limit on them.
///
/// A response is rendered whole before it is sent (its `ETag` is its SHA-256, in the head), so
/// until the client has read it, its bytes stay in memory; the render slot is freed when the
/// render ends, not when the bytes are sent. While the responses waiting for their readers hold
/// more than ``limit``, new renders are refused with 503 and `Retry-After`, so slow readers (or
/// clients that never read: ``SendTimeout`` drops them) cannot take the server's memory.
/// One response larger than the limit is still served when nothing else is waiting.
package final class UnsentResponses: Sendable {
    /// The bytes waiting responses may hold before new renders are refused.
    package let limit: Int
    private let held = Atomic<Int>(0)

    package init(limit: Int) { self.limit = limit }

    /// Bytes of finished responses not yet handed to the socket.
    package var bytes: Int { held.load(ordering: .relaxed) }

    /// Whether a new render may start: the waiting responses hold less than ``limit``.
    package var admitsRender: Bool { bytes < limit }

    /// A body for `bytes`, counted here until it has been written to `channel` (or dropped
    /// unsent). It is written in slices, the next one once the connection has passed most of the
    /// last to the socket, so a slow reader holds one copy of the response, not a second one
    /// queued in the connection's buffers.
    ///
    /// Nil when the responses already waiting would then hold more than ``limit``: the render
    /// that made `bytes` started while there was room, but renders admitted in one burst all end
    /// later (16 nine-megabyte workbooks for clients that never read held ~80 MB and took the
    /// process to 442 MB: outside scale test). The caller answers 503 instead, and the bytes are
    /// freed. A response alone is held whatever its size.
    package func body(_ bytes: [UInt8], channel: any Channel) -> ResponseBody? {
        guard reserve(bytes.count) else { return nil }
        let counted = Counted(bytes, in: self)
        return ResponseBody(contentLength: bytes.count) { writer in
            try await counted.write(to: &writer, channel: channel)
        }
    }

    /// Counts `count` more bytes as held, unless others are held already and the sum would pass
    /// ``limit``. (``Counted`` gives them back when its bytes are freed.)
    func reserve(_ count: Int) -> Bool {
        var now = held.load(ordering: .relaxed)
        while true {
            if now > 0, now + count > limit { return false }
            let (exchanged, original) = held.compareExchange(expected: now, desired: now + count, ordering: .relaxed)
            if exchanged { return true }
            now = original
        }
    }

    /// Gives back `count` bytes counted by ``reserve(_:)``.
    func release(_ count: Int) { held.subtract(count, ordering: .relaxed) }

    /// The response's bytes, counted in ``held`` (by ``reserve(_:)``) for as long as they live.
    private final class Counted: Sendable {
        let bytes: [UInt8]
        let owner: UnsentResponses
        /// The slice handed to the connection at a time.
        static let slice = 64 * 1024
        /// The most bytes the connection may buffer before the next slice is handed to it. (The
        /// framework's writer does not wait for the connection to drain: without this, the whole
        /// response was queued at once and held there however slowly its client read.)
        static let buffered = 2 * slice

        init(_ bytes: [UInt8], in owner: UnsentResponses) {
            self.bytes = bytes
            self.owner = owner
        }

        deinit { owner.release(bytes.count) }

        func write(to writer: inout any ResponseBodyWriter, channel: any Channel) async throws {
            var start = 0
            while start < bytes.count {
                while try await channel.getOption(.bufferedWritableBytes).get() > Self.buffered {
                    // Closed (the client left, or ``SendTimeout`` dropped it): nothing more to send.
                    guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
                    try await Task.sleep(for: .milliseconds(10))
                }
                let end = min(bytes.count, start + Self.slice)
                try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
                start = end
            }
            try await writer.finish(nil)
        }
    }
}
