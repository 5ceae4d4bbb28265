#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open file descriptors, raised for a server that holds one per client.
///
/// Linux starts most processes with a soft limit of 1,024 descriptors (systemd's default
/// `LimitNOFILE=1024:524288`) though the hard limit allows far more. Every client connection holds
/// one, so a few hundred idle keep-alive connections (a backend's pool, or a slow client) used them
/// all up: each further `accept` failed, the server answered no one — not even `/healthz` — and,
/// retrying the accept, kept a core busy until connections closed. Raising the soft limit to the
/// hard one is what servers do for this (nginx's `worker_rlimit_nofile`, Go's runtime at start);
/// the 60 s idle timeout still bounds how long a silent connection keeps its descriptor.
///
/// Where the hard limit itself is low (`ulimit -n 64`, a container's `nofile`), connections past it
/// made `accept` fail with `EMFILE` while the next client waited in the listen queue, and the
/// event loop woke for it again and again: a core busy for as long as they stayed. The server
/// then keeps its connections under the limit instead (``connections(allowedBy:)``): one more is
/// accepted and closed at once, as past `--max-connections`.
enum OpenFileLimit {
    /// Raises the soft limit to the hard limit (capped at `ceiling`); returns the limits before
    /// and after, or nil when they could not be read or were already as high.
    @discardableResult
    static func raise(ceiling: rlim_t = 1 << 20) -> (before: rlim_t, after: rlim_t)? {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return nil }
        let target = min(limit.rlim_max, ceiling)
        guard limit.rlim_cur < target else { return nil }
        let before = limit.rlim_cur
        limit.rlim_cur = target
        guard setrlimit(openFiles, &limit) == 0 else { return nil }
        return (before, target)
    }

    /// The current soft limit, or nil when it cannot be read (or is unlimited).
    static func current() -> rlim_t? {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return limit.rlim_cur
    }

    /// Descriptors kept for the server itself, beside its connections: at rest it holds ~20 (the
    /// listening socket, the event loops' epoll and event descriptors, the ledger and its WAL and
    /// shared memory, the log), and a render opens fonts, a PostgreSQL connection or a temporary file.
    static let reserved = 48

    /// The most connections a soft limit of `limit` descriptors leaves room for: `limit` less
    /// ``reserved``, at least 16.
    static func connections(allowedBy limit: rlim_t) -> Int {
        max(16, Int(clamping: limit) - reserved)
    }

    /// `RLIMIT_NOFILE` as the type `getrlimit` takes on this platform.
    private static var openFiles: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
}
