import EZCore
import Foundation

/// Everything one `ezreport deliver` run needs (the command line's options, parsed).
public struct DeliveryOptions: Sendable {
    public var ledgerPath: String
    public var outFolder: String
    public var period: Period
    /// nil only for a dry run.
    public var smtp: SMTPSettings?
    public var from: MailAddress
    /// Also attach statement.xlsx (`--attach pdf,xlsx`).
    public var attachXLSX = false
    /// Record users without a transaction of their own as `skipped` (reason `empty`).
    public var skipEmpty = false
    /// Messages per second at most; 0 = no cap.
    public var rate: Double = 10
    /// Only these users (nil: everyone in the manifest).
    public var userIds: [Int64]?
    /// Write `.eml` files here instead of sending; nothing is recorded.
    public var dryRunFolder: String?
    /// Retry only users whose latest status is `failed` / `uncertain` (for the same statement).
    public var retryFailed = false
    public var retryUncertain = false
    /// Attempts per user per run (4xx replies, dropped connections) and the first back-off, in seconds (doubling).
    public var maxAttempts = 3
    public var backoff: Double = 1

    public init(ledgerPath: String, outFolder: String, period: Period, smtp: SMTPSettings?, from: MailAddress) {
        self.ledgerPath = ledgerPath; self.outFolder = outFolder; self.period = period; self.smtp = smtp; self.from = from
    }

    /// The period's folder, `<out>/<period>`.
    var periodFolder: String { outFolder + "/" + period.name }
}

/// What a run did and the period's state afterwards.
public struct DeliveryResult: Sendable {
    /// The period's state for the users in scope, after the run.
    public var sent = 0, skipped = 0, failed = 0, uncertain = 0
    /// Messages this run handed over successfully, and `.eml` files written by a dry run.
    public var sentNow = 0, written = 0
    public var seconds: Double = 0
    /// One line per user left `failed` or `uncertain` (for standard error).
    public var problems: [String] = []
    /// 0 every user in scope sent or skipped; 2 otherwise.
    public var exitCode: Int32 { failed + uncertain == 0 && pending == 0 ? 0 : 2 }
    /// Users in scope with no outcome yet (the run stopped early).
    public var pending = 0

    /// `sent N, skipped N, failed N, uncertain N, seconds S`.
    public var summaryLine: String {
        var line = "sent \(sent), skipped \(skipped), failed \(failed), uncertain \(uncertain)"
        if pending > 0 { line += ", not attempted \(pending)" }
        return line + ", seconds " + String(format: "%.1f", seconds)
    }
}
