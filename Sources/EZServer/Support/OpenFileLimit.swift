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

    /// `RLIMIT_NOFILE` as the type `getrlimit` takes on this platform.
    private static var openFiles: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
}
