import HTTPTypes
import Metrics
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The most connections the server keeps open at once. At the limit, a new connection takes the
/// place of the connection idle the longest (one with no request being answered: between
/// requests, before its first, or trickling a request's head); only when every connection is
/// answering a request is the new one closed as it opens.
///
/// Every open connection holds ~25–30 KB of buffers and parser state whether or not it sends
/// anything: 15,000 idle connections, opened in seconds by anyone (`/healthz` needs no token),
/// took the server from 44 MB to 440 MB, past the deployment's `MemoryMax=400M`, and since the
/// server raises its open-file limit to the hard limit, memory ran out long before descriptors.
/// The app's backend reaches the server through a pool of a few dozen connections; the default,
/// 512, leaves it ample room and bounds what idle sockets can cost (~15 MB).
///
/// A limit that refused every new connection let one client with 512 silent sockets (one request
/// every 50 s each kept them from the idle time-out) shut everyone out, `/healthz` and `/readyz`
/// included, for as long as it liked (outside server test): an idle connection costs its client
/// nothing to reopen, and a waiting one, the probes' and the app's, must come first. A client
/// whose keep-alive connection is taken sees it closed, as after the idle time-out, and reconnects.
final class ConnectionLimit: Sendable {
    /// Connections allowed open at once.
    let limit: Int
    private let open = Atomic<Int>(0)
    private let refusedCount = Atomic<Int>(0)
    private let evictedCount = Atomic<Int>(0)
    /// `ezreport_connections_refused_total` on `/metrics`.
    private let refusedMetric = Counter(label: "ezreport_connections_refused_total")
    /// `ezreport_connections_evicted_total` on `/metrics`.
    private let evictedMetric = Counter(label: "ezreport_connections_evicted_total")
    /// The open connections that are answering no request, with when each became idle.
    private let idle = Mutex<[ObjectIdentifier: IdleConnection]>([:])

    private struct IdleConnection {
        let channel: any Channel
        let since: NIODeadline
    }

    init(limit: Int) { self.limit = limit }

    /// Connections closed at once because ``limit`` were open and none was idle, since the server started.
    var refused: Int { refusedCount.load(ordering: .relaxed) }

    /// Idle connections closed to make room for a new one, since the server started.
    var evicted: Int { evictedCount.load(ordering: .relaxed) }

    /// The handler that counts one connection: it closes its connection when it opens beyond the
    /// limit with no idle connection to take the place of.
    func handler() -> Handler { Handler(limit: self) }

    private func markIdle(_ channel: any Channel) {
        idle.withLock { $0[ObjectIdentifier(channel)] = IdleConnection(channel: channel, since: .now()) }
    }

    private func markBusy(_ channel: any Channel) {
        _ = idle.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Closes the connection idle the longest; false when none is idle.
    private func evictLongestIdle() -> Bool {
        let victim: (any Channel)? = idle.withLock { idle in
            guard let oldest = idle.min(by: { $0.value.since < $1.value.since }) else { return nil }
            idle.removeValue(forKey: oldest.key)
            return oldest.value.channel
        }
        guard let victim else { return false }
        evictedCount.wrappingAdd(1, ordering: .relaxed)
        evictedMetric.increment()
        victim.close(promise: nil)
        return true
    }

    /// Counts its connection while it is in the pipeline and knows whether it is answering a
    /// request (from a request's head to its response's end); on becoming active at the limit,
    /// takes the place of the longest-idle connection, or closes its own when there is none.
    final class Handler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart
        private let limit: ConnectionLimit
        private var counted = false

        init(limit: ConnectionLimit) { self.limit = limit }

        /// Counts the connection; false when it is one too many and no idle one made room (then
        /// it is being closed).
        private func admit(_ context: ChannelHandlerContext) -> Bool {
            guard !counted else { return true }
            counted = true
            if limit.open.wrappingAdd(1, ordering: .relaxed).newValue > limit.limit, !limit.evictLongestIdle() {
                limit.refusedCount.wrappingAdd(1, ordering: .relaxed)
                limit.refusedMetric.increment()
                context.close(promise: nil)
                return false
            }
            // Made idle after the eviction, so that a new connection never takes its own place.
            limit.markIdle(context.channel)
            return true
        }

        func handlerAdded(context: ChannelHandlerContext) {
            // Added to a connection already active: counted now (else when it becomes active).
            if context.channel.isActive { _ = admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            if admit(context) { context.fireChannelActive() }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) { limit.markBusy(context.channel) }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) { limit.markIdle(context.channel) }
            context.write(data, promise: promise)
        }

        func channelInactive(context: ChannelHandlerContext) {
            release(context)
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            release(context)
        }

        private func release(_ context: ChannelHandlerContext) {
            guard counted else { return }
            counted = false
            limit.markBusy(context.channel)
            limit.open.wrappingSubtract(1, ordering: .relaxed)
        }
    }
}
