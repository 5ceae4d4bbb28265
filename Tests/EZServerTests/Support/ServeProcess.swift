import EZTestSupport
import Foundation
import XCTest

/// The built `ezreport serve` as a separate process on 127.0.0.1 and an ephemeral port, its
/// standard output and error in files (the way a supervisor runs it).
final class ServeProcess {
    let process: Process
    let port: Int
    let stdoutPath: String
    let stderrPath: String

    /// Starts `ezreport serve --db ledger --port 0 --jwt-secret-file … extra…` (after
    /// `shellSetUp` in `/bin/sh`, when given: see ``CLI/start(_:stdoutFile:stderrFile:in:environment:shellSetUp:)``)
    /// and waits (up to 5 s) for its `listening on` line.
    init(fixture: ServerFixture, extra: [String] = [], shellSetUp: String? = nil) async throws {
        let folder = fixture.ledger.folder
        let secretFile = folder.appendingPathComponent("secret.key").path
        XCTAssertTrue(FileManager.default.createFile(atPath: secretFile, contents: Data(fixture.secret + [0x0A])), "could not create \(secretFile)")
        stdoutPath = folder.appendingPathComponent("serve-\(UUID().uuidString).out").path
        stderrPath = folder.appendingPathComponent("serve-\(UUID().uuidString).err").path
        process = try CLI.start(["serve", "--db", fixture.ledger.path, "--port", "0", "--jwt-secret-file", secretFile] + extra,
                                stdoutFile: stdoutPath, stderrFile: stderrPath, shellSetUp: shellSetUp)
        var found: Int?
        for _ in 0..<100 where found == nil {
            try await Task.sleep(for: .milliseconds(50))
            let text = String(decoding: FileManager.default.contents(atPath: stdoutPath) ?? Data(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }) {
                found = Int(line.split(separator: ":").last ?? "")
            }
        }
        guard let found else {
            if process.isRunning { process.terminate(); process.waitUntilExit() }
            throw StartError(stderr: String(decoding: FileManager.default.contents(atPath: stderrPath) ?? Data(), as: UTF8.self))
        }
        port = found
    }

    struct StartError: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "no 'listening on' line; stderr: \(stderr)" }
    }

    /// What the server wrote to standard error so far.
    var stderr: String { String(decoding: FileManager.default.contents(atPath: stderrPath) ?? Data(), as: UTF8.self) }

    /// Sends SIGTERM and waits (up to 5 s) for the process to exit; returns its status.
    @discardableResult
    func stop() async throws -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        return process.terminationStatus
    }

    deinit { if process.isRunning { process.terminate(); process.waitUntilExit() } }
}
