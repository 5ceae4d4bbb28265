import Foundation

/// One run per period folder (and shard) at a time: an advisory `flock` on `.lock[-K-of-N]` in
/// the period folder, held for the whole run.
///
/// The kernel releases a `flock` when its holder exits, however it exits (a `kill -9` too), so a
/// lock is never stale and there is no file to delete by hand: the lock file itself stays and is
/// reused. After locking, the holder writes its pid and its command (`4242 deliver`) into the file
/// so that a refused run can say who holds the folder, and empties it again when it lets go.
///
/// ```swift
/// let lock = try RunLock(folder: "Reports/2026-10", shard: nil, waitSeconds: 0, command: "monthly")
/// // … the run …
/// _ = lock   // released when `lock` is freed (or the process ends)
/// ```
package final class RunLock: Sendable {
    /// The lock file's path.
    package let path: String
    private let fd: Int32
    /// Whether this is a shard's shared hold of the folder's lock.
    private let shared: Bool

    /// Who holds a lock, as its holder wrote it into the lock file.
    package struct Holder: Equatable, Sendable, CustomStringConvertible {
        /// The holder's process id.
        package var pid: Int32
        /// The `ezreport` command holding it (`monthly`, `deliver`, `admin`); nil when a holder
        /// wrote only its pid (an older ezreport).
        package var command: String?

        /// `deliver, pid 4242`, or `pid 4242` when the command is not known.
        package var description: String { command.map { "\($0), pid \(pid)" } ?? "pid \(pid)" }

        /// The lock file's text for this holder: `4242 deliver` and a newline.
        var text: String { "\(pid)" + (command.map { " " + $0 } ?? "") + "\n" }

        /// Reads a lock file's text: a pid, then optionally the command (one word of letters).
        init?(text: String) {
            let words = text.split(whereSeparator: \.isWhitespace)
            guard let first = words.first, let pid = Int32(first), pid > 0 else { return nil }
            self.pid = pid
            let command = words.dropFirst().first.map(String.init)
            self.command = command.flatMap { $0.allSatisfy { $0.isLetter && $0.isASCII } ? $0 : nil }
        }

        init(pid: Int32, command: String?) {
            self.pid = pid
            self.command = command
        }
    }

    /// The lock file's name; shards sharing a folder lock one each.
    static func fileName(shard: String?) -> String { ".lock" + (shard.map { "-" + $0 } ?? "") }

    /// Takes the folder's lock, waiting up to `waitSeconds` for a running holder to finish.
    ///
    /// - Throws: ``RunLockError/held(folder:holder:seconds:)`` when another run still holds it after
    ///   the wait; ``OutputError`` when the lock file cannot be opened.
    ///
    /// `command` is the `ezreport` command taking the lock (`monthly`, `deliver`, `admin`): written
    /// beside the pid, so that a run refused says which command it waits for.
    ///
    /// `shared` takes the lock shared rather than exclusive: a shard takes the folder's `.lock`
    /// shared (and its own `.lock-K-of-N` exclusive), so that shards run side by side while a
    /// whole run, which writes every shard's users, excludes them and is excluded by them.
    package init(folder: String, shard: String?, shared: Bool = false, waitSeconds: Double, command: String) throws {
        path = folder + "/" + Self.fileName(shard: shard)
        self.shared = shared
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let deadline = Date().addingTimeInterval(max(0, waitSeconds))
        while flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(fd)
                throw OutputError.cannotWrite(path: path, reason: "cannot lock: " + String(cString: strerror(failure)))
            }
            if Date() >= deadline {
                // Shards hold the folder's lock shared and write no pid into it; each writes its own
                // into its `.lock-K-of-N`, so a whole run refused by shards names one of them.
                let holder = Self.holder(fd) ?? (shared ? nil : Self.shardHolder(in: folder))
                close(fd)
                throw RunLockError.held(folder: folder, holder: holder, seconds: waitSeconds)
            }
            usleep(50_000)
        }
        // Ours now: say who we are (the previous holder's, if any, is overwritten). Shared holders
        // are several at once and write nothing.
        let text = Array(Holder(pid: getpid(), command: command).text.utf8)
        if !shared, ftruncate(fd, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        }
    }

    deinit {
        // A finished run leaves an empty lock file (the folder's bytes do not depend on a pid); a killed
        // run leaves its pid, which the next holder overwrites.
        if !shared { _ = ftruncate(fd, 0) }
        flock(fd, LOCK_UN)
        close(fd)
    }

    /// The shard run holding one of `folder`'s `.lock-K-of-N` files, if one does.
    private static func shardHolder(in folder: String) -> Holder? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        for name in names.sorted() where name.hasPrefix(".lock-") {
            let fd = open(folder + "/" + name, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if flock(fd, LOCK_SH | LOCK_NB) == 0 {
                flock(fd, LOCK_UN)   // free: no shard holds this one
                continue
            }
            if let holder = holder(fd) { return holder }
        }
        return nil
    }

    /// The holder written in the lock file (nil when it has not written itself yet).
    private static func holder(_ fd: Int32) -> Holder? {
        for attempt in 0..<5 {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            if n > 0, let holder = Holder(text: String(decoding: buffer[0..<n], as: UTF8.self)) {
                return holder
            }
            // The holder locks first and writes its pid just after: give it a moment.
            if attempt < 4 { usleep(20_000) }
        }
        return nil
    }
}

/// Another run is writing the same period folder.
package enum RunLockError: Error, Equatable, CustomStringConvertible {
    /// `folder` is locked by `holder` (nil if it has not said who it is), still after `seconds`.
    case held(folder: String, holder: RunLock.Holder?, seconds: Double)

    package var description: String {
        switch self {
        case .held(let folder, let holder, let seconds):
            let waited = seconds > 0 ? " (waited \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s)" : ""
            return "\(RunLockError.anotherRun(holder)) holds '\(folder)'\(waited); wait for it to finish or pass --wait SECONDS"
        }
    }

    /// `another run (deliver, pid 4242)`, or `another run` when its holder is not known: how every
    /// command refused by a held folder names who holds it.
    package static func anotherRun(_ holder: RunLock.Holder?) -> String {
        "another run" + (holder.map { " (\($0))" } ?? "")
    }
}
