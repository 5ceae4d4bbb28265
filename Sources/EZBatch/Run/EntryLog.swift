import Foundation
import Synchronization

/// Manifest entries kept on disk, one compact JSON line per user, with only their offsets in memory.
///
/// A run appends each user's entry as the user finishes (rendered or skipped), so that
/// - a run killed half-way can resume: the next run reads the log and skips users whose entries
///   and files are intact;
/// - memory stays flat however many users there are: the manifest is streamed from the log at
///   the end instead of being held and encoded whole.
///
/// The in-progress log is `.journal[-K-of-N].jsonl` in the period folder; once manifest.json is
/// written it becomes `.entries[-K-of-N].jsonl`, the entries of the last complete run, which the
/// next run reads to decide whom it can skip. Lines cut short by a kill are ignored.
final class EntryLog: Sendable {
    /// Where one entry's line lies in the log.
    struct Ref: Sendable { var offset: Int64; var length: Int }

    /// The first line of an entries record: what the run was computed from, and its admin entry.
    /// A later run whose snapshot has the same SHA-256 (the same committed content, WAL included)
    /// with the same settings can trust every entry.
    struct Header: Codable, Equatable, Sendable {
        /// The ledger main file's SHA-256 (informative: with a WAL ledger it misses what is in the WAL).
        var ledgerSha256: String
        /// The SHA-256 of the run's snapshot copy: what "unchanged" is decided on. Absent in logs of
        /// earlier versions, which therefore never vouch for their entries.
        var snapshotSha256: String?
        /// ``ContentKey`` of the ledger's files when the run started: equal keys mean equal bytes, so
        /// equal content, and the snapshot need not even be taken.
        var contentKey: String?
        var settings: String
        var admin: Manifest.AdminEntry?
    }
    private struct HeaderLine: Codable { var run: Header }

    let path: String
    private let fd: Int32
    /// The file's length: where the next entry goes. Appends hold it while they write.
    private let end: Mutex<Int64>
    private let encoder = EntryLog.makeEncoder()
    private static func makeEncoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.keyEncodingStrategy = .convertToSnakeCase
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }
    private static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.keyDecodingStrategy = .convertFromSnakeCase
        return d
    }

    /// The in-progress log's name; shards sharing a folder keep one each.
    static func journalName(shard: String?) -> String { ".journal" + (shard.map { "-" + $0 } ?? "") + ".jsonl" }
    /// The last complete run's log name.
    static func entriesName(shard: String?) -> String { ".entries" + (shard.map { "-" + $0 } ?? "") + ".jsonl" }

    /// Opens (or creates) the log at `path` for reading and appending.
    init(path: String) throws(OutputError) {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        var length = Int64(lseek(fd, 0, SEEK_END))
        // A line cut short by a kill would glue itself to the next append: start on a fresh line.
        if length > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, off_t(length - 1)) == 1, last != 0x0A {
                var newline: UInt8 = 0x0A
                if write(fd, &newline, 1) == 1 { length += 1 }
            }
        }
        end = Mutex(length)
    }

    deinit { close(fd) }

    /// Appends one user's entry and says where it went.
    func append(_ entry: Manifest.UserEntry) throws(OutputError) -> Ref {
        guard var line = try? encoder.encode(entry) else { throw .cannotWrite(path: path, reason: "cannot encode the entry of user \(entry.id)") }
        line.append(0x0A)
        return try end.withLock { end throws(OutputError) -> Ref in
            // A full disk first takes part of the line (a short write, errno untouched), then
            // refuses the rest with ENOSPC: keep writing until the system says why it stopped
            // (the reason named a stale errno, "No such file or directory"), and cut a torn
            // line off so the journal ends with whole entries.
            var offset = 0
            while offset < line.count {
                let n = line.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                let reason = n < 0 ? String(cString: strerror(errno)) : "the system wrote nothing"
                _ = ftruncate(fd, off_t(end))
                throw .cannotWrite(path: path, reason: reason)
            }
            let ref = Ref(offset: end, length: line.count - 1)
            end += Int64(line.count)
            return ref
        }
    }

    /// Reads back the entry at `ref`.
    func read(_ ref: Ref) throws(OutputError) -> Manifest.UserEntry {
        guard let entry = try? Self.decoder().decode(Manifest.UserEntry.self, from: Data(try line(ref))) else {
            throw .cannotWrite(path: path, reason: "the run's entry log is damaged at offset \(ref.offset)")
        }
        return entry
    }

    /// The raw bytes of the line at `ref` (without its newline).
    func line(_ ref: Ref) throws(OutputError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: ref.length)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, ref.length, off_t(ref.offset)) }
        guard n == ref.length else { throw .cannotWrite(path: path, reason: "the run's entry log is short at offset \(ref.offset)") }
        return buffer
    }

    /// The header of an entries record, if its first line is one.
    func header() -> Header? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0, let newline = buffer[0..<n].firstIndex(of: 0x0A) else { return nil }
        return (try? Self.decoder().decode(HeaderLine.self, from: Data(buffer[0..<newline])))?.run
    }

    /// Writes `header`, then the lines at `refs` in that order, as a new log at `path`
    /// (atomically): the compact, deterministic record of a finished run.
    func compact(_ refs: [Ref], header: Header, to path: String) throws(OutputError) {
        try Self.compact(refs.map { (self, $0) }, header: header, to: path)
    }

    /// ``compact(_:header:to:)`` of lines taken from several logs, in the order given (a run of
    /// listed users carries the last run's lines for everyone else).
    static func compact(_ lines: [(log: EntryLog, ref: Ref)], header: Header, to path: String) throws(OutputError) {
        guard let headerLine = try? makeEncoder().encode(HeaderLine(run: header)) else {
            throw .cannotWrite(path: path, reason: "cannot encode the run header")
        }
        try AtomicFile.write(to: path, durable: true) { temp throws(OutputError) in
            guard let out = FileHandle(forWritingAtPath: temp) ?? {
                _ = FileManager.default.createFile(atPath: temp, contents: nil)
                return FileHandle(forWritingAtPath: temp)
            }() else { throw OutputError.cannotWrite(path: path, reason: "cannot create the file") }
            defer { try? out.close() }
            // `write(contentsOf:)` throws; `write(_:)` traps on a full disk.
            func put(_ bytes: [UInt8]) throws(OutputError) {
                do { try out.write(contentsOf: bytes) } catch { throw OutputError.cannotWrite(path: path, reason: OutputError.reason(error)) }
            }
            var chunk: [UInt8] = Array(headerLine) + [0x0A]
            for (log, ref) in lines {
                chunk.append(contentsOf: try log.line(ref))
                chunk.append(0x0A)
                if chunk.count > 1 << 16 { try put(chunk); chunk.removeAll(keepingCapacity: true) }
            }
            try put(chunk)
        }
    }

    /// Every complete entry in the log, by user id (the last line for a user wins).
    func index() -> [Int64: Ref] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        let decoder = Self.decoder()
        struct IdOnly: Decodable { var id: Int64 }
        var out: [Int64: Ref] = [:]
        var start = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            for i in 0..<bytes.count where bytes[i] == 0x0A {
                if i > start, let e = try? decoder.decode(IdOnly.self, from: Data(bytes[start..<i])) {
                    out[e.id] = Ref(offset: Int64(start), length: i - start)
                }
                start = i + 1
            }
        }
        return out
    }

    /// Forces the log to disk.
    func sync() { fsync(fd) }
}
