import ArgumentParser
import Foundation

extension EZReport {
    /// Parses and runs the command like swift-argument-parser's own `main()`, except that a
    /// parsing or validation error is reported as one line on standard error
    /// (`ezreport: <message>`, exit 64) instead of the message plus a usage block, so that
    /// schedulers and log collectors get one clear line per failure. Help and `--version` are
    /// printed as usual, and the exit codes the commands throw pass through unchanged.
    /// A write past the file-size limit is an error, not a signal (see the first line).
    static func main() async {
        // A write past the process's file-size limit (`ulimit -f`, systemd's LimitFSIZE=) would
        // otherwise end the process by SIGXFSZ, with no message and a temporary file left
        // behind; ignored, the write fails with EFBIG ("File too large") and the command reports
        // it on one line like any other failed write (as PostgreSQL does).
        signal(SIGXFSZ, SIG_IGN)
        do {
            var command = try parseAsRoot()
            // Help and --version were printed by the parser: a command that runs is refused at
            // once, with one line, where it would have been aborted by a library later.
            if let problem = AddressSpaceLimit.problem() {
                printError(problem)
                throw ExitStatus.unusable
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let status as ExitStatus {
            Foundation.exit(status.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode { exit(withError: error) }
            let message = self.message(for: error)
                .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: " ")
            printError(message.isEmpty ? "invalid arguments; see 'ezreport --help'" : message)
            Foundation.exit(code == .validationFailure ? ExitStatus.badArguments.rawValue : code.rawValue)
        }
    }
}
