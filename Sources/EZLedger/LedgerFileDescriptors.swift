import Foundation
import Synchronization

/// Read-only descriptors of ledger files, opened once and kept open while the file at the path
/// stays the same, for reading a ledger's bytes (its digest, its header) beside SQLite.
///
/// POSIX record locks belong to the process and the file, not to a descriptor: closing *any*
/// descriptor of a file drops every lock the process holds on it. SQLite's read lock on a WAL
/// ledger is what tells the app's last connection not to checkpoint and delete the `-wal` and
/// `-shm` files under a reader; hashing the ledger with a descriptor of its own and closing it
/// silently dropped that lock, and a server then went on reading a deleted WAL — old figures,
/// ready, for ever. Reading through a descriptor that is never closed while the file is in use
/// leaves SQLite's locks alone. (The `-wal` file carries no lock: SQLite locks the main file and
/// the `-shm`.)
package enum LedgerFileDescriptors {
    private struct Held {
        let device: UInt64
        let inode: UInt64
        let fd: Int32
    }
    private static let held = Mutex<[String: Held]>([:])

    /// Runs `body` with a read-only descriptor of the file now at `path`. A descriptor of a file
    /// the path named before (replaced since, by the app's atomic save) is closed: nothing writes
    /// that file any more.
    ///
    /// - Throws: ``LedgerError/cannotOpen(path:reason:sqliteCode:)`` when the file cannot be opened.
    package static func withDescriptor<T>(_ path: String, _ body: (Int32) throws -> T) throws -> T {
        var now = stat()
        let exists = stat(path, &now) == 0
        let fd: Int32 = try held.withLock { held in
            if exists, let h = held[path], h.device == UInt64(now.st_dev), h.inode == UInt64(now.st_ino) { return h.fd }
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)   // a FIFO must not block: refused below
            guard fd >= 0 else {
                throw LedgerError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
            }
            var opened = stat()
            guard fstat(fd, &opened) == 0, (opened.st_mode & S_IFMT) == S_IFREG else {
                close(fd)
                throw LedgerError.cannotOpen(path: path, reason: "not a regular file")
            }
            if let previous = held[path] {
                guard previous.device != UInt64(opened.st_dev) || previous.inode != UInt64(opened.st_ino) else {
                    close(fd)   // the same file after all (it was replaced back and forth): keep the first
                    return previous.fd
                }
                close(previous.fd)
            }
            held[path] = Held(device: UInt64(opened.st_dev), inode: UInt64(opened.st_ino), fd: fd)
            return fd
        }
        return try body(fd)
    }

    /// The first `count` bytes of the ledger at `path` (fewer if it is shorter).
    package static func prefix(_ path: String, count: Int) throws -> [UInt8] {
        try withDescriptor(path) { fd in
            var bytes = [UInt8](repeating: 0, count: count)
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, 0) }
            return Array(bytes.prefix(max(0, n)))
        }
    }
}
