import Foundation
import HTTPTypes
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// What the HTTP layer does below the router, made to follow the API's rules: three answers,
/// and the request path's encoded unreserved characters decoded before routing (``UnreservedPath``).
///
/// - **A request the HTTP parser rejects** (an unknown method, a malformed request line, an
///   over-long header): Hummingbird answers a bare `400` with an empty body. It becomes an
///   RFC 9457 problem, like every other error (issue 14), and the connection still closes.
/// - **A missing, repeated or malformed `Host`** (RFC 9112, section 3.2): refused the same way by
///   ``HTTP1HeadRules``, which this handler installs before Hummingbird's conversion of the
///   request head; the problem's detail says what was wrong with the field. (The same handler
///   ends an HTTP/1.0 request's connection after its response unless it asked to keep it.)
/// - **`CONNECT`**: the parser switches the connection to a tunnel after it, so the router's
///   answer was sent without a length or body and the connection then hung. It is answered
///   here, before the router: `405` with `Allow: GET, HEAD` (the server proxies nothing), and
///   the connection is closed, which is what frames a response that may carry no body (NIO
///   writes none in answer to `CONNECT`).
final class HTTPHygieneHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Set once a `CONNECT` was refused: nothing more is read from the connection.
    private var refused = false
    /// Where a request refused here gets its line, as ``AccessLogMiddleware`` writes one for every
    /// request the router sees: the parser's and `CONNECT`'s refusals left no trace in the log or
    /// in `/metrics` (outside server test), so attack traffic was invisible.
    private let logger: Logger
    /// `ezreport_requests_refused_total` on `/metrics`.
    private static let refusedMetric = Counter(label: "ezreport_requests_refused_total")

    init(logger: Logger) {
        self.logger = logger
    }

    /// Logs and counts one request refused below the router.
    private func record(method: String, status: Int, reason: String) {
        Self.refusedMetric.increment()
        logger.info("request", metadata: [
            "method": "\(method)", "route": "refused", "status": "\(status)", "bytes": "0", "ms": "0.0", "user": "-",
            "reason": "\(reason)",
        ])
    }
    /// Why ``HTTP1HeadRules`` refused the connection's request, when it did.
    private var hostProblem: String?
    /// What the HTTP parser found wrong, when it said (``errorCaught(context:error:)``).
    private var parserProblem: String?

    /// Notes what the HTTP parser rejected, for the problem body: a 96 kB request line was
    /// answered "could not be read", where the API says a head over 80 kB is refused "saying
    /// which" (outside scale test).
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let parser = error as? HTTPParserError { parserProblem = Self.parserProblem(parser) }
        context.fireErrorCaught(error)
    }

    /// The detail for a parser error that says which part of the request was wrong, or nil.
    static func parserProblem(_ error: HTTPParserError) -> String? {
        switch error {
        case .headerOverflow: return "the request head (its request line and header fields) is over 80 kB"
        case .invalidMethod, .unknown: return "the request's method is not valid HTTP"
        case .invalidURL: return "the request target is not valid"
        case .invalidVersion: return "the HTTP version is not valid"
        case .invalidHeaderToken, .invalidConstant, .lfExpected: return "a header field is not valid HTTP/1.1"
        default: return nil
        }
    }

    /// Installs ``HTTP1HeadRules`` where it can still see the HTTP/1 request head: just before
    /// Hummingbird's conversion to Swift HTTP Types (this handler comes after it).
    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let conversion = try? pipeline.handler(type: HTTP1ToHTTPServerCodec.self) else { return }
        let check = HTTP1HeadRules { [weak self] reason in self?.hostProblem = reason }
        try? pipeline.addHandler(check, position: .before(conversion))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .head(let head) = unwrapInboundIn(data), head.method == .connect {
            refused = true
            record(method: "CONNECT", status: 405, reason: "CONNECT: the server proxies nothing")
            var fields = HTTPFields()
            fields[.allow] = "GET, HEAD"
            fields[.connection] = "close"
            fields[.xContentTypeOptions] = "nosniff"   // as on every response (NoSniffMiddleware)
            fields[.cacheControl] = "no-store"         // as on every error (ProblemMiddleware)
            fields[.date] = Self.httpDate()
            context.write(wrapOutboundOut(.head(HTTPResponse(status: .methodNotAllowed, headerFields: fields))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
            return
        }
        if case .head(var head) = unwrapInboundIn(data), let path = head.path, path.utf8.contains(UInt8(ascii: "%")),
           let normalized = UnreservedPath.normalized(path) {
            head.path = normalized
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head(let head) = unwrapOutboundIn(data), Self.isParserRejection(head) {
            let said = hostProblem ?? parserProblem
            record(method: "-", status: 400, reason: said ?? "not valid HTTP/1.1")
            let text = said.map(Self.hostRejectionBody) ?? Self.parserRejectionBody
            var body = context.channel.allocator.buffer(capacity: text.utf8.count)
            body.writeString(text)
            var fields = head.headerFields
            fields[.contentType] = "application/problem+json"
            fields[.contentLength] = String(body.readableBytes)
            fields[.cacheControl] = "no-store"
            fields[.xContentTypeOptions] = "nosniff"
            if fields[.date] == nil { fields[.date] = Self.httpDate() }
            context.write(wrapOutboundOut(.head(HTTPResponse(status: head.status, headerFields: fields))), promise: nil)
            context.write(wrapOutboundOut(.body(body)), promise: promise)
            return
        }
        context.write(data, promise: promise)
    }

    /// Now as an HTTP `Date` (RFC 9110 §5.6.7: `Sun, 29 Nov 2026 03:04:05 GMT`), which every
    /// response of an origin server with a clock carries; the router's responses have it from
    /// Hummingbird, these two answers made below the router from here.
    static func httpDate(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// Hummingbird's answer to a parser error: `400`, `Connection: close`, an empty body, no type.
    private static func isParserRejection(_ head: HTTPResponse) -> Bool {
        head.status == .badRequest && head.headerFields[.contentLength] == "0"
            && head.headerFields[.connection] == "close" && head.headerFields[.contentType] == nil
    }

    /// The problem sent for a request refused for its `Host` field or by the parser, saying why.
    static func hostRejectionBody(_ reason: String) -> String {
        String(decoding: Problem(status: .badRequest, title: "Bad Request", detail: reason).body, as: UTF8.self)
    }

    /// The problem sent for a request the parser rejects (the parser does not say which part).
    static let parserRejectionBody =
        #"{"detail":"the request is not valid HTTP/1.1 (its method, request line or headers could not be read)","status":400,"title":"Bad Request","type":"about:blank"}"#
}
