import ArgumentParser
import Foundation

extension EZReport {
    /// Parses and runs the command like swift-argument-parser's own `main()`, except that a
    /// parsing or validation error is reported as one line on standard error
    /// (`ezreport: <message>`, exit 64) instead of the message plus a usage block, so that
    /// schedulers and log collectors get one clear line per failure. Help and `--version` are
    /// printed as usual, and the exit codes the commands throw pass through unchanged.
    static func main() async {
        do {
            var command = try parseAsRoot()
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
