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
            // Exactly where monthly writes it, in the folder checked to be this user's: a path
            // edited into the manifest (`users/2-zoë/../3-josé/statement.pdf`) or a link placed
            // in the folder must never attach another user's statement or any other file.
            let expected = job.entry.folder + "/statement." + suffix
            guard let file = job.entry.files.first(where: { $0.path == expected }) else {
                throw Unsendable(reason: "no \(expected) in the manifest")
            }
            let path = options.periodFolder + "/" + file.path
            for link in [options.periodFolder + "/users", options.periodFolder + "/" + job.entry.folder, path]
            where (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil {
                throw Unsendable(reason: "\(file.path) is reached through a symbolic link; not sent")
            }
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
