import ArgumentParser
import EZBatch
import EZCore
import EZDelivery
import Foundation

extension EZReport {
    /// `ezreport deliver`: e-mail each user the statement `monthly` wrote, exactly once.
    struct Deliver: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deliver",
            abstract: "E-mail every user the statement the monthly run wrote, exactly once.",
            discussion: """
                Reads <out>/<period>/manifest.json (never renders), sends each user whose
                entry is ok their statement.pdf through libcurl over one connection, and
                records every step in <out>/<period>/delivery.jsonl (delivery.json holds
                each user's latest status). A re-run sends nothing already sent for the
                same statement; 'uncertain' users are never resent automatically.
                Credentials: EZREPORT_SMTP_USER and EZREPORT_SMTP_PASSWORD (or
                --smtp-password-file). Exit codes: 0 every user sent or skipped; 2 some
                failed or uncertain, or the run stopped after sending some (a full
                disk); 1 could not run (nothing sent); 64 bad arguments.

                Examples:
                  ezreport deliver --db ledger.sqlite --period 2026-10 \\
                      --smtp smtp://mail.example.com:587 \\
                      --from "EZWallet <statements@example.com>"
                  ezreport deliver --db ledger.sqlite --period 2026-10 \\
                      --from statements@example.com --dry-run /tmp/eml
                  ezreport deliver ... --retry-failed
                """
        )

        @OptionGroup var ledger: LedgerOptions

        @OptionGroup var period: PeriodOptions

        @Option(name: .long, help: ArgumentHelp("The folder monthly wrote to.", valueName: "dir"))
        var out: String = "Reports"

        @Option(name: .long, help: ArgumentHelp("smtp://host:port (STARTTLS required) or smtps://host:port.", valueName: "url"),
                transform: SMTPURLArgument.init(parsing:))
        var smtp: SMTPURLArgument?

        @Flag(name: .customLong("smtp-insecure"), help: "Allow a plain-text session when the server offers no STARTTLS.")
        var smtpInsecure = false

        @Option(name: .customLong("smtp-password-file"), help: ArgumentHelp("Read the SMTP password from this file (instead of EZREPORT_SMTP_PASSWORD).", valueName: "path"))
        var smtpPasswordFile: String?

        @Option(name: .customLong("smtp-ca-file"), help: ArgumentHelp("Trust the CA certificates in this PEM file (a private CA).", valueName: "path"))
        var smtpCAFile: String?

        @Option(name: .customLong("smtp-timeout"), parsing: .unconditional, help: ArgumentHelp("Seconds to wait for each reply of the server (a message whose data is out is then uncertain).", valueName: "seconds"))
        var smtpTimeout: Int = 120

        @Option(name: .long, help: ArgumentHelp("The sender: an address, or \"Display Name <address>\" (the Message-ID uses its domain).", valueName: "address"),
                transform: SenderAddress.init(parsing:))
        var from: SenderAddress

        @Option(name: .long, help: ArgumentHelp("Attachments: pdf or pdf,xlsx. (default: pdf)", valueName: "list"), transform: AttachmentList.init(parsing:))
        var attach: AttachmentList = .pdf

        @Flag(name: .customLong("skip-empty"), help: "Send nothing to users without a transaction of their own in the period.")
        var skipEmpty = false

        // Parsed by a transform so that the help says "10", as the docs do, not Double's "10.0".
        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("At most N messages per second (0: no cap). (default: 10)", valueName: "n"),
                transform: Deliver.parseRate)
        var rate: Double = 10

        /// A number of messages per second (checked for sign in `validate`).
        static func parseRate(_ text: String) throws -> Double {
            guard let value = Double(text) else { throw ValidationError("--rate must be 0 (no cap) or a positive number (got '\(text)')") }
            return value
        }

        @Option(name: .long, help: ArgumentHelp("Only these user ids (comma-separated).", valueName: "ids"), transform: UserIdList.init(parsing:))
        var users: UserIdList?

        @Option(name: .customLong("dry-run"), help: ArgumentHelp("Write each message to DIR/<id>-<username>.eml instead of sending; record nothing.", valueName: "dir"))
        var dryRun: String?

        @Flag(name: .customLong("retry-failed"), help: "Retry only the users whose delivery failed.")
        var retryFailed = false

        @Flag(name: .customLong("retry-uncertain"), help: "Resend to the users whose delivery is uncertain (they may have it already).")
        var retryUncertain = false

        func validate() throws {
            try requireOutputFolderNotStandardOutput(out)
            guard rate >= 0, rate.isFinite else { throw ValidationError("--rate must be 0 (no cap) or a positive number") }
            guard (1...86_400).contains(smtpTimeout) else { throw ValidationError("--smtp-timeout takes seconds from 1 to 86400, e.g. 120") }
            guard dryRun != nil || smtp != nil else { throw ValidationError("--smtp is required (or --dry-run DIR)") }
            if let problem = smtp?.problem { throw ValidationError(problem) }
            // libcurl logs in only with a user: a password alone would be dropped without a word,
            // and the server would then refuse every message.
            let env = ProcessInfo.processInfo.environment
            if dryRun == nil, let smtp, smtpPasswordFile != nil || env["EZREPORT_SMTP_PASSWORD"] != nil,
               (env["EZREPORT_SMTP_USER"] ?? "").isEmpty, !SMTPSettings.hasUserInfo(smtp.url) {
                throw ValidationError("an SMTP password is given (\(smtpPasswordFile != nil ? "--smtp-password-file" : "EZREPORT_SMTP_PASSWORD")) "
                                      + "but no user: set EZREPORT_SMTP_USER")
            }
        }

        func smtpSettings() throws -> SMTPSettings? {
            guard dryRun == nil, let smtp else { return nil }
            let env = ProcessInfo.processInfo.environment
            var password = env["EZREPORT_SMTP_PASSWORD"]
            if let file = smtpPasswordFile {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw fail(ValidationError("cannot read --smtp-password-file '\(file)'"))
                }
                // Its first line, as --db-password-file's (a second line was sent as part of the password).
                // ("\r\n" is one Swift character: a split on "\n" kept it in the password.)
                password = String(String(decoding: data, as: UTF8.self)
                    .split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? "")
            }
            let user = env["EZREPORT_SMTP_USER"].flatMap { $0.isEmpty ? nil : $0 }
            var settings = SMTPSettings(url: smtp.url, insecure: smtpInsecure, user: user, password: password, caFile: smtpCAFile)
            settings.replyTimeout = smtpTimeout
            settings.messageTimeout = smtpTimeout + 60
            return settings
        }

        func run() throws {
            var options = DeliveryOptions(ledgerPath: ledger.db, outFolder: out, period: period.resolvedPeriod,
                                          smtp: try smtpSettings(), from: from.address)
            if ledger.isPostgres { options.openLedger = try ledger.opener() }
            options.fromName = from.name
            options.attachXLSX = attach == .pdfAndXLSX
            options.skipEmpty = skipEmpty
            options.rate = rate
            options.userIds = users?.ids
            options.dryRunFolder = dryRun
            options.retryFailed = retryFailed
            options.retryUncertain = retryUncertain
            let stop = StopSignals { printError("stopping after the message being sent (a second signal stops at once)") }
            options.shouldStop = { stop.isRequested }
            let result: DeliveryResult
            do { result = try DeliveryRun.run(options) } catch { throw fail(error) }
            if let stopped = result.stopped { printError(stopped) }
            for line in result.problems { printError(line) }
            if let dryRun { printError("dry run: \(result.written) messages written to \(dryRun)") }
            var stderr = StandardError()
            print(result.summaryLine, to: &stderr)
            if result.exitCode != 0 { throw ExitStatus(rawValue: result.exitCode) ?? .someFailed }
        }
    }
}
