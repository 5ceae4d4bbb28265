import EZCore
import EZLedger
import Foundation

/// Everything one `ezreport deliver` run needs (the command line's options, parsed).
package struct DeliveryOptions: Sendable {
    package var ledgerPath: String
    /// Opens the ledger (nil: the SQLite file at ``ledgerPath``; the command line passes a
    /// PostgreSQL opener for a `postgres://` URL).
    package var openLedger: (@Sendable () throws -> any LedgerStore)?
    package var outFolder: String
    package var period: Period
    /// nil only for a dry run.
    package var smtp: SMTPSettings?
    package var from: MailAddress
    /// The sender's display name (`--from "EZWallet <statements@example.com>"`), if given.
    package var fromName: String?
    /// Also attach statement.xlsx (`--attach pdf,xlsx`).
    package var attachXLSX = false
    /// Record users without a transaction of their own as `skipped` (reason `empty`).
    package var skipEmpty = false
    /// Messages per second at most; 0 = no cap.
    package var rate: Double = 10
    /// Only these users (nil: everyone in the manifest).
    package var userIds: [Int64]?
    /// Write `.eml` files here instead of sending; nothing is recorded.
    package var dryRunFolder: String?
    /// Retry only users whose latest status is `failed` / `uncertain` (for the same statement).
    package var retryFailed = false
    package var retryUncertain = false
    /// Attempts per user per run (4xx replies, dropped connections) and the first back-off, in seconds (doubling).
    package var maxAttempts = 3
    package var backoff: Double = 1
    /// Asked between messages: true once the run should stop (the command line answers true after
    /// SIGTERM or SIGINT). The message being sent is finished and recorded first, so a stop never
    /// leaves a user `sending`, which the next run would have to call `uncertain`.
    package var shouldStop: @Sendable () -> Bool = { false }

    package init(ledgerPath: String, outFolder: String, period: Period, smtp: SMTPSettings?, from: MailAddress) {
        self.ledgerPath = ledgerPath; self.outFolder = outFolder; self.period = period; self.smtp = smtp; self.from = from
    }

    /// The period's folder, `<out>/<period>`.
    var periodFolder: String { outFolder + "/" + period.name }
}

/// What a run did and the period's state afterwards.
package struct DeliveryResult: Sendable {
    /// The period's state for the users in scope, after the run.
    package var sent = 0, skipped = 0, failed = 0, uncertain = 0
    /// Messages this run handed over successfully, and `.eml` files written by a dry run.
    package var sentNow = 0, written = 0
    package var seconds: Double = 0
    /// One line per user left `failed` or `uncertain` (for standard error).
    package var problems: [String] = []
    /// Why the run stopped before its end, when it did (the journal could not be written after
    /// some messages went out; three users in a row deferred): one line, printed before the
    /// problems and the summary.
    package var stopped: String?
    /// 0 every user in scope sent or skipped; 2 otherwise, or when the run ``stopped``.
    package var exitCode: Int32 { failed + uncertain == 0 && pending == 0 && stopped == nil ? 0 : 2 }
    /// Users in scope with no outcome yet (the run stopped early).
    package var pending = 0

    /// Whether this was a `--dry-run` (it sends nothing, so its summary says nothing of sending).
    package var dryRun = false

    /// `sent N, skipped N, failed N, uncertain N, seconds S, sent by this run N`: the period's
    /// state, then what this run itself handed over (the state alone read "sent 18" for a run that
    /// sent one corrected statement: outside operations test).
    package var summaryLine: String {
        var line = "sent \(sent), skipped \(skipped), failed \(failed), uncertain \(uncertain)"
        if pending > 0 { line += ", not attempted \(pending)" }
        line += ", seconds " + String(format: "%.1f", seconds)
        return dryRun ? line : line + ", sent by this run \(sentNow)"
    }
}
