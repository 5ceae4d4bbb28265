import CMalloc

/// How the process allocates memory: set once, first thing, by the command line.
public enum MemoryPolicy {
    /// Makes every thread allocate from glibc's one main arena.
    ///
    /// By default glibc gives threads arenas of their own (up to eight per core), and memory freed
    /// in one is not reused by another: a batch whose two workers render statement after statement
    /// kept ~15–25 MB more resident than it used, which the 150 MB budget has no room for.
    /// Measured on 331 users of the 1,000-user ledger, `--jobs 2`: peak RSS 150–160 MB with
    /// per-thread arenas, 136 MB with one; CPU time the same (17.3–17.6 s user). Call before any
    /// thread is started; returns whether glibc accepted the setting.
    @discardableResult
    public static func useOneArena() -> Bool {
        mallopt(M_ARENA_MAX, 1) == 1
    }
}
