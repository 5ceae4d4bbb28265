import Foundation

/// The translations of one language, read from its PO file shipped with ezreport
/// (`Sources/EZLocale/Resources/po/<language>.po`, copied next to the binary as a resource).
///
/// English is the source language: its "catalog" is empty and every message is its own msgid.
/// A message missing from a catalog falls back to English too, though the catalog tests make
/// sure none is.
///
/// ```swift
/// let it = Catalog.for(language: "it")
/// it.translate("Budgets")                      // "Budget"
/// it.translate("{count} transaction", plural: "{count} transactions", count: 3)   // "{count} transazioni"
/// ```
package struct Catalog: Sendable {
    /// The ISO 639-1 language (`it`).
    package let language: String
    let file: POFile?

    /// The languages statements are written in; others get English text.
    package static let languages = ["en", "it", "fr", "es", "de", "ja"]

    /// The catalog for a language of ``languages`` (English's, empty, for any other).
    package static func `for`(language: String) -> Catalog {
        (try? loaded.get())?[language] ?? Catalog(language: "en", file: nil)
    }

    /// Every catalog, read once on first use; an error names the file and line that failed
    /// (a test checks this succeeds; a run falls back to English rather than stop).
    package static let loaded: Result<[String: Catalog], CatalogError> = {
        do throws(CatalogError) {
            var out: [String: Catalog] = ["en": Catalog(language: "en", file: nil)]
            for language in languages where language != "en" {
                out[language] = Catalog(language: language, file: try readShipped(language))
            }
            return .success(out)
        } catch {
            return .failure(error)
        }
    }()

    /// Reads `<language>.po` from the module's resources.
    static func readShipped(_ language: String) throws(CatalogError) -> POFile {
        let name = "\(language).po"
        guard let url = Bundle.module.url(forResource: language, withExtension: "po", subdirectory: "po")
            ?? Bundle.module.url(forResource: language, withExtension: "po") else {
            throw CatalogError(file: name, line: 0, "not found in ezreport's resources (\(Bundle.module.bundlePath))")
        }
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            throw CatalogError(file: url.path, line: 0, "cannot be read as UTF-8")
        }
        return try POFile(text: text, file: name)
    }

    /// A catalog over a PO file read elsewhere (tests).
    package init(language: String, file: POFile?) {
        self.language = language
        self.file = file
    }

    /// The translation of `id` (in `context`), or `id` itself when there is none.
    package func translate(_ id: String, context: String? = nil) -> String {
        guard let m = file?.messages[POFile.Key(context: context, id: id)], let s = m.translations.first, !s.isEmpty else {
            return id
        }
        return s
    }

    /// The form of a message with plural forms for `count`: the language's rule picks among the
    /// catalog's forms; without a translation, English's (`singular` for 1, else `plural`).
    package func translate(_ singular: String, plural: String, count: Int, context: String? = nil) -> String {
        if let file, let m = file.messages[POFile.Key(context: context, id: singular)], m.idPlural != nil {
            let s = m.translations[file.pluralRule.form(for: count)]
            if !s.isEmpty { return s }
        }
        return count == 1 ? singular : plural
    }
}
