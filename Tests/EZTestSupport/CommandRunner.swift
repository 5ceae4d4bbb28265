import Foundation

/// Runs the built `ezreport` binary as a person or a script would, capturing its output.
public enum CommandRunner {
    /// What a command printed and how it ended.
    public struct Outcome {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The `ezreport` binary built beside the test bundle.
    public static var binary: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("ezreport")
    }

    /// Runs `ezreport arguments…` in `directory` and waits for it.
    @discardableResult
    public static func run(_ arguments: [String], in directory: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes while the process runs so a full pipe never blocks it.
        let collected = Collected()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            collected.set(out.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let stderrData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let stdoutData = collected.get()
        return Outcome(status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// Standard output collected on another thread.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ d: Data) { lock.lock(); data = d; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
