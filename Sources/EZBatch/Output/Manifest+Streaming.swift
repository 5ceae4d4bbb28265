import Foundation

extension Manifest {
    /// Writes a manifest whose user entries come one at a time from `entries`, without holding
    /// them all: the bytes are exactly those of ``encoded()`` on the whole manifest.
    ///
    /// `shell` carries every field but the users (its `users` must be empty); `entries` is called
    /// with the indices `0..<count` in order. A write that fails (a full disk) throws: it never
    /// uses `FileHandle.write(_:)`, which traps.
    static func stream(shell: Manifest, count: Int, entries: (Int) throws -> UserEntry, to handle: FileHandle) throws {
        precondition(shell.users.isEmpty, "the shell of a streamed manifest has no users")
        let text = String(decoding: try shell.encoded(), as: UTF8.self)
        let emptyUsers = "\"users\" : [\n\n  ]"
        guard count > 0 else { try handle.write(contentsOf: Data(text.utf8)); return }
        guard let slot = text.range(of: emptyUsers) else { throw StreamError.unexpectedShell }
        try handle.write(contentsOf: Data((text[..<slot.lowerBound] + "\"users\" : [\n").utf8))
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var chunk = ""
        for i in 0..<count {
            let element = String(decoding: try encoder.encode(entries(i)), as: UTF8.self)
            // Nested two levels deep: every non-empty line gains four spaces, as the encoder indents.
            for (n, line) in element.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if n > 0 { chunk += "\n" }
                if !line.isEmpty { chunk += "    " + line }
            }
            chunk += i == count - 1 ? "\n" : ",\n"
            if chunk.utf8.count > 1 << 16 { try handle.write(contentsOf: Data(chunk.utf8)); chunk = "" }
        }
        chunk += "  ]" + text[slot.upperBound...]
        try handle.write(contentsOf: Data(chunk.utf8))
    }

    /// The encoder's layout was not what streaming expects (a Foundation change): fail loudly.
    enum StreamError: Error, CustomStringConvertible {
        case unexpectedShell
        var description: String { "cannot stream the manifest: unexpected JSON layout of its shell" }
    }
}

/// Totals of a run, added up as users finish so the manifest never needs every entry at once.
struct TotalsAccumulator {
    private(set) var totals = Manifest.Totals(users: 0, ok: 0, failed: 0, files: 0, bytes: 0, transactionCount: 0, quarantinedRows: 0)
    private var quarantined = Set<String>()

    mutating func add(_ e: Manifest.UserEntry) {
        totals.users += 1
        if e.status == .ok { totals.ok += 1 } else { totals.failed += 1 }
        totals.files += e.files.count
        totals.bytes += e.files.reduce(0) { $0 + $1.bytes }
        totals.transactionCount += e.transactionCount ?? 0
        for q in e.quarantined { quarantined.insert("\(q.table)#\(q.id)") }
        totals.quarantinedRows = quarantined.count
    }

    mutating func add(admin: Manifest.AdminEntry?) {
        guard let admin else { return }
        totals.files += admin.files.count
        totals.bytes += admin.files.reduce(0) { $0 + $1.bytes }
    }
}
