import NIOCore
import NIOHTTP1

/// The rules of RFC 9112 that need the HTTP/1 request head, which Hummingbird's conversion to
/// Swift HTTP Types loses (it keeps the first `Host` value as the request's authority and drops
/// the protocol version):
///
/// - **`Host`** (section 3.2): a server MUST answer 400 to an HTTP/1.1 request without one, to any
///   request with more than one, and to one whose value is not a host and an optional port. A
///   refused request goes no further: this raises the parser error Hummingbird answers with `400`
///   and `Connection: close`, and ``HTTPHygieneHandler`` (which installs this handler) writes the
///   problem body naming what was wrong. Nothing more is read from the connection.
/// - **Persistence** (section 9.3): an HTTP/1.0 request without the `keep-alive` option ends its
///   connection after the response. Such a request is passed on with `Connection: close`, which
///   Hummingbird honours; the connection used to stay open until the idle timeout, and a client
///   that reads an HTTP/1.0 response to the end of the connection waited for it. An HTTP/1.0
///   request that asks for `keep-alive` gets `Connection: keep-alive` on a response that keeps the
///   connection (RFC 9112, appendix C.2.2): an HTTP/1.0 client (ApacheBench's `-k`, old proxies)
///   takes a response without it as the end of the connection.
final class HTTP1HeadRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// For each request read and not yet answered, in order (HTTP/1.1 answers in order, pipelined
    /// or not): whether its response echoes `Connection: keep-alive`.
    private var echoKeepAlive: [Bool] = []

    /// Called once with the reason when a request is refused.
    private let refuse: (String) -> Void
    private var refused = false

    /// A check that reports a refusal's reason to `refuse` (on the channel's event loop).
    init(refuse: @escaping (String) -> Void) {
        self.refuse = refuse
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let reason = Self.problem(with: head) {
            refused = true
            refuse(reason)
            context.fireErrorCaught(HTTPParserError.invalidHeaderToken)
            return
        }
        // NIO's reading of the version and the Connection options; Hummingbird closes after the
        // response only on exactly "close".
        if !head.isKeepAlive { head.headers.replaceOrAdd(name: "Connection", value: "close") }
        echoKeepAlive.append(head.version == .http1_0 && head.isKeepAlive)
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code >= 200 else {
            context.write(data, promise: promise)
            return
        }
        let echo = echoKeepAlive.isEmpty ? false : echoKeepAlive.removeFirst()
        if echo && !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
            head.headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    /// What is wrong with `head`'s `Host` or `Transfer-Encoding` field, or nil when nothing is.
    static func problem(with head: HTTPRequestHead) -> String? {
        // RFC 9112, section 6.3: a Transfer-Encoding whose final coding is not chunked leaves the
        // body's length unknown: 400, and the connection closed. Such a request was answered 200
        // with the connection kept, and what followed read as its body (outside server test): an
        // ingredient of request smuggling behind a lenient proxy.
        let codings = head.headers["Transfer-Encoding"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty, codings.last != "chunked" {
            return "the request's Transfer-Encoding does not end with chunked, so its length is unknown"
        }
        let values = head.headers["Host"]
        switch values.count {
        case 0:
            // HTTP/1.0 clients may omit it; HTTP/1.1 ones must send it.
            return (head.version.major, head.version.minor) >= (1, 1) ? "an HTTP/1.1 request needs a Host header" : nil
        case 1:
            return isHostAndPort(values[0]) ? nil : "the Host header is not a host and port"
        default:
            return "a request may have only one Host header"
        }
    }

    /// Whether `value` is `uri-host [ ":" port ]` (RFC 3986): a registered name (unreserved
    /// characters, percent-escapes, sub-delimiters), an IPv4 address, or an IP literal in
    /// brackets, then optionally a colon and decimal digits. An empty value is allowed: it is what
    /// a client sends when the target has no authority.
    static func isHostAndPort(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy(isIPLiteralByte) else { return false }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard bytes[..<end].allSatisfy(isRegisteredNameByte) else { return false }
            bytes = bytes[end...]
        }
        guard let colon = bytes.first else { return true }
        guard colon == UInt8(ascii: ":") else { return false }
        let port = bytes.dropFirst()
        return port.count <= 5 && port.allSatisfy { (0x30...0x39).contains($0) } && (Int(String(decoding: port, as: UTF8.self)) ?? 0) <= 65_535
    }

    /// unreserved / pct-encoded / sub-delims: a reg-name's (or an IPv4 address's) characters.
    private static func isRegisteredNameByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return "-._~%!$&'()*+,;=".utf8.contains(b)
        }
    }

    /// The characters of an IPv6 address or an IPvFuture literal inside brackets.
    private static func isIPLiteralByte(_ b: UInt8) -> Bool {
        isRegisteredNameByte(b) || b == UInt8(ascii: ":")
    }
}
