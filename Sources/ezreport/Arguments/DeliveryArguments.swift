import ArgumentParser
import EZDelivery

/// `--from`: `local@domain` or `Display Name <local@domain>`, checked when parsed.
struct SenderAddress: ExpressibleByArgument, Sendable {
    let address: MailAddress
    /// The display name, when given as `Name <address>`.
    let name: String?

    init(parsing text: String) throws {
        var spec = text.trimmingCharacters(in: .whitespaces)
        var name: String?
        if spec.hasSuffix(">"), let open = spec.lastIndex(of: "<") {
            let phrase = spec[..<open].trimmingCharacters(in: .whitespaces)
            name = phrase.count >= 2 && phrase.hasPrefix("\"") && phrase.hasSuffix("\"") ? String(phrase.dropFirst().dropLast()) : phrase
            if name?.isEmpty == true { name = nil }
            spec = String(spec[spec.index(after: open)..<spec.index(before: spec.endIndex)])
        }
        guard let address = MailAddress(spec) else {
            throw ValidationError("--from '\(text)' is not a valid address: \(MailAddress.problem(spec) ?? "invalid")")
        }
        if let name, name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ValidationError("--from '\(text)': the display name holds a control character")
        }
        self.address = address
        self.name = name
    }

    init?(argument: String) {
        guard let parsed = try? SenderAddress(parsing: argument) else { return nil }
        self = parsed
    }
}

/// `--smtp`: `smtp://host:port` or `smtps://host:port`, checked when parsed.
///
/// Parsing never fails: swift-argument-parser would print the value it refused, and an SMTP URL
/// may hold a password. The command's `validate()` reports ``problem``, which never does.
struct SMTPURLArgument: ExpressibleByArgument, Sendable {
    let url: String
    /// Why the URL is not usable (without its credentials), nil when it is.
    let problem: String?

    init(parsing text: String) {
        url = text
        problem = SMTPSettings.problem(url: text)
    }

    init?(argument: String) { self.init(parsing: argument) }
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
