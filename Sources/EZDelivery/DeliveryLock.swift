import Foundation

/// An exclusive `flock` on `<period>/.delivery.lock` held for a run: a second `deliver` for the
/// same period fails at once instead of mistaking the first one's `sending` lines for a crash.
/// (The period's `.lock`, which `monthly` holds, is taken too: see ``DeliveryRun``.)
final class DeliveryLock {
    private let fd: Int32

    init(path: String) throws(DeliveryError) {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw .cannotWrite(path: path, reason: "another 'ezreport deliver' is running for this period")
        }
    }

    deinit { close(fd) }
}
