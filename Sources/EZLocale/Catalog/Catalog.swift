import Foundation
import Synchronization

/// The translations of one language, read from its PO file (`Sources/EZLocale/Resources/po/
/// <language>.po`), which is compiled into the binary (``EmbeddedCatalogs``, made by
/// `scripts/embed-catalogs.py`): a deployed executable needs no resource folder beside it.
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

    /// The catalog for a language of ``languages`` (English's, empty, for any other), parsed the
    /// first time it is asked for and kept: an export in one language parses that catalog alone
    /// (all five took ~20 ms of a one-user export's start-up), an English one none.
    package static func `for`(language: String) -> Catalog {
        guard language != "en", languages.contains(language) else { return english }
        return parsed.withLock { parsed in
            if let hit = parsed[language] { return hit }
            // A catalog that does not parse cannot ship (a test parses them all); a run would
            // fall back to English rather than stop.
            let catalog = (try? readShipped(language)).map { Catalog(language: language, file: $0) } ?? english
            parsed[language] = catalog
            return catalog
        }
    }

    /// English: the source language, an empty catalog.
    static let english = Catalog(language: "en", file: nil)

    /// The catalogs parsed so far, by language.
    private static let parsed = Mutex<[String: Catalog]>([:])

    /// Every catalog, each parsed anew; an error names the file and line that failed (for tests
    /// and checks: runs use ``for(language:)``).
    package static var loaded: Result<[String: Catalog], CatalogError> {
        do throws(CatalogError) {
            var out: [String: Catalog] = ["en": Catalog(language: "en", file: nil)]
            for language in languages where language != "en" {
                out[language] = Catalog(language: language, file: try readShipped(language))
            }
            return .success(out)
        } catch {
            return .failure(error)
        }
    }

    /// Reads `<language>.po` as compiled into the binary.
    static func readShipped(_ language: String) throws(CatalogError) -> POFile {
        let name = "\(language).po"
        guard let text = EmbeddedCatalogs.po[language] else {
            throw CatalogError(file: name, line: 0, "is not compiled into ezreport (run scripts/embed-catalogs.py)")
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
