import CFastNumberFormat

/// How the numbers in a PDF's content get printed: Cairo writes each coordinate, colour and
/// integer with glibc's `snprintf`, and ezreport answers the simple specifications it uses
/// ("%f", "%.Nf", "%d", "%04x", …) itself, with the same bytes glibc would write.
///
/// glibc formats doubles with multi-precision arithmetic; for the ~8,000 numbers of a statement
/// PDF that was about 7 % of the batch without PNGs (docs/performance.md). Any other call, and
/// any value outside the exact fast path (infinities, NaN, |x| ≥ 2^63), goes to glibc unchanged.
/// The setting is process-wide.
public enum FastNumberFormat {
    /// Whether the fast path answers the calls it covers (the default). Off, every call goes to
    /// glibc; the output is identical either way, so this exists for tests and benchmarks.
    public static var isEnabled: Bool {
        get { ezr_fast_number_format_enabled() != 0 }
        set { ezr_fast_number_format_set_enabled(newValue ? 1 : 0) }
    }

    /// Whether the fast path is in effect in this process: the executable exports its own
    /// `__snprintf_chk` and the dynamic linker bound the libraries' calls to it. When false (a
    /// binary linked without that export), ``isEnabled`` changes nothing.
    public static var isActive: Bool { ezr_fast_number_format_is_active() != 0 }

    /// How many calls the fast path answered on the calling thread so far.
    public static var callsOnThisThread: UInt { UInt(ezr_fast_number_format_calls_on_this_thread()) }
}
