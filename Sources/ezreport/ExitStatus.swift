import ArgumentParser
import EZCore

/// The exit codes every subcommand shares (and scripts rely on).
enum ExitStatus: Int32, Error, CaseIterable {
    /// Everything was done.
    case ok = 0
    /// The run could not happen at all: a bad or unreadable ledger, an unwritable output folder.
    case unusable = 1
    /// Some users failed; the others' reports were written.
    case someFailed = 2
    /// Done, but rows were quarantined (left out of the figures).
    case quarantined = 3
    /// The arguments were wrong (swift-argument-parser's validation failure).
    case badArguments = 64

    /// The code swift-argument-parser exits with.
    var exitCode: ExitCode { ExitCode(rawValue) }
}

/// Prints one line to standard error. A message may quote ledger text (a time zone with a line
/// break and terminal escapes): its control characters are written as escapes, so that it can
/// neither forge another line nor drive the operator's terminal.
func printError(_ message: String) {
    var stderr = StandardError()
    print("ezreport: \(LogText.oneLine(message))", to: &stderr)
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleStderr.write(string)
    }
}
