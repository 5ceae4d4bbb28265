import Foundation

/// Runs the built `ezreport` executable as a separate process, the way a scheduler does.
public enum CLI {
    /// What one run of the executable did.
    public struct Outcome: Sendable {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        /// The standard output as text.
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// The package root, located from this source file (`<root>/Tests/EZTestSupport/CLI.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `ezreport` executable built next to the test bundle (or `EZREPORT_BIN`).
    public static let binary: String? = {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["EZREPORT_BIN"] { candidates.append(env) }
        for bundle in Bundle.allBundles + [Bundle.main] {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("ezreport").path)
            if let exe = bundle.executableURL {
                candidates.append(exe.deletingLastPathComponent().appendingPathComponent("ezreport").path)
            }
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/ezreport").path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The executable, or an error explaining how to build it (a failure, not a skip: CI must run these).
    public static func executable() throws -> String {
        guard let binary else { throw NotBuilt() }
        return binary
    }

    /// The `ezreport` executable is missing.
    public struct NotBuilt: Error, CustomStringConvertible {
        public var description: String {
            "the ezreport executable was not found next to the tests; run 'swift build --build-tests' or set EZREPORT_BIN"
        }
    }

    /// Starts `ezreport args…` (in `directory`, else the tests' own, with `environment` added to
    /// the tests' own) with standard output and error sent to files; the caller waits. With
    /// `shellSetUp` (e.g. `ulimit -Sn 128`), `/bin/sh` runs it first and then execs ezreport in
    /// its place (same process id), for limits a supervisor would set.
    public static func start(_ args: [String], stdoutFile: String, stderrFile: String, in directory: String? = nil,
                             environment: [String: String] = [:], shellSetUp: String? = nil) throws -> Process {
        let process = Process()
        if let shellSetUp {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shellSetUp + " && exec \"$0\" \"$@\"", try executable()] + args
        } else {
            process.executableURL = URL(fileURLWithPath: try executable())
            process.arguments = args
        }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = "80"   // help text wraps at a fixed width, whatever terminal runs the tests
        env.merge(environment) { $1 }
        process.environment = env
        _ = FileManager.default.createFile(atPath: stdoutFile, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: stdoutFile)
        process.standardError = FileHandle(forWritingAtPath: stderrFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `ezreport args…` to completion (in `directory`, else the tests' own working directory;
    /// `environment` added to the tests' own).
    @discardableResult
    public static func run(_ args: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout").path
        let err = scratch.appendingPathComponent("stderr").path
        let process = try start(args, stdoutFile: out, stderrFile: err, in: directory, environment: environment)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: FileManager.default.contents(atPath: out) ?? Data(),
                       stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
    }

    /// Runs `ezreport args…` under a file-size limit of `fileSizeLimitKiB` (`ulimit -f`, as systemd's
    /// LimitFSIZE= sets it): the shell sets the limit and execs the executable, leaving SIGXFSZ as
    /// it finds it, so whatever ezreport does about a write past the limit is what is tested.
    @discardableResult
    public static func run(_ args: [String], fileSizeLimitKiB: Int, in directory: String? = nil) throws -> Outcome {
        try run(args, shellSetUp: "ulimit -f \(fileSizeLimitKiB)", in: directory)
    }

    /// Runs the executable after `shellSetUp` (a `ulimit`), as ``run(_:fileSizeLimitKiB:in:)`` does.
    @discardableResult
    public static func run(_ args: [String], shellSetUp: String, in directory: String? = nil) throws -> Outcome {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("stdout").path, err = scratch.appendingPathComponent("stderr").path
        let process = try start(args, stdoutFile: out, stderrFile: err, in: directory, shellSetUp: shellSetUp)
        process.waitUntilExit()
        // Killed by a signal (SIGXFSZ is 25), the status is the signal's number: made distinct here.
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return Outcome(status: status, stdout: FileManager.default.contents(atPath: out) ?? Data(),
                       stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
    }

    /// Runs an external tool (pdftotext, unzip) and returns its standard output.
    public static func tool(_ path: String, _ args: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(path) \(args) exited \(process.terminationStatus)"])
        }
        return data
    }
}
