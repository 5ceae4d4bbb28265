import Foundation

/// The least address space (`ulimit -v`, `RLIMIT_AS`) a command is started with.
///
/// The address space a process reserves is far more than the memory it uses: each thread's
/// stack, glibc's malloc arena per thread (64 MB each), the fonts and the shared libraries mapped
/// whole. Under a lower limit a command does not fail with a message: GLib aborts when Pango
/// cannot create its font thread (`GLib-ERROR … Error creating thread`, SIGTRAP, exit 133), the
/// Swift runtime when an allocation fails, and libqpdf's loading fails for some users first
/// (outside scale test: 300–500 MB). A `monthly --jobs 2` of the sample needs ~500 MB of it, and
/// one of a 100,000-transaction user ~600 MB, while using 100–140 MB of memory. Memory is limited
/// with a cgroup instead (systemd's `MemoryMax=`, a container's limit), which counts what is used.
enum AddressSpaceLimit {
    /// 1 GiB.
    static let minimumBytes: UInt64 = 1 << 30

    /// The message for a soft `RLIMIT_AS` below ``minimumBytes``, or nil when there is none (or
    /// it is high enough).
    static func problem() -> String? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max,  // RLIM_INFINITY
              UInt64(limit.rlim_cur) < minimumBytes else { return nil }
        let mib = UInt64(limit.rlim_cur) / (1 << 20)
        return "the address-space limit (ulimit -v) is \(mib) MiB; ezreport needs at least \(minimumBytes >> 20) MiB of "
            + "address space (threads and libraries reserve far more than they use): raise it, and limit memory with "
            + "a cgroup instead (systemd's MemoryMax=, a container's memory limit)"
    }
}
