import EZBatch
import EZLedger
import Foundation

/// Builds one user's message from their manifest entry and the files on disk, checking that each
/// attachment's bytes still match the SHA-256 the manifest recorded.
enum StatementMessage {
    /// Why a statement cannot be sent (recorded as the user's `failed` reason).
    struct Unsendable: Error { var reason: String }

    static func build(_ job: DeliveryPlan.Job, options: DeliveryOptions, date: Date) throws(Unsendable) -> Data {
        var attachments: [MIMEMessage.Attachment] = []
        let wanted: [(suffix: String, type: String)] = [("pdf", "application/pdf")]
            + (options.attachXLSX ? [("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")] : [])
        for (suffix, type) in wanted {
            guard let file = job.entry.files.first(where: { $0.path.hasSuffix("/statement." + suffix) }) else {
                throw Unsendable(reason: "no statement.\(suffix) in the manifest")
            }
            let path = options.periodFolder + "/" + file.path
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw Unsendable(reason: "\(file.path) cannot be read")
            }
            guard FileDigest.sha256(bytes) == file.sha256 else {
                throw Unsendable(reason: "\(file.path) does not match the manifest's SHA-256 (changed since the monthly run)")
            }
            attachments.append(.init(fileName: "statement-\(options.period.name).\(suffix)", contentType: type, bytes: bytes))
        }
        let mail = StatementMail(username: job.contact.username, locale: job.contact.locale, period: options.period, entry: job.entry)
        return MIMEMessage(from: options.from, fromName: options.fromName, to: job.address, toName: job.contact.username, subject: mail.subject,
                           date: date, messageID: job.messageID, plainText: mail.plainText, html: mail.html,
                           attachments: attachments).rendered()
    }
}
