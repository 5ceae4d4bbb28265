import EZLedger
import Foundation

/// The ledger's SHA-256 as a run computes it: the first call may hash the file, later calls
/// should hit the digest cache.
enum DigestBench {
    static func run(db: String, rounds: Int) throws -> String {
        var lines: [String] = []
        for i in 0..<rounds {
            let start = Clock.now()
            let digest = try FileDigest.sha256(ofFile: db)
            lines.append(String(format: "call %d: %.2f ms  %@", i + 1, (Clock.now() - start) * 1000, String(digest.prefix(16))))
        }
        return lines.joined(separator: "\n")
    }
}
