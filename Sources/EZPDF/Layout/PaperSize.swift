/// A sheet of paper a PDF report is laid out on, in PDF points (1/72 inch).
///
/// Statements use A4 except for readers in the United States and Canada, who get US Letter:
///
/// ```swift
/// PaperSize.for(locale: "en_US")   // .usLetter
/// PaperSize.for(locale: "it_IT")   // .a4
/// ```
package enum PaperSize: String, Sendable, CaseIterable {
    /// ISO A4, 210 × 297 mm.
    case a4
    /// US Letter, 8.5 × 11 in.
    case usLetter

    /// The page width in points.
    package var width: Double {
        switch self {
        case .a4: return 595.276
        case .usLetter: return 612
        }
    }

    /// The page height in points.
    package var height: Double {
        switch self {
        case .a4: return 841.89
        case .usLetter: return 792
        }
    }

    /// Regions whose readers expect US Letter.
    static let letterRegions: Set<String> = ["US", "CA"]

    /// The paper for a POSIX or BCP-47 locale: US Letter for US and Canadian regions
    /// (`en_US`, `en_CA`, `fr_CA`, `en-US`, `en_US.UTF-8`), A4 for everyone else.
    package static func `for`(locale: String) -> PaperSize {
        letterRegions.contains(region(of: locale) ?? "") ? .usLetter : .a4
    }

    /// The upper-case region of `en_US.UTF-8@euro`-style locales, or nil when there is none.
    static func region(of locale: String) -> String? {
        var base = Substring(locale)
        if let cut = base.firstIndex(where: { $0 == "." || $0 == "@" }) { base = base[..<cut] }
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
        // The region is the first later part of two letters (skips scripts such as `zh_Hant_TW`'s Hant).
        for part in parts.dropFirst() where part.count == 2 && part.allSatisfy(\.isLetter) {
            return part.uppercased()
        }
        return nil
    }
}
