import ArgumentParser

/// `--locale` of `admin` and `monthly`: the language (and number style) of the admin usage report.
enum AdminLocale {
    /// The option's help.
    static let help = ArgumentHelp(
        "The admin report's language: en, it, fr, es, de or ja (a locale such as it_IT or de-CH also sets its number style; others get English words). (default: en)",
        valueName: "locale")

    /// A POSIX or BCP-47 locale name (`en`, `it_IT`, `de-CH`), or a ValidationError.
    static func parse(_ text: String) throws -> String {
        let valid = text.range(of: #"^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$"#, options: .regularExpression) != nil
        guard valid else { throw ValidationError("--locale must be a locale such as en, it_IT or de-CH (got '\(text)')") }
        return text
    }
}
