import Foundation

/// A message as Python's `email` package parses it (Support/check_messages.py): the independent
/// reader the tests check ezreport's MIME output with.
struct ParsedMessage: Decodable {
    struct Attachment: Decodable { var filename: String?; var contentType: String; var sha256: String; var bytes: Int }
    var path: String
    var headerNames: [String]
    var rawHeaders: [String: String]
    var from: String
    var to: String
    var toAddresses: [String]
    var toDisplayName: String?
    var subject: String
    var messageId: String
    var dateParses: Bool
    var contentType: String
    var structure: [String]
    var attachments: [Attachment]
    var text: String?
    var html: String?
    var maxLineBytes: Int
    var crlf: Bool
    var defects: [String]

    /// Parses the files at `paths` with check_messages.py.
    static func parse(_ paths: [String]) throws -> [ParsedMessage] {
        guard !paths.isEmpty else { return [] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", SMTPSink.support.appendingPathComponent("check_messages.py").path] + paths
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode([ParsedMessage].self, from: data)
    }
}
