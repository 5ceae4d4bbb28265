import ArgumentParser

/// `--shard K/N`: this process handles the users whose id ≡ K (mod N).
struct ShardArgument: ExpressibleByArgument, Sendable, Equatable {
    /// K, in 0..<N.
    let index: Int
    /// N, at least 1.
    let count: Int

    /// Parses `K/N`, or throws a ValidationError that shows the form.
    init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else {
            throw ValidationError("--shard takes K/N with 0 ≤ K < N, e.g. 0/4 (got '\(text)')")
        }
        index = k
        count = n
    }

    init?(argument: String) {
        guard let parsed = try? ShardArgument(parsing: argument) else { return nil }
        self = parsed
    }

    /// The file-name tag and the manifest's text.
    var description: String { "\(index)/\(count)" }
}
