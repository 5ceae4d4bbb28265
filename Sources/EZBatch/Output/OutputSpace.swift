import Foundation

/// Tells an output that can no longer be written at all (a full disk, a folder made read-only, a
/// process out of file descriptors) apart from one user's bad luck.
///
/// On any of these every user after the one at hand fails the same way: a run that went on
/// published a manifest in which most users "failed" for a reason of the machine's (143 of 196
/// after `chmod 555` of the users folder mid-run; 49 of 49 at `ulimit -n 14`: outside scale test),
/// and `deliver` then recorded them failed. The run stops instead, keeps its journal, writes no
/// manifest and exits 1; once the cause is gone, the same command resumes.
enum OutputSpace {
    /// Below this many free bytes, a failed write is taken for a full file system even when the
    /// library that failed (Cairo, libxlsxwriter) did not pass on `errno`.
    static let nearlyFull: UInt64 = 256 * 1024

    /// Whether the failure `reason` of a user means that the file system holding `folder` refuses
    /// writes (ENOSPC, EDQUOT, or next to no space left).
    static func refusesWrites(after reason: String, folder: String) -> Bool {
        if mentions(reason, [ENOSPC, EDQUOT]) { return true }
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < nearlyFull
    }

    /// Why the run must stop after a user failed with `reason`, or nil when the failure was that
    /// user's own. `folder` is the period folder; new files go into it and into its `users`
    /// folder, and when `reason` names no system error (libxlsxwriter says only "Usually a
    /// permissions error"; Foundation "You don’t have permission"), a file is made and removed
    /// in each to learn whether the machine still lets the run write.
    static func stop(after reason: String, folder: String) -> OutputError? {
        if refusesWrites(after: reason, folder: folder) { return .outputFull(folder: folder, reason: reason) }
        if mentions(reason, [EMFILE, ENFILE]) { return .outOfFileDescriptors(reason: reason) }
        if mentions(reason, [EROFS]) { return .outputUnwritable(folder: folder, reason: reason) }
        for place in [folder, folder + "/users"] {
            guard let code = probe(place) else { continue }
            switch code {
            case ENOSPC, EDQUOT: return .outputFull(folder: folder, reason: reason)
            case EMFILE, ENFILE: return .outOfFileDescriptors(reason: String(cString: strerror(code)))
            case EACCES, EPERM, EROFS:
                return .outputUnwritable(folder: place, reason: String(cString: strerror(code)))
            default: continue
            }
        }
        return nil
    }

    /// Whether `reason` holds the system's words for one of `codes`.
    private static func mentions(_ reason: String, _ codes: [Int32]) -> Bool {
        codes.contains { reason.contains(String(cString: strerror($0))) }
    }

    /// Makes and removes a file in `folder`: nil when that works (or `folder` does not exist),
    /// else the `errno` it failed with.
    private static func probe(_ folder: String) -> Int32? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        let path = folder + "/.write-check.tmp-\(getpid())"   // as AtomicFile names its own: a killed run's is cleaned up
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return errno == EEXIST ? nil : errno }
        close(fd)
        unlink(path)
        return nil
    }
}
