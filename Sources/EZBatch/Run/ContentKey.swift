import EZLedger
import Foundation

/// A cheap key of the ledger's bytes on disk: the main file's SHA-256 (from the digest cache when
/// the file is unchanged) and, for a WAL ledger, the SHA-256 of the whole `-wal` file.
///
/// Every commit changes it: in rollback-journal mode it rewrites the main file, in WAL mode it
/// appends frames to the WAL (and a checkpoint, which rewrites both, changes it too). So when the
/// key equals the one the last complete run recorded, the ledger's content is the content of that
/// run's snapshot. The converse does not hold (a checkpoint changes the key, not the content):
/// a changed key only costs the snapshot, which then decides.
enum ContentKey {
    /// The key of the ledger at `ledgerPath`, or nil when its files cannot be read (never equal then).
    /// Also returns the main file's SHA-256 alone (the ledger's digest as the manifest names it).
    static func of(ledgerPath: String) -> (key: String, main: String)? {
        // The main file through the ledger's kept descriptor: the run's own connection is open on it.
        guard let main = try? LedgerDigest.sha256(ofLedger: ledgerPath) else { return nil }
        let wal = ledgerPath + "-wal"
        let size = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int ?? 0
        guard size > 0 else { return (main, main) }
        guard let log = try? FileDigest.sha256(ofFile: wal, cache: nil) else { return nil }
        return (main + "+wal:" + log, main)
    }

    /// Which file `path` names now (device and inode), or nil when there is none: an atomic save
    /// puts another file there, while the app's commits change the file in place.
    static func file(atPath path: String) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let device = attributes[.systemNumber], let inode = attributes[.systemFileNumber] else { return nil }
        return "\(device):\(inode)"
    }
}
