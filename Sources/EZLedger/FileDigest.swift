import COpenSSL
import Foundation

/// SHA-256 of files and bytes, through OpenSSL's libcrypto.
///
/// Used for the ledger's fingerprint in every report's provenance and for the manifest's file hashes.
public enum FileDigest {
    /// The SHA-256 of the file at `path`, lower-case hex. Reads in 1 MiB chunks; memory stays flat.
    ///
    /// Files of ``DigestCache/minimumSize`` or more are looked up in `cache` first (keyed by the
    /// file's device, inode, size, modification and status-change times) and recorded there after
    /// hashing, so a 750 MB ledger is hashed once, not on every export. Pass `cache: nil` to always hash.
    public static func sha256(ofFile path: String, cache: DigestCache? = .standard) throws -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw LedgerError.cannotOpen(path: path, reason: "it is a directory")
        }
        let identity = cache == nil ? nil : FileIdentity(path: path)
        if let cache, let identity, identity.size >= DigestCache.minimumSize, let hit = cache.lookup(path: path, identity) {
            return hit
        }
        let digest = try hashFile(path)
        // Record only when the file did not change while it was read.
        if let cache, let identity, identity.size >= DigestCache.minimumSize, FileIdentity(path: path) == identity {
            cache.store(path: path, identity, digest: digest)
        }
        return digest
    }

    /// Hashes the whole file.
    static func hashFile(_ path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LedgerError.cannotOpen(path: path, reason: "no such file or not readable")
        }
        defer { try? handle.close() }
        let digest = Digest()
        while true {
            let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { digest.update($0) }
        }
        return digest.hexFinal()
    }

    /// The SHA-256 of `bytes`, lower-case hex.
    public static func sha256(_ bytes: some ContiguousBytes) -> String {
        let digest = Digest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.hexFinal()
    }

    /// Owns one OpenSSL digest context.
    private final class Digest {
        private let context: OpaquePointer
        init() {
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        }
        deinit { EVP_MD_CTX_free(context) }
        func update(_ buffer: UnsafeRawBufferPointer) {
            if buffer.count > 0 { EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) }
        }
        func hexFinal() -> String {
            var out = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &out, &length)
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            var s = [UInt8]()
            s.reserveCapacity(64)
            for b in out.prefix(Int(length)) { s.append(hex[Int(b >> 4)]); s.append(hex[Int(b & 15)]) }
            return String(decoding: s, as: UTF8.self)
        }
    }
}
