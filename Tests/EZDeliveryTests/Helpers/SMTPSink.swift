import Foundation
import XCTest

/// A real SMTP server for the tests: Python's aiosmtpd running Support/smtp_sink.py on
/// 127.0.0.1 and a free port, saving every message it receives to a folder.
///
/// Rules (see smtp_sink.py) make it refuse a recipient, answer 451 once, drop the connection
/// after DATA or answer slowly; they are re-read for every command, so a test can change them
/// between runs. ``stop()`` ends the process; tests call it in `tearDown`/`defer` so the server
/// never outlives a failing test.
final class SMTPSink {
    /// What the server received: one entry per message that reached the end of DATA.
    struct Received: Decodable {
        var seq: Int
        var file: String
        var mailFrom: String
        var rcptTos: [String]
        /// `accepted`, `tempfailed` (answered 451) or `dropped` (connection closed without a reply).
        var outcome: String
        enum CodingKeys: String, CodingKey { case seq, file, mailFrom = "mail_from", rcptTos = "rcpt_tos", outcome }
    }

    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support")

    let folder: URL
    let port: Int
    private let process: Process
    private let rulesPath: String

    /// Starts the server. `starttls`/`smtps` take (certificate, key) PEM paths; `auth` is `user:password`.
    init(rules: [String: Any] = [:], starttls: (String, String)? = nil, smtps: (String, String)? = nil, auth: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-sink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        rulesPath = folder.appendingPathComponent("rules.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var args = ["python3", Self.support.appendingPathComponent("smtp_sink.py").path,
                    "--out", folder.appendingPathComponent("received").path, "--rules", rulesPath]
        if let (cert, key) = starttls { args += ["--starttls", cert, key] }
        if let (cert, key) = smtps { args += ["--smtps", cert, key] }
        if let auth { args += ["--auth", auth] }
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        let errPath = folder.appendingPathComponent("sink.stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: errPath, contents: nil), "could not create \(errPath)")
        process.standardError = FileHandle(forWritingAtPath: errPath)
        self.process = process
        try Self.write(rules, to: rulesPath)
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first, line.hasPrefix("PORT "), let port = Int(line.dropFirst(5)) else {
            process.waitUntilExit()
            let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw SinkFailed(message: "the SMTP sink did not start (is aiosmtpd installed? scripts/setup.sh --test): \(text) \(err)")
        }
        self.port = port
    }

    deinit { stop() }

    /// The server did not start.
    struct SinkFailed: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// `smtp://127.0.0.1:<port>` (or `smtps://`).
    func url(scheme: String = "smtp") -> String { "\(scheme)://127.0.0.1:\(port)" }

    /// Replaces the rules the server applies from the next command on.
    func setRules(_ rules: [String: Any]) throws { try Self.write(rules, to: rulesPath) }

    private static func write(_ rules: [String: Any], to path: String) throws {
        try JSONSerialization.data(withJSONObject: rules).write(to: URL(fileURLWithPath: path))
    }

    /// Stops the server (idempotent) and removes its folder.
    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every message received so far, in order.
    func received() throws -> [Received] {
        let path = folder.appendingPathComponent("received/index.jsonl").path
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return try data.split(separator: 0x0A).map { try JSONDecoder().decode(Received.self, from: Data($0)) }
    }

    /// Messages the server accepted (250 after DATA).
    func accepted() throws -> [Received] { try received().filter { $0.outcome == "accepted" } }

    /// TCP connections made to the server so far.
    func connections() -> Int { lineCount("events.jsonl") }

    /// RCPT TO commands the server has seen so far.
    func recipientsAsked() -> Int { lineCount("rcpt.jsonl") }

    /// AUTH attempts the server has seen so far.
    func authAttempts() -> Int { lineCount("auth.jsonl") }

    /// Lines in the server's log file `name` (one event each).
    private func lineCount(_ name: String) -> Int {
        let path = folder.appendingPathComponent("received/" + name).path
        return FileManager.default.contents(atPath: path).map { $0.split(separator: 0x0A).count } ?? 0
    }

    /// The saved message file of `entry`.
    func path(of entry: Received) -> String { folder.appendingPathComponent("received/" + entry.file).path }
}
