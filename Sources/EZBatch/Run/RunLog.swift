import EZCore
import Foundation
import Synchronization

/// Progress and log lines on standard error: a progress bar on a terminal, a plain (or JSON)
/// line every few seconds otherwise, nothing but errors and the summary with `quiet`.
package final class RunLog: Sendable {
    /// How log lines are written.
    package enum Format: String, Sendable { case text, json }

    private let format: Format
    private let quiet: Bool
    private let isTerminal: Bool
    private let start = Date()
    /// When the last progress line was written; held while any line is written, so lines never interleave.
    private let lastLine = Mutex(Date.distantPast)
    private let interval: TimeInterval

    /// A log writing `format` lines; `interval` is the seconds between lines off a terminal.
    package init(format: Format = .text, quiet: Bool = false, interval: TimeInterval = 5) {
        self.format = format
        self.quiet = quiet
        self.isTerminal = isatty(2) == 1 && format == .text
        self.interval = interval
    }

    /// Seconds since the log was made.
    package var elapsed: TimeInterval { Date().timeIntervalSince(start) }

    /// Reports `done` of `total` users finished.
    package func progress(done: Int, total: Int, skipped: Int, failed: Int) {
        guard !quiet else { return }
        lastLine.withLock { lastLine in
            let now = Date()
            let secs = now.timeIntervalSince(start)
            let rate = secs > 0 ? Double(done) / secs : 0
            let left = rate > 0 ? Double(total - done) / rate : 0
            if isTerminal {
                guard now.timeIntervalSince(lastLine) >= 0.1 || done == total else { return }
                lastLine = now
                let width = 30
                let filled = total > 0 ? width * done / total : width
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                emit("\r\(bar) \(done)/\(total) users  \(String(format: "%.1f", rate))/s  \(Int(left.rounded())) s left  ", newline: done == total)
            } else {
                guard now.timeIntervalSince(lastLine) >= interval || done == total else { return }
                lastLine = now
                line("progress", ["done": "\(done)", "total": "\(total)", "skipped": "\(skipped)", "failed": "\(failed)",
                                  "rate_per_s": String(format: "%.1f", rate), "eta_s": "\(Int(left.rounded()))"])
            }
        }
    }

    /// A one-off note, not printed when quiet.
    package func event(_ message: String, _ fields: [String: String] = [:]) {
        guard !quiet else { return }
        lastLine.withLock { _ in line(message, fields) }
    }

    /// Something the run could not do (a failed user, an incomplete admin report): printed even
    /// when quiet, so that a scheduled run's journal says which user failed and why.
    package func problem(_ message: String, _ fields: [String: String] = [:]) {
        lastLine.withLock { _ in line(message, fields) }
    }

    /// The error that ends the run before its summary (an unreadable ledger, a held lock), as
    /// one JSON object (`"event":"run failed"` and its `reason`), printed even when quiet: a
    /// collector parsing the run's lines parses this one too. Text logs print such errors as
    /// every command does (`ezreport: <reason>`), not through here.
    package func fatal(_ reason: String) {
        lastLine.withLock { _ in line("run failed", ["reason": reason]) }
    }

    /// The run's closing line, printed even when quiet.
    package func summary(_ fields: KeyValuePairs<String, String>) {
        lastLine.withLock { _ in
            switch format {
            case .json:
                var object: [String: String] = ["event": "summary"]
                for (k, v) in fields { object[k.replacingOccurrences(of: " ", with: "_")] = v }   // snake_case keys for collectors
                emit(Self.json(object), newline: true)
            case .text:
                emit(fields.map { "\($0.key) \(LogText.oneLine($0.value))" }.joined(separator: ", "), newline: true)
            }
        }
    }

    private func line(_ message: String, _ fields: [String: String]) {
        switch format {
        case .json:
            var object = fields
            object["event"] = message
            object["elapsed_s"] = String(format: "%.1f", elapsed)
            emit(Self.json(object), newline: true)
        case .text:
            // A reason may quote ledger text: control characters are escaped (LogText), so no
            // value forges a line or reaches the terminal as an escape sequence.
            let rest = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(LogText.oneLine($0.value))" }.joined(separator: " ")
            emit((isTerminal ? "\n" : "") + "ezreport: \(LogText.oneLine(message))" + (rest.isEmpty ? "" : " " + rest), newline: true)
        }
    }

    private func emit(_ text: String, newline: Bool) {
        var s = text
        if newline { s += "\n" }
        s.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    private static func json(_ object: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
