import EZAnalytics
import EZBatch
import EZLocale
import EZCore
import Foundation

/// The text of one statement e-mail, from what the monthly run recorded in the manifest (never
/// recomputed), in the user's language (en, it, fr, es, de, ja; English words otherwise) with
/// their locale's number and date formats.
struct StatementMail {
    var username: String
    var locale: String
    var period: Period
    var entry: Manifest.UserEntry

    /// The user's language and formats.
    private var tr: Translator { Translator(locale: locale) }

    /// The user's own period: the run's, or the month from their payday the run recorded for them.
    var userPeriod: Period {
        guard let s = entry.summary, let a = s.periodStart.flatMap({ CivilDate(iso: $0) }),
              let b = s.periodEnd.flatMap({ CivilDate(iso: $0) }), a <= b else { return period }
        return Period(kind: period.kind, start: a, end: b)
    }

    /// "Your EZWallet statement for October 2026", in the user's language.
    /// A quarter's takes an article, as its body line does ("for the 3rd quarter 2026", "pour le 3e
    /// trimestre 2026"): the subject read "for 3rd quarter 2026" where the body had "the".
    var subject: String {
        let title = Self.periodTitle(userPeriod, locale: locale)
        if userPeriod.kind == .quarter { return tr("Your EZWallet statement for the {period}", context: "a quarter", ["period": title]) }
        return tr("Your EZWallet statement for {period}", ["period": title])
    }

    /// The month and year as the locale writes them (`October 2026`, `ottobre 2026`, `octubre de
    /// 2026`, `2026年10月`: CLDR's pattern and month names, through Foundation) for a calendar
    /// month; otherwise the period in the locale's words (``LocaleFormat/periodLabel(_:)``): a
    /// quarter's name (`3rd quarter 2026`, `2026年第3四半期`), the dates of a week, a range or a
    /// month from payday (`25 Sep – 24 Oct 2026`), never its machine name (`2026-Q3`).
    ///
    /// A locale given English words (`ar_SA`, `he_IL`) gets English month names, so that the
    /// sentence is in one language and one direction: a month from payday read "for 25 سبتمبر،
    /// 2026 – 24 أكتوبر، 2026" (outside languages test). English locales keep their own order
    /// (`25 Sep – 24 Oct 2026` in `en_GB`).
    static func periodTitle(_ period: Period, locale: String = "en_US") -> String {
        let calendarMonth = period.kind == .month && period.monthStartDay == 1
        let englishWords = Translator(locale: locale).language == "en"
        guard calendarMonth || period.kind == .year else {
            let ownLanguage = locale.lowercased().hasPrefix("en")
            return LocaleFormat(locale: englishWords && !ownLanguage ? "en_US" : locale).periodLabel(period)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: englishWords ? "en_US" : locale)
        formatter.timeZone = TimeZone(identifier: "UTC")
        // A year as the locale writes one on its own: "2026", "2026年".
        formatter.setLocalizedDateFormatFromTemplate(calendarMonth ? "MMMMy" : "y")
        let noon = Date(timeIntervalSince1970: Double(period.start.dayNumber) * 86_400 + 43_200)
        return formatter.string(from: noon)
    }

    /// The most characters of a name in a figure's row, as on the statement's cover.
    static let nameCharacters = 60

    /// `name` cut to ``nameCharacters``, its last character then '…': a category's name has no
    /// length limit in the ledger, and a 1,000,000-character one went whole into the e-mail's
    /// text and HTML (the manifest keeps it whole).
    static func shortName(_ name: String) -> String {
        guard name.utf8.count > nameCharacters else { return name }
        let head = name.prefix(nameCharacters)
        return head.endIndex == name.endIndex ? name : String(head.dropLast()) + "…"
    }

    /// The headline figures as (label, value) rows, values in the user's formats.
    var figures: [(String, String)] {
        let format = LocaleFormat(locale: locale)
        guard let code = entry.currency, let currency = try? Currency(code) else { return [] }
        let tr = self.tr
        var rows: [(String, String)] = []
        if let v = entry.incomeMinor { rows.append((tr("Income"), format.money(v, currency))) }
        if let v = entry.expensesMinor { rows.append((tr("Expenses"), format.money(v, currency))) }
        if let v = entry.netMinor { rows.append((tr("Net"), format.money(v, currency))) }
        if let summary = entry.summary {
            rows.append((tr("Savings rate"), summary.savingsRateTenths.map { format.percent(Percent(tenths: $0)) } ?? "–"))
            rows.append((tr("Budgets over"), format.integer(Int64(summary.budgetsOver))))
            if let name = summary.largestCategory, let amount = summary.largestCategoryMinor {
                rows.append((tr("Largest category"), "\(Self.shortName(name)) (\(format.money(amount, currency)))"))
            }
        }
        return rows
    }

    private var dates: String {
        let format = LocaleFormat(locale: locale)
        return "\(format.date(userPeriod.start)) – \(format.date(userPeriod.end))"
    }

    /// "Your EZWallet statement for October 2026 (1 Oct 2026 – 31 Oct 2026) is attached.", without
    /// the dates in brackets when the period's name already is its dates (a week, a range). A
    /// quarter has sentences of its own: its name takes an article in some languages ("del
    /// 3º trimestre", "pour le 3e trimestre").
    private var attachedLine: String {
        let title = Self.periodTitle(userPeriod, locale: locale)
        if LocaleFormat(locale: locale).periodLabelShowsDates(userPeriod) {
            return tr("Your EZWallet statement for {period} is attached.", ["period": title])
        }
        if userPeriod.kind == .quarter {
            return tr("Your EZWallet statement for {period} ({dates}) is attached.", context: "a quarter", ["period": title, "dates": dates])
        }
        return tr("Your EZWallet statement for {period} ({dates}) is attached.", ["period": title, "dates": dates])
    }

    /// The plain-text part.
    var plainText: String {
        let tr = self.tr
        var text = tr("Hello {name},", ["name": InlineText.isolated(username)]) + "\n\n"
            + attachedLine + "\n\n"
        let width = (figures.map { $0.0.count }.max() ?? 0) + 2
        for (label, value) in figures {
            text += (label + ":").padding(toLength: width, withPad: " ", startingAt: 0) + value + "\n"
        }
        text += "\n" + tr("This message was sent automatically; the attached PDF is your full statement.") + "\n"
        return text
    }

    /// The HTML part; every value from the ledger is escaped.
    var html: String {
        var rows = ""
        for (label, value) in figures {
            rows += "<tr><th align=\"left\">\(Self.escape(label))</th><td align=\"right\">\(Self.escape(value))</td></tr>\n"
        }
        let tr = self.tr
        let hello = tr("Hello {name},", ["name": InlineText.isolated(username)])
        let attached = attachedLine
        let automatic = tr("This message was sent automatically; the attached PDF is your full statement.")
        return """
            <!DOCTYPE html>
            <html lang="\(Self.escape(tr.language))"><head><meta charset="utf-8"><title>\(Self.escape(subject))</title></head>
            <body>
            <p>\(Self.escape(hello))</p>
            <p>\(Self.escape(attached))</p>
            <table>
            \(rows)</table>
            <p>\(Self.escape(automatic))</p>
            </body></html>

            """
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}
