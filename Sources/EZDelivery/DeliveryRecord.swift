import Foundation

/// One line of `delivery.jsonl`: one step of one user's delivery (docs/delivery.md).
///
/// Every field the issue names is always present, `null` where it does not apply, so that
/// `jq` filters need no `// empty` guards.
package struct DeliveryRecord: Codable, Equatable, Sendable {
    /// Where a user's delivery stands.
    package enum Status: String, Codable, Sendable {
        /// Written (and fsynced) before the message's data is handed to the server.
        case sending
        /// The server accepted the message (2xx after the data).
        case sent
        /// The server refused it (5xx), or every attempt failed (4xx, no connection), or the
        /// statement could not be sent (its file changed since the manifest, no statement).
        case failed
        /// The connection broke after the data was handed over, or a run was killed mid-message:
        /// the message may have been delivered. Never resent without `--retry-uncertain`.
        case uncertain
        /// Not sent on purpose: `reason` says why (opted out, invalid address, empty).
        case skipped
    }

    package var userId: Int64
    package var address: String?
    package var messageId: String?
    package var statementSha256: String?
    package var status: Status
    package var reason: String?
    package var smtpCode: Int?
    package var smtpText: String?
    package var attempt: Int?
    /// When the step was recorded (UTC, ISO-8601): for the operator reading the journal.
    package var at: String?

    package init(userId: Int64, address: String?, messageId: String?, statementSha256: String?, status: Status,
                reason: String? = nil, smtpCode: Int? = nil, smtpText: String? = nil, attempt: Int? = nil, at: String? = nil) {
        self.userId = userId; self.address = address; self.messageId = messageId; self.statementSha256 = statementSha256
        self.status = status; self.reason = reason; self.smtpCode = smtpCode; self.smtpText = smtpText
        self.attempt = attempt; self.at = at
    }

    /// The reason of a `failed` attempt that the same run retries after `delay` seconds (the form
    /// docs/delivery.md gives: "…; retrying in N s").
    static func retryingReason(_ failure: String, delay: Double) -> String { "\(failure); retrying in \(delay) s" }

    /// The reason of a user's last attempt when every attempt failed for a temporary reason (a 4xx
    /// reply, no connection): "try again later" is what such a reply means, so the next plain run
    /// tries again (see ``isDeferred``). A relay down for a few minutes on the 1st used to leave
    /// every user it touched `failed` until an operator ran `--retry-failed` (outside delivery test).
    static func deferredReason(_ failure: String, attempts: Int) -> String {
        "\(failure) (after \(attempts) attempts)" + deferredSuffix
    }

    static let deferredSuffix = "; deferred: the next run tries again"

    /// Whether this line ends a user's attempts for a temporary reason (``deferredReason(_:attempts:)``):
    /// the user is not done, and a plain re-run sends the message. A line an earlier version wrote
    /// for the same end ("… (after 3 attempts)", any code but a 5xx) counts too: users an outage
    /// left `failed` before this version are sent by its first plain run (outside delivery re-test).
    var isDeferred: Bool {
        guard status == .failed, let reason else { return false }
        if reason.hasSuffix(Self.deferredSuffix) { return true }
        // No code, a 4xx, or the stale 2xx/3xx of an earlier command that such versions recorded
        // with a timeout; never a 5xx, which is a refusal.
        guard smtpCode.map({ !(500...599).contains($0) }) ?? true,
              let open = reason.range(of: " (after ", options: .backwards), reason.hasSuffix(" attempts)") else { return false }
        return Int(reason[open.upperBound...].dropLast(" attempts)".count)) != nil
    }

    /// Whether this line is a failed attempt its run was going to retry: a run killed during the
    /// back-off leaves it last, and the user is then not done (a plain re-run sends the message),
    /// where a final `failed` is left alone until `--retry-failed`.
    var isRetryPending: Bool {
        guard status == .failed, let reason, let range = reason.range(of: "; retrying in ", options: .backwards) else { return false }
        let rest = reason[range.upperBound...]
        return rest.hasSuffix(" s") && Double(rest.dropLast(2)) != nil
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id", address, messageId = "message_id", statementSha256 = "statement_sha256", status, reason
        case smtpCode = "smtp_code", smtpText = "smtp_text", attempt, at
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(userId, forKey: .userId)
        try c.encode(address, forKey: .address)
        try c.encode(messageId, forKey: .messageId)
        try c.encode(statementSha256, forKey: .statementSha256)
        try c.encode(status, forKey: .status)
        try c.encode(reason, forKey: .reason)
        try c.encode(smtpCode, forKey: .smtpCode)
        try c.encode(smtpText, forKey: .smtpText)
        try c.encode(attempt, forKey: .attempt)
        try c.encode(at, forKey: .at)
    }
}
