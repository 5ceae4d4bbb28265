import EZBatch
import Foundation

/// `<out>/<period>/delivery.jsonl`: every delivery step, appended and fsynced before the next
/// step starts, so that after any crash the file says what may have reached the server.
///
/// A line cut short (a kill, a full disk) is removed: a write that fails is undone, and a line a
/// killed run left half written is cut off when the journal is next opened, so that every line of
/// the file is a whole record (`jq` stops at the first line that is not).
final class DeliveryJournal {
    let path: String
    private let fd: Int32
    private let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Opens (creating) the journal for appending.
    init(path: String) throws(DeliveryError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        let size = lseek(fd, 0, SEEK_END)
        if size > 0, let whole = Self.endOfLastLine(path: path, size: size), whole < size {
            guard ftruncate(fd, whole) == 0 else {
                // (deinit closes the descriptor: every stored property is set, so it runs.)
                throw .cannotWrite(path: path, reason: "cannot remove a line left half written: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The offset just past the file's last newline (0 when it has none), read backwards.
    private static func endOfLastLine(path: String, size: off_t) -> off_t? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var end = size
        while end > 0 {
            let start = max(0, end - 65_536)
            guard (try? handle.seek(toOffset: UInt64(start))) != nil,
                  let chunk = try? handle.read(upToCount: Int(end - start)) else { return nil }
            if let last = chunk.lastIndex(of: 0x0A) { return start + off_t(last - chunk.startIndex) + 1 }
            end = start
        }
        return 0
    }

    deinit { close(fd) }

    /// Appends one record and fsyncs it: when this returns, the step survives a crash.
    func append(_ record: DeliveryRecord) throws(DeliveryError) {
        var line: Data
        do { line = try encoder.encode(record) } catch { throw .cannotWrite(path: path, reason: "\(error)") }
        line.append(0x0A)
        try append(raw: line)
    }

    private func append(raw: Data) throws(DeliveryError) {
        let before = lseek(fd, 0, SEEK_END)
        let failure: Int32 = raw.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return errno }
                offset += n
            }
            return fsync(fd) == 0 ? 0 : errno
        }
        if failure != 0 {
            // Undo what part of the line was written (a full disk takes some bytes, then none).
            if before >= 0 { _ = ftruncate(fd, before) }
            throw .cannotWrite(path: path, reason: String(cString: strerror(failure)))
        }
    }

    /// Every complete record in the journal at `path`, in order (none when there is no journal).
    static func records(at path: String) throws(DeliveryError) -> [DeliveryRecord] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .cannotRead(path: path, reason: "permission denied")
        }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(DeliveryRecord.self, from: Data($0)) }
    }

    /// Each user's latest record.
    static func latest(_ records: [DeliveryRecord]) -> [Int64: DeliveryRecord] {
        var out: [Int64: DeliveryRecord] = [:]
        for r in records { out[r.userId] = r }
        return out
    }
}
