import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 for what an HTTP client library will not send: a request
/// the parser must reject, `CONNECT`, a head that stops half-way, a connection left idle.
final class RawConnection {
    private var fd: Int32

    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer first
    /// (a client that reads slowly then holds the server's bytes on the server's side).
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: errno \(errno)") }
        if var size = receiveBuffer {
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { close(fd); throw Failure("connect: errno \(errno)") }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Closes the connection with a reset (RST) instead of a FIN, as a client that gives up does.
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
        fd = -1
    }

    /// Sends `text` as it is (CR LF included by the caller).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure("send: errno \(errno)") }
            sent += n
        }
    }

    /// What the server sent until it closed the connection, or until `timeout` passed (then
    /// `closed` is false): the bytes, and how long it took.
    func readUntilClosed(timeout: Duration) -> (text: String, closed: Bool, elapsed: Duration) {
        let start = ContinuousClock.now
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = timeout - (ContinuousClock.now - start)
            guard left > .zero else { return (String(decoding: received, as: UTF8.self), false, ContinuousClock.now - start) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&poller, 1, ms) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (String(decoding: received, as: UTF8.self), true, ContinuousClock.now - start) }
            received += buffer[0..<n]
        }
    }

    /// Reads like a client on a slow link: about `chunk` bytes, then a pause, until the server
    /// closes the connection or `timeout` passes. Returns every byte received.
    func readSlowly(pause: Duration, chunk: Int, timeout: Duration) -> (bytes: [UInt8], closed: Bool, elapsed: Duration) {
        let start = ContinuousClock.now
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now - start < timeout {
            var taken = 0
            while taken < chunk {
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 1000) > 0 else { break }
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return (received, true, ContinuousClock.now - start) }
                received += buffer[0..<n]
                taken += n
            }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18 + Double(pause.components.seconds))
        }
        return (received, false, ContinuousClock.now - start)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
