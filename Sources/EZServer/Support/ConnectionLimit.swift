import Metrics
import NIOCore
import Synchronization

/// The most connections the server keeps open at once; one more is closed as soon as it opens.
///
/// Every open connection holds ~25–30 KB of buffers and parser state whether or not it sends
/// anything: 15,000 idle connections, opened in seconds by anyone (`/healthz` needs no token),
/// took the server from 44 MB to 440 MB, past the deployment's `MemoryMax=400M`, and since the
/// server raises its open-file limit to the hard limit, memory ran out long before descriptors.
/// The app's backend reaches the server through a pool of a few dozen connections; the default,
/// 512, leaves it ample room and bounds what idle sockets can cost (~15 MB).
final class ConnectionLimit: Sendable {
    /// Connections allowed open at once.
    let limit: Int
    private let open = Atomic<Int>(0)
    private let refusedCount = Atomic<Int>(0)
    /// `ezreport_connections_refused_total` on `/metrics`.
    private let refusedMetric = Counter(label: "ezreport_connections_refused_total")

    init(limit: Int) { self.limit = limit }

    /// Connections closed at once because ``limit`` were already open, since the server started.
    var refused: Int { refusedCount.load(ordering: .relaxed) }

    /// The handler that counts one connection: it closes its connection when it opens beyond the limit.
    func handler() -> Handler { Handler(limit: self) }

    /// Counts its connection while it is in the pipeline; closes it on becoming active when the
    /// limit is already reached (the client sees the connection closed, and may retry).
    final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny
        private let limit: ConnectionLimit
        private var counted = false

        init(limit: ConnectionLimit) { self.limit = limit }

        /// Counts the connection; false when it is one too many (then it is being closed).
        private func admit(_ context: ChannelHandlerContext) -> Bool {
            guard !counted else { return true }
            counted = true
            guard limit.open.wrappingAdd(1, ordering: .relaxed).newValue > limit.limit else { return true }
            limit.refusedCount.wrappingAdd(1, ordering: .relaxed)
            limit.refusedMetric.increment()
            context.close(promise: nil)
            return false
        }

        func handlerAdded(context: ChannelHandlerContext) {
            // Added to a connection already active: counted now (else when it becomes active).
            if context.channel.isActive { _ = admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            if admit(context) { context.fireChannelActive() }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if counted {
                counted = false
                limit.open.wrappingSubtract(1, ordering: .relaxed)
            }
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            if counted {
                counted = false
                limit.open.wrappingSubtract(1, ordering: .relaxed)
            }
        }
    }
}
