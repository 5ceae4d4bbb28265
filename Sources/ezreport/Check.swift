import ArgumentParser
import EZCore
import EZLedger

extension EZReport {
    /// `ezreport check`: validates a ledger and prints a data-quality summary.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate a ledger against the contract and summarise its data quality.",
            discussion: """
                Prints the rows per table and the quarantined rows grouped by reason with
                their first ids. Exit 0 when clean, 3 when rows were quarantined, 1 when
                the file cannot be used at all.

                Example:
                  ezreport check --db samples/ledger.sqlite
                  PGPASSWORD=… ezreport check --db postgres://report@127.0.0.1:5432/wallet
                """
        )

        @OptionGroup var ledger: LedgerOptions

        func run() throws {
            let health: LedgerHealth
            do {
                health = try ledger.opener()().health()
            } catch let error as ExitStatus {
                throw error
            } catch {
                printError("\(error)")
                throw ExitStatus.unusable
            }
            print("Ledger \(ledger.db)")
            for (table, rows) in health.rowCounts {
                print("  \(table.padding(toLength: 18, withPad: " ", startingAt: 0)) \(rows) rows")
            }
            if health.isClean {
                print("Clean: no row breaks the ledger contract.")
                return
            }
            // A bad statement_email is read by `deliver` alone: the statement is made, the e-mail is not.
            let emailOnly = health.quarantined.filter { $0.table == "users" && $0.reason.hasPrefix("statement_email ") }.count
            print("Quarantined: \(health.quarantined.count) rows (left out of every figure"
                  + (emailOnly > 0 ? "; \(emailOnly) only stop\(emailOnly == 1 ? "s" : "") the user's statement e-mail)" : ")"))
            for g in health.groupedQuarantine() {
                let ids = g.firstIds.map(String.init).joined(separator: ", ") + (g.count > g.firstIds.count ? ", …" : "")
                print("  \(g.count) × \(g.table): \(g.reason) — ids \(ids)")
            }
            throw ExitStatus.quarantined
        }
    }
}
