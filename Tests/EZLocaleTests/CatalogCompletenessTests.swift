import Foundation
@testable import EZLocale
import XCTest

/// Every message the code writes is in every catalog, and no catalog holds a message the code no
/// longer writes. Messages are found as `xgettext` would: the literal arguments of every
/// `tr("…")`, `tr("…", context: "…")` and `tr.plural("…", "…", …)` call in Sources/.
///
/// When you add a message, add it to each `Sources/EZLocale/Resources/po/<language>.po`
/// (with `msgid_plural` and one `msgstr[n]` per Plural-Forms form for a counted message).
final class CatalogCompletenessTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let poFolder = root.appendingPathComponent("Sources/EZLocale/Resources/po")

    struct Used: Hashable { var key: POFile.Key; var plural: String? }

    /// The messages the sources use, with the files that use them.
    static func usedMessages() throws -> [POFile.Key: (plural: String?, files: Set<String>)] {
        let string = #""((?:[^"\\]|\\.)*)""#
        let call = try NSRegularExpression(pattern:
            #"\btr(\.plural)?\(\s*"# + string + #"(?:\s*,\s*"# + string + #")?(?:\s*,\s*context:\s*"# + string + ")?")
        var out: [POFile.Key: (plural: String?, files: Set<String>)] = [:]
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.drop { $0 == " " }.hasPrefix("//") }.joined(separator: "\n")
            let ns = text as NSString
            for m in call.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
                func group(_ i: Int) -> String? { m.range(at: i).location == NSNotFound ? nil : ns.substring(with: m.range(at: i)) }
                let isPlural = group(1) != nil
                guard let id = group(2) else { continue }
                XCTAssertFalse(id.contains("\\("), "\(file): a message must not interpolate; use {placeholders}: \(id)")
                XCTAssertEqual(isPlural, group(3) != nil, "\(file): tr.plural needs a singular and a plural: \(id)")
                let key = POFile.Key(context: group(4), id: id)
                out[key, default: (isPlural ? group(3) : nil, [])].files.insert(file)
            }
        }
        return out
    }

    static func placeholders(_ s: String) -> Set<String> {
        var out: Set<String> = []
        var rest = s[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            out.insert(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return out
    }

    func testEveryCatalogHoldsExactlyTheMessagesTheCodeUses() throws {
        let used = try Self.usedMessages()
        XCTAssertGreaterThan(used.count, 150, "the scan found the messages")
        for language in Catalog.languages where language != "en" {
            let text = try String(contentsOf: Self.poFolder.appendingPathComponent("\(language).po"), encoding: .utf8)
            let po = try POFile(text: text, file: "\(language).po")
            XCTAssertEqual(po.header["Language"], language)
            for (key, use) in used.sorted(by: { $0.key.description < $1.key.description }) {
                guard let m = po.messages[key] else {
                    XCTFail("\(language).po lacks '\(key)' (used in \(use.files.sorted().joined(separator: ", ")))")
                    continue
                }
                XCTAssertEqual(m.idPlural, use.plural, "\(language).po: '\(key)' plural forms")
                for s in m.translations {
                    XCTAssertFalse(s.isEmpty, "\(language).po: '\(key)' is untranslated")
                    // Every placeholder is kept, except that a singular may spell the count out ("Ultimo mese").
                    let wanted = Self.placeholders(key.id), got = Self.placeholders(s)
                    XCTAssertTrue(got.isSubset(of: wanted), "\(language).po: '\(key)' has unknown placeholders: \(s)")
                    XCTAssertTrue(wanted.subtracting(use.plural == nil ? [] : ["{count}"]).isSubset(of: got),
                                  "\(language).po: '\(key)' drops a placeholder: \(s)")
                }
            }
            for key in po.messages.keys where used[key] == nil {
                XCTFail("\(language).po holds '\(key)', which no code uses any more: remove it")
            }
        }
    }

    func testTheCatalogsPassGettextsOwnCheck() throws {
        let msgfmt = ["/usr/bin/msgfmt", "/usr/local/bin/msgfmt"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let msgfmt else { return XCTFail("msgfmt is missing: run scripts/setup.sh --test (Debian's gettext)") }
        for language in Catalog.languages where language != "en" {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: msgfmt)
            p.arguments = ["--check", "--output-file=/dev/null", Self.poFolder.appendingPathComponent("\(language).po").path]
            let err = Pipe()
            p.standardError = err
            try p.run()
            p.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(p.terminationStatus, 0, "msgfmt --check \(language).po: \(message)")
            XCTAssertEqual(message, "", "msgfmt --check \(language).po warns")
        }
    }
}
