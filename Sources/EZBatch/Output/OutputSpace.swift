import Foundation

/// Tells a full output file system apart from one user's bad luck.
enum OutputSpace {
    /// Below this many free bytes, a failed write is taken for a full file system even when the
    /// library that failed (Cairo, libxlsxwriter) did not pass on `errno`.
    static let nearlyFull: UInt64 = 256 * 1024

    /// Whether the failure `reason` of a user means that the file system holding `folder` refuses
    /// writes (ENOSPC, EDQUOT, or next to no space left): the run should then stop starting users.
    static func refusesWrites(after reason: String, folder: String) -> Bool {
        for code in [ENOSPC, EDQUOT] where reason.contains(String(cString: strerror(code))) { return true }
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < nearlyFull
    }
}
