import ArgumentParser
import EZBatch

/// `--formats` / `--format`: a comma-separated list of output formats (`pdf,xlsx,csv,png`) or `all`.
struct FormatList: ExpressibleByArgument, Sendable, Equatable {
    /// The formats, each once, in the order files are described (pdf, xlsx, csv, png).
    let formats: [OutputFormat]

    /// Parses `text`, or throws a ValidationError naming the unknown format.
    init(parsing text: String) throws {
        do { formats = try OutputFormat.parseList(text) } catch { throw ValidationError("\(error)") }
    }

    init?(argument: String) {
        guard let parsed = try? FormatList(parsing: argument) else { return nil }
        self = parsed
    }

    /// Every format.
    static let all = try! FormatList(parsing: "all")

    var defaultValueDescription: String { formats.map(\.rawValue).joined(separator: ",") }

    /// Whether the list is one format that writes a single file (what `--out -` can take).
    var isSingleFile: Bool { formats.count == 1 && (formats[0] == .pdf || formats[0] == .xlsx) }
}
