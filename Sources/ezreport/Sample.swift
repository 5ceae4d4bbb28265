import ArgumentParser
import EZCore
import EZPostgres
import EZSample
import Foundation

extension EZReport {
    /// `ezreport sample`: writes a deterministic, realistic ledger for demos, tests and benchmarks.
    struct Sample: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sample",
            abstract: "Generate a realistic sample ledger that follows the contract (deterministic).",
            discussion: """
                The same arguments give a byte-identical file. Refuses to overwrite an
                existing file. With --out postgres://USER@HOST:PORT/DBNAME the same rows go
                into an empty PostgreSQL database, schema included (samples/schema.postgres.sql),
                password from PGPASSWORD or --out-password-file.

                Examples:
                  ezreport sample --out samples/ledger.sqlite
                  ezreport sample --out /tmp/big.sqlite --users 10000 --months 24 \\
                      --end 2026-10 --seed 7
                  PGPASSWORD=… ezreport sample --out postgres://app@127.0.0.1:5432/wallet
                """
        )

        @Option(name: .long, help: ArgumentHelp("Where to write the ledger: a file (must not exist) or an empty PostgreSQL database's URL.", valueName: "path|url"))
        var out: String

        @Option(name: .customLong("out-password-file"), help: ArgumentHelp(
            "File whose first line is the PostgreSQL password for a postgres:// --out (default: $PGPASSWORD).", valueName: "path"))
        var outPasswordFile: String?

        @Option(name: .long, parsing: .unconditional, help: "Number of users.")
        var users: Int = 50

        @Option(name: .long, parsing: .unconditional, help: "Number of months of history.")
        var months: Int = 24

        @Option(name: .long, help: ArgumentHelp("The last month generated, YYYY-MM (default: last month).", valueName: "YYYY-MM"))
        var end: String?

        @Option(name: .long, parsing: .unconditional, help: "Random seed.")
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
            guard (1...1200).contains(months) else { throw ValidationError("--months must be from 1 to 1200 (100 years)") }
            _ = try endMonth()
        }

        func run() throws {
            let (y, m) = try endMonth()
            let options = SampleOptions(users: users, months: months, endYear: y, endMonth: m, seed: seed)
            do {
                guard PostgresLocation.isURL(out) else {
                    let summary = try SampleGenerator.generate(to: out, options: options)
                    print("Wrote \(out): \(summary.users) users, \(summary.transactions) transactions")
                    return
                }
                // The same rows as the file would hold: generated into a private file, then copied.
                let location = try PostgresLocation(url: out, password: PostgresLocation.password(file: outPasswordFile, url: out))
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezreport-sample-\(getpid())").path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(atPath: folder) }
                let file = folder + "/ledger.sqlite"
                let summary = try SampleGenerator.generate(to: file, options: options)
                _ = try PostgresLedgerLoader.load(sqlite: file, into: location)
                print("Wrote \(out): \(summary.users) users, \(summary.transactions) transactions")
            } catch {
                throw fail(error)
            }
        }
    }
}
