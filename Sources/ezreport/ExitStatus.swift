import ArgumentParser

/// The exit codes every subcommand shares (and scripts rely on).
enum ExitStatus {
    /// Everything was done.
    static let ok = ExitCode(0)
    /// The run could not happen at all: a bad or unreadable ledger, an unwritable output folder.
    static let unusable = ExitCode(1)
    /// Some users failed; the others' reports were written.
    static let someFailed = ExitCode(2)
    /// Done, but rows were quarantined (left out of the figures).
    static let quarantined = ExitCode(3)
}

/// Prints one line to standard error.
func printError(_ message: String) {
    var stderr = StandardError()
    print("ezreport: \(message)", to: &stderr)
}

/// Standard error as a `TextOutputStream`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandleStderr.write(string)
    }
}
