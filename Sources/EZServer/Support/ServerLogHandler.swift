import EZCore
import Foundation
import Logging

/// The server's swift-log handler: one line per event on standard error, as text (swift-log's
/// layout: `2026-11-27T01:48:37+0000 info ezreport.serve: k=v … [EZServer] message`) or as a JSON
/// object (`ts`, `level`, `label`, `message` and the metadata as string fields).
///
/// The text timestamp comes from `localtime_r`. swift-log's own `StreamLogHandler` calls
/// `localtime`, which fills the C library's one static `struct tm` — the same one `gmtime` fills.
/// libxlsxwriter calls `gmtime` when it writes a workbook's dates, so a request logged while
/// another rendered a workbook put the log line's time into that workbook (different bytes, a
/// different ETag, for the same inputs).
struct ServerLogHandler: LogHandler {
    let label: String
    let format: ServerConfiguration.LogFormat
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new })
        var line: Data
        switch format {
        case .text:
            if let error = event.error {
                merged["error.message"] = "\(error)"
                merged["error.type"] = "\(String(reflecting: type(of: error)))"
            }
            let pretty = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }
                .map { "\($0.key)=\(LogText.oneLine($0.value.description))" }.joined(separator: " ")
            line = Data("\(LogTimestamp.now()) \(event.level)\(label.isEmpty ? "" : " ")\(label):\(pretty) [\(event.source)] \(LogText.oneLine(event.message.description))".utf8)
        case .json:
            var object: [String: String] = [
                "ts": Date().formatted(.iso8601),
                "level": event.level.rawValue,
                "label": label,
                "message": event.message.description,
            ]
            for (key, value) in merged { object[key] = value.description }
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
            line = data
        }
        line.append(0x0A)
        try? FileHandle.standardError.write(contentsOf: line)   // write(_:) traps when standard error is closed or full
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
