/// An output format the engine can write.
package enum OutputFormat: String, CaseIterable, Sendable, Comparable {
    case pdf, xlsx, csv, png

    /// Parses a comma-separated list such as `pdf,xlsx,csv,png` (or `all`).
    package static func parseList(_ text: String) throws(FormatListError) -> [OutputFormat] {
        if text == "all" { return allCases }
        var out: [OutputFormat] = []
        for part in text.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let f = OutputFormat(rawValue: name) else { throw FormatListError(text: String(part)) }
            if !out.contains(f) { out.append(f) }
        }
        guard !out.isEmpty else { throw FormatListError(text: text) }
        return out.sorted()
    }

    package static func < (a: OutputFormat, b: OutputFormat) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// An unknown format name.
package struct FormatListError: Error, CustomStringConvertible {
    package let text: String
    package var description: String { "unknown format '\(text)'; use pdf, xlsx, csv, png (comma-separated) or all" }
}

import Foundation
