import Foundation

/// An append-only record of the users a run has finished, so that a run killed half-way can be
/// resumed: the next run reads it and skips users whose entries and files are intact.
///
/// One JSON object per line, appended and flushed as each user finishes; a line cut short by a
/// kill is ignored when read. It lives in the period folder as `.journal.jsonl` (hidden) and is
/// removed once manifest.json is written.
final class RunJournal: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private let encoder: JSONEncoder

    /// The journal's file name; shards sharing a folder keep one each.
    static func fileName(shard: String?) -> String { ".journal" + (shard.map { "-" + $0 } ?? "") + ".jsonl" }

    init(periodFolder: String, shard: String?) throws(OutputError) {
        let path = periodFolder + "/" + Self.fileName(shard: shard)
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    deinit { close(fd) }

    /// Appends one finished user's entry.
    func append(_ entry: Manifest.UserEntry) {
        guard var line = try? encoder.encode(entry) else { return }
        line.append(0x0A)
        lock.lock()
        defer { lock.unlock() }
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// The entries recorded in a period folder's journal (complete lines only), last one per user wins.
    static func read(periodFolder: String, shard: String?) -> [Int64: Manifest.UserEntry] {
        guard let data = FileManager.default.contents(atPath: periodFolder + "/" + fileName(shard: shard)) else { return [:] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        var out: [Int64: Manifest.UserEntry] = [:]
        for line in data.split(separator: 0x0A) {
            if let e = try? decoder.decode(Manifest.UserEntry.self, from: Data(line)) { out[e.id] = e }
        }
        return out
    }

    /// Removes the journal once the manifest is written.
    static func remove(periodFolder: String, shard: String?) { unlink(periodFolder + "/" + fileName(shard: shard)) }
}
