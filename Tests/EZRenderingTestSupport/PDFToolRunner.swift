import Foundation
import XCTest

/// Runs the independent PDF readers (qpdf, poppler's pdfinfo and pdftotext) on rendered bytes.
package struct PDFToolRunner {
    /// A temporary folder holding the file under test; removed by ``cleanUp()``.
    package let folder: URL
    package let file: URL

    /// Writes `bytes` to a fresh temporary file named `name`.
    package init(bytes: [UInt8], name: String = "report.pdf") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ezpdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        // Set EZPDF_REVIEW_DIR to keep a copy for looking at the pages.
        if let review = ProcessInfo.processInfo.environment["EZPDF_REVIEW_DIR"] {
            try? FileManager.default.createDirectory(atPath: review, withIntermediateDirectories: true)
            try? Data(bytes).write(to: URL(fileURLWithPath: review).appendingPathComponent(name))
        }
    }

    package func cleanUp() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `tool` with `arguments` plus the file, returning its exit status and standard output.
    package func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [tool] + arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `qpdf --check`'s verdict.
    package func qpdfCheck() throws -> (status: Int32, output: String) { try run("qpdf", ["--check", file.path]) }

    /// pdfinfo's fields (`Pages`, `Page size`, `Title`, …).
    package func info() throws -> [String: String] {
        let out = try run("pdfinfo", [file.path]).output
        var fields: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The document's text in reading order, as pdftotext extracts it (page breaks as form feeds).
    package func text() throws -> String { try run("pdftotext", ["-layout", "-enc", "UTF-8", file.path, "-"]).output }
    /// The text of pages `firstPage` through `lastPage` only (1-based), laid out as `text()`.
    package func text(firstPage: Int, lastPage: Int) throws -> String {
        try run("pdftotext", ["-layout", "-enc", "UTF-8", "-f", String(firstPage), "-l", String(lastPage), file.path, "-"]).output
    }

    /// The outline's titles, from qpdf's JSON view of the document.
    package func outlineTitles() throws -> [String] {
        let out = try run("qpdf", ["--json", "--json-key=outlines", file.path]).output
        guard let data = out.data(using: .utf8),
              let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let outlines = json["outlines"] as? [[String: Any]] else { return [] }
        func titles(_ items: [[String: Any]]) -> [String] {
            items.flatMap { item -> [String] in
                [(item["title"] as? String) ?? ""] + titles((item["kids"] as? [[String: Any]]) ?? [])
            }
        }
        return titles(outlines)
    }
}
