import ArgumentParser
import EZCore
import EZSample
import Foundation

extension EZReport {
    /// `ezreport sample`: writes a deterministic, realistic ledger for demos, tests and benchmarks.
    struct Sample: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate a realistic sample ledger that follows the contract (deterministic).",
            discussion: """
                The same arguments give a byte-identical file. Refuses to overwrite an
                existing file.

                Examples:
                  ezreport sample --out samples/ledger.sqlite
                  ezreport sample --out /tmp/big.sqlite --users 10000 --months 24 \\
                      --end 2026-10 --seed 7
                """
        )

        @Option(name: .long, help: ArgumentHelp("Where to write the ledger (must not exist).", valueName: "path"))
        var out: String

        @Option(name: .long, help: "Number of users.")
        var users: Int = 50

        @Option(name: .long, help: "Number of months of history.")
        var months: Int = 24

        @Option(name: .long, help: ArgumentHelp("The last month generated, YYYY-MM (default: last month).", valueName: "YYYY-MM"))
        var end: String?

        @Option(name: .long, help: "Random seed.")
        var seed: UInt64 = 1

        func endMonth() throws -> (Int, Int) {
            let text = end ?? Period.month(containing: AsOfOptions.today().startOfMonth.adding(days: -1)).name
            let parts = text.split(separator: "-")
            guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1...12).contains(m), (1970...9999).contains(y) else {
                throw ValidationError("--end takes a month YYYY-MM, e.g. 2026-10")
            }
            return (y, m)
        }

        func validate() throws {
            guard users >= 1 else { throw ValidationError("--users must be at least 1") }
            guard months >= 1 else { throw ValidationError("--months must be at least 1") }
            _ = try endMonth()
        }

        func run() throws {
            let (y, m) = try endMonth()
            do {
                let summary = try SampleGenerator.generate(
                    to: out, options: SampleOptions(users: users, months: months, endYear: y, endMonth: m, seed: seed))
                print("Wrote \(out): \(summary.users) users, \(summary.transactions) transactions")
            } catch {
                throw fail(error)
            }
        }
    }
}
