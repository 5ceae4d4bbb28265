import Foundation

/// Remembers the SHA-256 of large files so that a ledger is hashed once, not on every run.
///
/// An entry is keyed by the file's real path and holds the file's identity when it was hashed:
/// device, inode, size, modification time and status-change time (nanoseconds). Any write to the
/// file changes its mtime and ctime; replacing it (the app's usual atomic save) changes its
/// inode; and unlike mtime, ctime cannot be set back by a program (`touch -d` updates it). So a
/// hit means the bytes are the ones that were hashed. An entry that does not match is ignored
/// and overwritten. A cache that cannot be read or written is silently bypassed: the digest is
/// then simply computed.
///
/// Entries live in `$XDG_CACHE_HOME/ezreport/digests/` (else `~/.cache/ezreport/digests/`), one
/// small text file per ledger path. Set `EZREPORT_DIGEST_CACHE=off` to disable the cache.
package struct DigestCache: Sendable {
    /// The folder holding the entries.
    package let folder: String
    /// Smaller files are always hashed: it takes under a few milliseconds.
    package static let minimumSize: Int64 = 8 << 20

    /// A cache in `folder`.
    package init(folder: String) { self.folder = folder }

    /// The per-user cache, or nil when disabled (`EZREPORT_DIGEST_CACHE=off`) or no home is known.
    package static var standard: DigestCache? {
        let env = ProcessInfo.processInfo.environment
        if env["EZREPORT_DIGEST_CACHE"] == "off" { return nil }
        if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return DigestCache(folder: xdg + "/ezreport/digests") }
        if let home = env["HOME"], home.hasPrefix("/") { return DigestCache(folder: home + "/.cache/ezreport/digests") }
        return nil
    }

    /// The recorded digest of `path` when its identity is still `identity`.
    func lookup(path: String, _ identity: FileIdentity) -> String? {
        guard let data = FileManager.default.contents(atPath: entryPath(path)),
              let text = String(data: data, encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 2, fields[0] == identity.key[...] else { return nil }
        let digest = fields[1].trimmingCharacters(in: .whitespacesAndNewlines)
        guard digest.utf8.count == 64, digest.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return nil }
        return digest
    }

    /// Records `digest` for `path` (written atomically; failures ignored).
    func store(path: String, _ identity: FileIdentity, digest: String) {
        let target = entryPath(path)
        let temp = target + ".tmp-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("\(identity.key) \(digest)\n".utf8).write(to: URL(fileURLWithPath: temp))
            if rename(temp, target) != 0 { try? FileManager.default.removeItem(atPath: temp) }
        } catch {
            try? FileManager.default.removeItem(atPath: temp)
        }
    }

    /// One entry file per real path: the file name is the SHA-256 of the path.
    func entryPath(_ path: String) -> String {
        folder + "/" + FileDigest.sha256(Array(FileIdentity.realPath(path).utf8)) + ".txt"
    }
}

/// What identifies one version of a file's contents without reading them.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    init?(path: String) {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
    }

    /// The identity as one space-free token.
    var key: String { "\(device):\(inode):\(size):\(modified):\(changed)" }

    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
