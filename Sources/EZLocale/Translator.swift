/// Writes ezreport's messages in a user's language, with their numbers in the user's locale.
///
/// The language comes from the locale (`it_IT`, `it_CH` → Italian); a language ezreport has no
/// catalog for gets English text, and its numbers and dates are still written the locale's way
/// (``format``). Messages are English source strings with named placeholders in braces, which a
/// translator may move: `tr("Page {page} of {pages}", ["page": "2", "pages": "5"])`.
///
/// Call sites write `tr("…")` or `tr.plural("…", "…", count: n)` with literal strings, so that the
/// catalog test can find every message the code uses (as `xgettext` would) and check that every
/// catalog holds each of them, and nothing else.
///
/// ```swift
/// let tr = Translator(locale: "de_DE")
/// tr("Budgets")                                                      // "Budgets"
/// tr("Spending by category")                                         // "Ausgaben nach Kategorie"
/// tr.plural("{count} transaction", "{count} transactions", count: 1234)   // "1.234 Buchungen"
/// ```
package struct Translator: Sendable {
    /// The catalog's language: `en`, `it`, `fr`, `es`, `de` or `ja`.
    package var language: String { catalog.language }
    /// Numbers, money and dates in the user's locale.
    package let format: LocaleFormat
    let catalog: Catalog

    /// The translator for a POSIX or BCP-47 locale name (`fr_FR`, `fr-CA`, `ja_JP.UTF-8`).
    package init(locale: String) {
        format = LocaleFormat(locale: locale)
        catalog = Catalog.for(language: format.language)
    }

    /// The translator of `locale`; the same as ``init(locale:)``, for call sites that read better so.
    package static func `for`(locale: String) -> Translator { Translator(locale: locale) }

    /// `message` translated, with each `{name}` replaced by `values[name]`.
    package func callAsFunction(_ message: String, context: String? = nil, _ values: [String: String] = [:]) -> String {
        Translator.fill(catalog.translate(message, context: context), values)
    }

    /// The form of a counted message for `count`; `{count}` is the count in the locale's digits.
    package func plural(_ singular: String, _ plural: String, count: Int, context: String? = nil,
                        _ values: [String: String] = [:]) -> String {
        var all = values
        all["count"] = all["count"] ?? format.integer(Int64(count))
        return Translator.fill(catalog.translate(singular, plural: plural, count: count, context: context), all)
    }

    /// Replaces `{name}` placeholders; an unknown name is left as written, so a mistake shows.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, template.contains("{") else { return template }
        var out = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let v = values[name] { out += v } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }
}
