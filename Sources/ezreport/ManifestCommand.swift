import ArgumentParser
import EZBatch
import Foundation

extension EZReport {
    /// `ezreport manifest`: tools for run manifests.
    struct ManifestCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "manifest",
            abstract: "Work with run manifests.",
            discussion: """
                A sharded monthly run (--shard K/N) writes one manifest.shard-K-of-N.json per shard; \
                merge joins them into the manifest.json one whole run would have written, which \
                'ezreport deliver' and 'sha256sum --check' read.

                Example:
                  ezreport manifest merge Reports/2026-10/manifest.shard-*.json \\
                      --out Reports/2026-10/manifest.json
                """,
            subcommands: [Merge.self]
        )

        /// `ezreport manifest merge`: joins the manifests of a sharded run.
        struct Merge: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "merge",
                abstract: "Join the manifests of a sharded run into the manifest one run would write.",
                discussion: """
                    Every shard of the run must be given (each manifest.shard-K-of-N.json, K from 0 to N-1): \
                    a missing one is refused (exit 1), since its users would be missing from the merge \
                    and 'ezreport deliver' would send them nothing.

                    Example:
                      ezreport manifest merge Reports/2026-10/manifest.shard-*.json \\
                          --out Reports/2026-10/manifest.json
                    """
            )

            @Argument(help: "The shard manifests.")
            var manifests: [String]

            @Option(name: .long, help: "Where to write the merged manifest (default: standard output).")
            var out: String?

            @Flag(name: .long, help: "Merge even when a shard of the run has no manifest among those given (its users are then missing from the merge).")
            var allowMissingShards = false

            func run() throws {
                do {
                    let parts = try manifests.map { path -> Manifest in
                        guard let data = FileManager.default.contents(atPath: path) else {
                            throw ValidationError("cannot read manifest '\(path)'")
                        }
                        do { return try Manifest.decode(data) } catch { throw ValidationError("'\(path)' is not an ezreport manifest") }
                    }
                    let merged = try Manifest.merge(parts, allowingMissingShards: allowMissingShards).encoded()
                    if let out { try AtomicFile.write(merged, to: out, durable: true) } else { try StandardOutput.write([UInt8](merged)) }
                } catch {
                    throw fail(error)
                }
            }
        }
    }
}
