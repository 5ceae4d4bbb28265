import CZlibDefaultLevel

/// How hard zlib works on the compressed parts of the files that libraries write for us without
/// offering a compression setting: a PDF's content and font streams (Cairo) and the parts of an
/// XLSX (libxlsxwriter's zip).
///
/// Both ask zlib for its default level, 6. ezreport substitutes ``defaultLevel`` (1 unless changed)
/// in that one case; a library that names a level keeps it. At level 1 the batch without PNGs
/// spends about 8 % less CPU and writes PDFs about 6 % and XLSX files about 10 % larger
/// (docs/performance.md). The setting is process-wide, like zlib itself.
public enum StreamCompression {
    /// The zlib level (1 fastest … 9 smallest) used where a library asks for zlib's default;
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

    /// Whether the substitution is in effect in this process: the executable exports its own
    /// `deflateInit_` and `deflateInit2_` and the dynamic linker bound the libraries to them.
    /// When false (a binary linked without those exports), ``defaultLevel`` changes nothing.
    public static var isActive: Bool { ezr_zlib_default_level_is_active() != 0 }
}
