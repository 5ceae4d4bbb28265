import EZBatch
import EZTestSupport
import Foundation
import XCTest

/// A ledger and the monthly run `deliver` reads, in a temporary folder, plus a runner for the
/// built `ezreport deliver` (with environment variables, for SMTP credentials).
final class DeliveryFixture {
    let folder: URL
    let ledgerPath: String
    var reports: String { folder.appendingPathComponent("Reports").path }
    var periodFolder: String { reports + "/2026-10" }
    /// A name-addr, as an operator gives it: the From header must carry it as given.
    static let from = "EZWallet Statements <statements@ezwallet.example>"

    /// A 12-user sample ledger (`ezreport sample`), or the ledger at `ledger` when given; then
    /// `monthly` for October 2026 with `formats`.
    init(ledger: String? = nil, formats: String = "pdf") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-deliver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let ledger {
            ledgerPath = ledger
        } else {
            ledgerPath = folder.appendingPathComponent("ledger.sqlite").path
            let sample = try CLI.run(["sample", "--out", ledgerPath, "--users", "12", "--months", "3", "--end", "2026-10", "--seed", "1"])
            guard sample.status == 0 else { throw FixtureFailed(message: "sample: \(sample.stderr)") }
        }
        try monthly(formats: formats)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    struct FixtureFailed: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// Runs (or re-runs) `monthly` for October 2026.
    func monthly(formats: String = "pdf", force: Bool = false) throws {
        let run = try CLI.run(["monthly", "--db", ledgerPath, "--period", "2026-10", "--as-of", "2026-11-01", "--out", reports,
                               "--formats", formats, "--quiet"] + (force ? ["--force"] : []))
        guard run.status == 0 || run.status == 3 else { throw FixtureFailed(message: "monthly: \(run.stderr)") }
    }

    /// The manifest the monthly run wrote.
    func manifest() throws -> Manifest {
        try Manifest.decode(Data(contentsOf: URL(fileURLWithPath: periodFolder + "/manifest.json")))
    }

    /// `ezreport deliver --db … --out … --period 2026-10 --from … <args>` with `environment` added.
    @discardableResult
    func deliver(_ args: [String], environment: [String: String] = [:], fileSizeLimit: Int? = nil) throws -> Outcome {
        let process = try start(args, environment: environment, fileSizeLimit: fileSizeLimit)
        process.waitUntilExit()
        return outcome(of: process)
    }

    /// Starts `deliver` without waiting (for the kill test); ``outcome(of:)`` reads its output.
    /// With `fileSizeLimit` (in KiB), it runs under `ulimit -f` with SIGXFSZ ignored: a write past
    /// that size fails with EFBIG, as one fails on a full disk.
    func start(_ args: [String], environment: [String: String] = [:], fileSizeLimit: Int? = nil) throws -> Process {
        let process = Process()
        let arguments = ["deliver", "--db", ledgerPath, "--out", reports, "--period", "2026-10", "--from", Self.from] + args
        if let fileSizeLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(fileSizeLimit); exec \"$0\" \"$@\"", try CLI.executable()] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: try CLI.executable())
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["EZREPORT_SMTP_USER"] = nil
        env["EZREPORT_SMTP_PASSWORD"] = nil
        env.merge(environment) { $1 }
        process.environment = env
        let err = folder.appendingPathComponent("deliver.stderr").path
        XCTAssertTrue(FileManager.default.createFile(atPath: err, contents: nil), "could not create \(err)")
        process.standardError = FileHandle(forWritingAtPath: err)
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// A finished `deliver`: its exit status and standard error (where every line goes).
    struct Outcome { var status: Int32; var stderr: String }

    func outcome(of process: Process) -> Outcome {
        let err = folder.appendingPathComponent("deliver.stderr").path
        return Outcome(status: process.terminationStatus,
                       stderr: String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self))
    }

    /// Every line of delivery.jsonl, as JSON objects.
    func journal() throws -> [[String: Any]] {
        guard let data = FileManager.default.contents(atPath: periodFolder + "/delivery.jsonl") else { return [] }
        return try data.split(separator: 0x0A).map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
    }

    /// delivery.json's per-user latest status, by user id.
    func state() throws -> [Int64: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: periodFolder + "/delivery.json"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let users = try XCTUnwrap(object["users"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: users.map { (($0["user_id"] as? NSNumber)?.int64Value ?? -1, $0["status"] as? String ?? "") })
    }

    /// The users `deliver` should e-mail: `ok` in the manifest, not opted out (sample ids ≡ 9 mod 17).
    func eligible() throws -> [Manifest.UserEntry] {
        try manifest().users.filter { $0.status == .ok && $0.id % 17 != 9 }
    }
}
