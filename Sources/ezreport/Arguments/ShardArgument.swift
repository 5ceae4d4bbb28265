import ArgumentParser
import EZBatch

/// `--shard K/N`: this process handles the users whose id ≡ K (mod N).
struct ShardArgument: ExpressibleByArgument, Sendable, Equatable {
    /// K, in 0..<N.
    let index: Int
    /// N, at least 1.
    let count: Int

    /// Parses `K/N`, or throws a ValidationError that shows the form.
    init(parsing text: String) throws {
        guard let shard = ShardText(text) else {
            throw ValidationError("--shard takes K/N with 0 ≤ K < N, e.g. 0/4 (got '\(text)')")
        }
        index = shard.index
        count = shard.count
    }

    init?(argument: String) {
        guard let parsed = try? ShardArgument(parsing: argument) else { return nil }
        self = parsed
    }

    /// The file-name tag and the manifest's text.
    var description: String { "\(index)/\(count)" }
}
