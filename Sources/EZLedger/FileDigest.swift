import Crypto
import Foundation

/// SHA-256 of files and bytes, through swift-crypto (BoringSSL's implementation on Linux).
///
/// Used for the ledger's fingerprint in every report's provenance and for the manifest's file hashes.
package enum FileDigest {
    /// A file that could not be hashed, in the system's words ("Too many open files"). The
    /// ledger's own digest says "cannot open ledger" instead (``LedgerDigest``); any other file
    /// (a statement being written) is not a ledger, and was called one.
    package struct FileReadError: Error, Equatable, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "cannot read '\(path)': \(reason)" }
    }

    /// The SHA-256 of the file at `path`, lower-case hex. Reads in 1 MiB chunks; memory stays flat.
    ///
    /// Files of ``DigestCache/minimumSize`` or more are looked up in `cache` first (keyed by the
    /// file's device, inode, size, modification and status-change times) and recorded there after
    /// hashing, so a 750 MB ledger is hashed once, not on every export. Pass `cache: nil` to always hash.
    ///
    /// `keepOpen` reads through ``LedgerFileDescriptors`` (for a ledger that SQLite may have open
    /// in this process: closing a descriptor of it would drop SQLite's locks).
    package static func sha256(ofFile path: String, cache: DigestCache? = .standard, keepOpen: Bool = false) throws -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw FileReadError(path: path, reason: "it is a directory")
        }
        let identity = cache == nil ? nil : FileIdentity(path: path)
        if let cache, let identity, identity.size >= DigestCache.minimumSize, let hit = cache.lookup(path: path, identity) {
            return hit
        }
        let digest = keepOpen ? try LedgerFileDescriptors.withDescriptor(path) { try hashDescriptor($0, path: path) } : try hashFile(path)
        // Record only when the file did not change while it was read.
        if let cache, let identity, identity.size >= DigestCache.minimumSize, FileIdentity(path: path) == identity {
            cache.store(path: path, identity, digest: digest)
        }
        return digest
    }

    /// Hashes the whole file.
    static func hashFile(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        return try hashDescriptor(fd, path: path)
    }

    /// Hashes the whole file open at `fd` with `pread` (the descriptor's offset is left alone, so
    /// concurrent readers of one descriptor do not disturb each other).
    static func hashDescriptor(_ fd: Int32, path: String) throws -> String {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0.prefix(n))) }
            offset += off_t(n)
        }
        return hex(hasher.finalize())
    }

    /// The SHA-256 of `bytes`, lower-case hex.
    package static func sha256(_ bytes: some ContiguousBytes) -> String {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// A SHA-256 fed in pieces, for inputs too large to hold whole (a fingerprint of a user with
    /// 100,000 transactions is ~20 MB of bytes). Feeding the same bytes in any split gives the
    /// same digest as ``sha256(_:)`` over them at once.
    package struct Hasher {
        private var hasher = SHA256()

        package init() {}

        /// Adds `bytes` to what is hashed.
        package mutating func update(_ bytes: some ContiguousBytes) {
            bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        }

        /// The digest of everything added, lower-case hex.
        package func finalize() -> String { FileDigest.hex(hasher.finalize()) }
    }

    /// A digest as lower-case hex.
    static func hex(_ digest: SHA256.Digest) -> String {
        let alphabet: [UInt8] = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(SHA256.byteCount * 2)
        for byte in digest {
            text.append(alphabet[Int(byte >> 4)])
            text.append(alphabet[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
