import ArgumentParser
import EZDelivery

/// `--from`: a plain `local@domain` address, checked when parsed.
struct SenderAddress: ExpressibleByArgument, Sendable {
    let address: MailAddress

    init(parsing text: String) throws {
        guard let address = MailAddress(text) else {
            throw ValidationError("--from '\(text)' is not a valid address: \(MailAddress.problem(text) ?? "invalid")")
        }
        self.address = address
    }

    init?(argument: String) {
        guard let parsed = try? SenderAddress(parsing: argument) else { return nil }
        self = parsed
    }
}

/// `--smtp`: `smtp://host:port` or `smtps://host:port`, checked when parsed.
struct SMTPURLArgument: ExpressibleByArgument, Sendable {
    let url: String

    init(parsing text: String) throws {
        if let problem = SMTPSettings.problem(url: text) { throw ValidationError(problem) }
        url = text
    }

    init?(argument: String) {
        guard let parsed = try? SMTPURLArgument(parsing: argument) else { return nil }
        self = parsed
    }
}

/// `--attach`: `pdf` or `pdf,xlsx`.
enum AttachmentList: String, ExpressibleByArgument, Sendable {
    case pdf
    case pdfAndXLSX = "pdf,xlsx"

    init(parsing text: String) throws {
        guard let list = AttachmentList(rawValue: text) else { throw ValidationError("--attach must be pdf or pdf,xlsx (got '\(text)')") }
        self = list
    }
}
