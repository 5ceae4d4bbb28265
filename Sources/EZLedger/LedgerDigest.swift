import Foundation
import Synchronization

/// The ledger's digest as every report's provenance states it: the one function all callers
/// (`export`, `monthly`, `serve`) go through, so they agree on what "the ledger's SHA-256" is.
package enum LedgerDigest {
    /// The SHA-256 of the ledger at `path`, lower-case hex (large files through ``DigestCache``).
    /// Read through ``LedgerFileDescriptors``: SQLite may have the ledger open in this process.
    package static func sha256(ofLedger path: String) throws -> String {
        try Ledger.checkFile(path, reportingAs: path)   // a FIFO would block the hash; a 10 GB non-ledger take minutes
        do {
            return try FileDigest.sha256(ofFile: path, keepOpen: true)
        } catch let error as FileDigest.FileReadError {
            throw LedgerError.cannotOpen(path: path, reason: error.reason)
        }
    }
}

/// Remembers the ledger's digest in memory while the files are unchanged, for a long-running
/// process that needs it on every request (`ezreport serve`).
///
/// The entry is keyed by the identity (device, inode, size, modification and status-change
/// times) of the ledger and of its `-wal` file: any write, checkpoint or replacement changes
/// one of them, and the digest is then computed again through ``LedgerDigest/sha256(ofLedger:)``.
package final class LedgerDigestMemo: Sendable {
    private let path: String
    private let entry = Mutex<(key: String, digest: String)?>(nil)
    /// Held while the file is hashed: callers that find the memo stale at the same moment wait for
    /// the one hash instead of each reading the whole file (a rollback-journal ledger changes with
    /// every commit the app makes, and 10,000 users' ledger is ~750 MB).
    private let hashing = Mutex(())
    /// How the file is hashed: ``LedgerDigest/sha256(ofLedger:)`` (tests count the calls).
    private let hash: @Sendable (String) throws -> String

    /// A memo for the ledger at `path`.
    package init(path: String, hash: @escaping @Sendable (String) throws -> String = LedgerDigest.sha256(ofLedger:)) {
        self.path = path
        self.hash = hash
    }

    /// The ledger's current digest, computed only when its files changed since the last call.
    package func current() throws -> String {
        if let hit = memo() { return hit }
        return try hashing.withLock { _ in
            if let hit = memo() { return hit }   // hashed by the caller this one waited for
            let key = identityKey()
            let digest = try hash(path)
            // Remember it only when nothing changed while hashing.
            if let key, identityKey() == key { entry.withLock { $0 = (key, digest) } }
            return digest
        }
    }

    /// The remembered digest when the files are still the ones it was computed for.
    private func memo() -> String? {
        guard let key = identityKey(), let hit = entry.withLock({ $0 }), hit.key == key else { return nil }
        return hit.digest
    }

    /// The identity (device, inode, size and times) of the ledger's file and of its `-wal` now.
    /// Under WAL the app's commits go to the `-wal` file and leave the main file, and so the
    /// digest, unchanged until a checkpoint: what depends on every row (the admin report) keys
    /// on this as well as on the digest.
    package var currentIdentity: String? { identityKey() }

    private func identityKey() -> String? {
        guard let main = FileIdentity(path: path) else { return nil }
        return main.key + "|" + (FileIdentity(path: path + "-wal")?.key ?? "-")
    }
}
