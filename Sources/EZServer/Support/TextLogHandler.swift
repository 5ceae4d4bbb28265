import Foundation
import Logging

/// A swift-log handler writing swift-log's text lines to standard error
/// (`2026-11-27T01:48:37+0000 info ezreport.serve: k=v … [EZServer] message`), with one difference
/// from its `StreamLogHandler`: the timestamp comes from `localtime_r`.
///
/// `StreamLogHandler` calls `localtime`, which fills the C library's one static `struct tm` —
/// the same one `gmtime` fills. libxlsxwriter calls `gmtime` when it writes a workbook's dates,
/// so a request logged while another rendered a workbook put the log line's time into that
/// workbook (different bytes, a different ETag, for the same inputs).
struct TextLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new })
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "\(LogTimestamp.now()) \(event.level)\(label.isEmpty ? "" : " ")\(label):\(pretty) [\(event.source)] \(event.message)\n"
        try? FileHandle.standardError.write(contentsOf: Data(line.utf8))   // write(_:) traps when standard error is closed or full
    }

}

/// The text log's timestamp.
package enum LogTimestamp {
    /// Local time as swift-log writes it (`2026-11-27T01:48:37+0000`), from the reentrant `localtime_r`.
    package static func now() -> String {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
