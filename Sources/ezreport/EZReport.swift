import ArgumentParser
import EZBatch

/// The `ezreport` command: the root that dispatches to the subcommands.
///
/// Every command sets its `commandName`: without one, swift-argument-parser derives it with
/// `String(describing:)` on the type, whose first use per type scans every protocol conformance
/// in the (statically linked) binary, ~3 ms of each run's start for the whole tree.
@main
struct EZReport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ezreport",
        abstract: "Reports for EZWallet ledgers: monthly statements, on-demand exports and the admin usage report.",
        discussion: """
            Exit codes: 0 done; 1 could not run at all (bad or unreadable ledger,
            unwritable output); 2 some users failed; 3 done, with quarantined rows;
            64 bad arguments.

            Examples (a sample ledger, then a month's statements, one export, the server):
              ezreport sample --out ledger.sqlite --end 2026-10
              ezreport check --db ledger.sqlite
              ezreport monthly --db ledger.sqlite --period 2026-10 --out Reports
              ezreport export --db ledger.sqlite --user 2 --period 2026-10 \\
                  --format pdf --out - > statement.pdf
              ezreport serve --db ledger.sqlite --jwt-secret-file secret
            """,
        version: EngineVersion.current,
        subcommands: [Monthly.self, Export.self, Admin.self, Check.self, Sample.self, ManifestCommand.self, Deliver.self, Serve.self, Token.self]
    )
}
