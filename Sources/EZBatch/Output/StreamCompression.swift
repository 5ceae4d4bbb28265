import CStreamCompression

/// How the files that libraries write for us without a compression setting get compressed: a
/// PDF's content and font streams (Cairo) and the parts of an XLSX (libxlsxwriter's zip).
///
/// Both ask zlib for its default level, 6, and stream their data through it. ezreport
/// substitutes ``defaultLevel`` (1 unless changed) for that default, and compresses the streams
/// those two libraries open with libdeflate instead of zlib (``engine``): at level 1 it takes
/// less than half zlib's time on them and writes slightly smaller files (docs/performance.md).
/// A library that names a level keeps it and zlib; so does every other stream in the process.
/// The settings are process-wide, like zlib itself.
public enum StreamCompression {
    /// What compresses the streams Cairo and libxlsxwriter open at the default level.
    public enum Engine: String, Sendable, CaseIterable {
        /// libdeflate, each stream in one piece when it ends (the default).
        case libdeflate
        /// zlib, as the libraries would use it on their own (for comparisons).
        case zlib
    }

    /// The level (1 fastest … 9 smallest) used where a library asks for zlib's default;
    /// `nil` means zlib's own default (6).
    public static var defaultLevel: Int? {
        get {
            let level = Int(ezr_zlib_default_level())
            return level == -1 ? nil : level
        }
        set {
            precondition(newValue.map { (1...9).contains($0) } ?? true, "zlib levels are 1 … 9")
            _ = ezr_zlib_set_default_level(Int32(newValue ?? -1))
        }
    }

    /// What compresses the streams opened from now on; the output decompresses to the same data
    /// either way.
    public static var engine: Engine {
        get { ezr_whole_stream_deflate_enabled() != 0 ? .libdeflate : .zlib }
        set { ezr_whole_stream_deflate_set_enabled(newValue == .libdeflate ? 1 : 0) }
    }

    /// Whether these settings are in effect in this process: the executable exports its own
    /// `deflateInit_`, `deflateInit2_`, `deflate` and `deflateEnd` and the dynamic linker bound
    /// the libraries to them. When false (a binary linked without those exports), nothing here
    /// changes anything.
    public static var isActive: Bool { ezr_zlib_default_level_is_active() != 0 }

    /// How many streams libdeflate has compressed on the calling thread so far.
    public static var libdeflateStreamsOnThisThread: UInt { UInt(ezr_whole_stream_deflate_count_on_this_thread()) }
}
