/// A shard as the command line and the manifest write it, `K/N`: the users whose id ≡ K (mod N).
package struct ShardText: Sendable, Equatable, CustomStringConvertible {
    /// K, in 0..<N.
    package let index: Int
    /// N, at least 1.
    package let count: Int

    /// Reads `K/N` with 0 ≤ K < N; nil for anything else.
    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(k) else { return nil }
        index = k
        count = n
    }

    /// `K/N`, as the manifest's `shard` holds it.
    package var description: String { "\(index)/\(count)" }
}
