import NIOCore
import NIOHTTPTypes

/// Closes a connection whose response has stopped moving: bytes are waiting to be sent and none
/// has reached the socket for ``timeout``.
///
/// Hummingbird's idle timeout covers a connection that sends the server nothing (between
/// requests, or stalled in a request's head); it does not cover a client that asked for a file
/// and then reads it slowly or not at all. Such a response is held in memory until it is read,
/// so many of them (18 MB transaction exports asked for by clients that never read) took the
/// server to 600–880 MB. With this handler, a reader that takes nothing for ``timeout`` is
/// dropped and its response freed, as web servers do (nginx's `send_timeout`); a slow reader
/// that keeps taking bytes is served. ``UnsentResponses`` bounds what the readers still being
/// waited for may hold meanwhile.
///
/// It only watches: writes pass through untouched, and a few times per timeout it compares the
/// body bytes handed down with what the connection still buffers.
final class SendTimeout: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long waiting bytes may go without any of them reaching the socket.
    private let timeout: TimeAmount
    /// Body bytes written to the connection so far.
    private var written = 0
    /// The most bytes seen gone to the socket (written less still buffered) at a check.
    private var sent = 0
    /// When the last check saw bytes go, or nothing waiting.
    private var lastProgress = NIODeadline.now()
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount) { self.timeout = timeout }

    func handlerAdded(context: ChannelHandlerContext) { scheduleCheck(context) }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    /// The next look at the connection, a quarter of the timeout from now.
    private func scheduleCheck(_ context: ChannelHandlerContext) {
        let interval = TimeAmount.nanoseconds(max(TimeAmount.milliseconds(100).nanoseconds, timeout.nanoseconds / 4))
        check = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: interval) { [self] in
            check = nil
            if inspect(context) { scheduleCheck(context) }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .body(let buffer) = unwrapOutboundIn(data) { written += buffer.readableBytes }
        context.write(data, promise: promise)
    }

    /// Notes progress, or closes the connection when its waiting bytes have not moved for
    /// ``timeout``; false once it closed it.
    private func inspect(_ context: ChannelHandlerContext) -> Bool {
        let buffered = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
        let now = NIODeadline.now()
        let gone = written - buffered
        if buffered == 0 || gone > sent { lastProgress = now }
        sent = max(sent, gone)
        guard buffered > 0, now - lastProgress >= timeout else { return true }
        context.close(promise: nil)
        return false
    }
}
