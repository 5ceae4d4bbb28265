import EZBatch
import Foundation

/// Sends one user's statement with the journal discipline: `sending` is fsynced once the server
/// accepts the data and before its first byte goes out; then `sent`, `failed` or `uncertain`.
/// 4xx replies and dropped connections are retried with exponential back-off, then deferred to
/// the next run; 5xx fails at once; a break after the data is `uncertain`.
struct MessageSender {
    let options: DeliveryOptions
    let journal: DeliveryJournal
    let connection: SMTPConnection?
    let log: @Sendable (String) -> Void
    private var limiter: RateLimiter
    private(set) var sentNow = 0
    /// Set when consecutive users were deferred by the server itself (``SMTPError/isAboutTheServer``):
    /// it is not taking mail now, and the run stops early.
    private(set) var serverGone = false
    private var unreachableInARow = 0
    static let unreachableLimit = 3

    init(options: DeliveryOptions, journal: DeliveryJournal, connection: SMTPConnection?, log: @escaping @Sendable (String) -> Void) {
        self.options = options; self.journal = journal; self.connection = connection; self.log = log
        limiter = RateLimiter(perSecond: options.rate)
    }

    mutating func deliver(_ job: DeliveryPlan.Job, manifest: Manifest) throws(DeliveryError) {
        let journal = self.journal   // for the `sending` line written from inside the transfer
        func record(_ status: DeliveryRecord.Status, reason: String? = nil, code: Int? = nil, text: String? = nil,
                    attempt: Int? = nil) throws(DeliveryError) {
            try journal.append(DeliveryRun.stamped(DeliveryRecord(
                userId: job.entry.id, address: job.address.text, messageId: job.messageID, statementSha256: job.statementSHA256,
                status: status, reason: reason, smtpCode: code, smtpText: text, attempt: attempt)))
        }
        let message: Data
        do { message = try StatementMessage.build(job, options: options, date: Date()) } catch {
            try record(.failed, reason: error.reason)
            return
        }
        guard let connection else { return }
        for attempt in 1...options.maxAttempts {
            limiter.wait()
            // `sending` is recorded when the server has said go ahead with the data and before
            // its first byte leaves (written before MAIL FROM, a run killed before any data made
            // the user `uncertain`, a message that cannot have been sent: outside delivery test).
            var unwritten: DeliveryError?
            let outcome: Result<(code: Int, text: String?), SMTPError>
            do {
                outcome = .success(try connection.send(message, from: options.from, to: job.address, beforeData: {
                    do throws(DeliveryError) { try record(.sending, attempt: attempt); return true } catch { unwritten = error; return false }
                }))
            } catch { outcome = .failure(error) }
            if let unwritten { throw unwritten }   // the journal cannot be written: nothing of the message left
            switch outcome {
            case .success(let reply):
                sentNow += 1  // the server has it, even if the line below cannot be written
                try record(.sent, code: reply.code, text: reply.text, attempt: attempt)
                unreachableInARow = 0
                log("sent user \(job.entry.id) (attempt \(attempt))")
                return
            case .failure(let error):
                let code = error.smtpCode == 0 ? nil : error.smtpCode
                switch error.kind {
                case .permanent where error.smtpCode == SMTPError.authenticationRequired:
                    // Every other user would be refused alike: stop the run (exit 1 when nothing
                    // went out yet). This user's line lets the next plain run send it again.
                    try record(.failed, reason: error.description, code: code, text: error.smtpText, attempt: attempt)
                    if sentNow > 0 { serverGone = true; return }
                    throw .serverUnusable(url: DeliveryRun.redacted(options.smtp?.url ?? ""),
                                          reason: "it asks for authentication (SMTP 530) and this run gave none: set EZREPORT_SMTP_USER "
                                                  + "and EZREPORT_SMTP_PASSWORD (or --smtp-password-file); the next run sends user "
                                                  + "\(job.entry.id) and the rest")
                case .permanent:
                    try record(.failed, reason: error.description, code: code, text: error.smtpText, attempt: attempt)
                    unreachableInARow = 0
                    return
                case .uncertain:
                    // The last reply was the go-ahead for the data (354), not a reply to the message:
                    // recording it made the line read as if the server had answered.
                    // Nor quoted in the reason: libcurl's message alone says what broke.
                    let final = code.map { !(300...399).contains($0) } ?? false
                    let detail = final ? error.description : error.curlMessage
                    try record(.uncertain, reason: "the connection broke after the message was handed over: \(detail)",
                               code: final ? code : nil, text: final ? error.smtpText : nil, attempt: attempt)
                    return
                case .transient where attempt < options.maxAttempts:
                    let delay = options.backoff * pow(2, Double(attempt - 1))
                    try record(.failed, reason: DeliveryRecord.retryingReason(error.description, delay: delay), code: code,
                               text: error.smtpText, attempt: attempt)
                    Thread.sleep(forTimeInterval: delay)
                case .transient:
                    // Deferred, not done: the next plain run tries again. Three users in a row
                    // deferred by the server itself (down, silent, 421 "closing", 451 to every
                    // MAIL FROM, over its rate) say it is not taking mail now: the run stops, and
                    // the users left are not attempted (it went on for two minutes and more, user
                    // after user). A full mailbox is that recipient's: the server is taking mail.
                    try record(.failed, reason: DeliveryRecord.deferredReason(error.description, attempts: attempt), code: code,
                               text: error.smtpText, attempt: attempt)
                    unreachableInARow = error.isAboutTheServer ? unreachableInARow + 1 : 0
                    serverGone = unreachableInARow >= Self.unreachableLimit
                    return
                }
            }
        }
    }
}

/// At most `perSecond` messages a second (0: no cap), spaced evenly.
struct RateLimiter {
    private let interval: Double
    private var next = Date.distantPast

    init(perSecond: Double) { interval = perSecond > 0 ? 1 / perSecond : 0 }

    mutating func wait() {
        guard interval > 0 else { return }
        let now = Date()
        if next > now { Thread.sleep(forTimeInterval: next.timeIntervalSince(now)) }
        next = max(now, next) + interval
    }
}
