import EZBatch
import Foundation
import XCTest

/// Reading what a run wrote: every file's bytes, a file's text, the manifest.
package enum OutputTree {
    /// Every regular file under `folder` (hidden ones included), by path relative to it — except the
    /// run locks (`.lock`, `.lock-K-of-N`), which coordinate runs rather than being written by them.
    package static func snapshot(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return out }
        while let item = walker.nextObject() as? String {
            var isDir: ObjCBool = false
            let full = folder + "/" + item
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue else { continue }
            if item == ".lock" || item.hasPrefix(".lock-") { continue }
            out[item] = FileManager.default.contents(atPath: full)
        }
        return out
    }

    /// Every folder under `folder`, relative to it.
    package static func folders(_ folder: String) -> [String] {
        var out: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return out }
        while let item = walker.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + item, isDirectory: &isDir), isDir.boolValue { out.append(item) }
        }
        return out.sorted()
    }

    /// Lower-case hex SHA-256 of each file (relative to `folder`), computed by coreutils'
    /// `sha256sum`, independently of the engine's own hashing.
    package static func sha256(_ paths: [String], in folder: String) throws -> [String: String] {
        guard !paths.isEmpty else { return [:] }
        let output = String(decoding: try CLI.tool("/usr/bin/sha256sum", ["--"] + paths.map { folder + "/" + $0 }), as: UTF8.self)
        var out: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let hash = String(line.prefix(64))
            let file = String(line.dropFirst(66))
            out[String(file.dropFirst(folder.count + 1))] = hash
        }
        return out
    }

    /// The manifest in `periodFolder` (or another manifest file name).
    package static func manifest(_ periodFolder: String, name: String = "manifest.json") throws -> Manifest {
        let data = try XCTUnwrap(FileManager.default.contents(atPath: periodFolder + "/" + name), "no \(name) in \(periodFolder)")
        return try Manifest.decode(data)
    }

    /// The text a person or a program can read out of a file: CSV and JSON as they are, PDF
    /// through pdftotext, XLSX as the XML of every zip entry. PNG has no text (nil).
    package static func text(of path: String) throws -> String? {
        switch (path as NSString).pathExtension {
        case "csv", "json", "jsonl":
            return String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        case "pdf":
            return String(decoding: try CLI.tool("/usr/bin/pdftotext", ["-enc", "UTF-8", path, "-"]), as: UTF8.self)
        case "xlsx":
            return String(decoding: try CLI.tool("/usr/bin/unzip", ["-p", path]), as: UTF8.self)
        default:
            return nil
        }
    }

    /// Whether `needle` occurs in `haystack` as a whole token (not inside a longer e-mail or
    /// word): `user1@example.com` is not found in `user11@example.com`.
    package static func containsToken(_ haystack: String, _ needle: String) -> Bool {
        var search = haystack[...]
        while let r = search.range(of: needle) {
            let before = r.lowerBound == haystack.startIndex ? nil : haystack[haystack.index(before: r.lowerBound)]
            let after = r.upperBound == haystack.endIndex ? nil : haystack[r.upperBound]
            let joins: (Character?) -> Bool = { c in c.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" || $0 == "+" } ?? false }
            if !joins(before) && !joins(after) { return true }
            search = haystack[r.upperBound...]
        }
        return false
    }
}

/// A small RFC 4180 reader (quoted fields, doubled quotes, CRLF, line breaks inside quotes),
/// written here so the tests do not read the engine's CSV with the engine's own code.
package enum CSVReader {
    /// The records of `text`, header first.
    package static func records(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(field); field = ""
            } else if c == "\r" || c == "\n" {
                if c == "\r", chars.first == "\n" { chars.removeFirst() }
                record.append(field); field = ""
                records.append(record); record = []
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty { record.append(field); records.append(record) }
        return records
    }

    /// The rows of a CSV file as dictionaries keyed by the header.
    package static func rows(_ path: String) throws -> [[String: String]] {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let all = records(text)
        guard let header = all.first else { return [] }
        return all.dropFirst().map { r in
            Dictionary(uniqueKeysWithValues: zip(header, r + Array(repeating: "", count: max(0, header.count - r.count))).map { ($0, $1) })
        }
    }

    /// A plain decimal amount (`-12.50`, `1500`, `1.250`) as minor units, exactly.
    package static func minorUnits(_ text: String) -> Int64? {
        Int64(text.replacingOccurrences(of: ".", with: ""))
    }
}
