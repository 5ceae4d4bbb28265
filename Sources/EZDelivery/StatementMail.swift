import EZAnalytics
import EZBatch
import EZLocale
import EZCore
import Foundation

/// The text of one statement e-mail, from what the monthly run recorded in the manifest (never
/// recomputed), formatted with the user's locale. English until the language issue lands.
struct StatementMail {
    var username: String
    var locale: String
    var period: Period
    var entry: Manifest.UserEntry

    /// "Your EZWallet statement for October 2026".
    var subject: String { "Your EZWallet statement for \(Self.periodTitle(period))" }

    /// `October 2026` for a calendar month, the period's name (`2026-Q3`, `2026-01-15..2026-03-31`) otherwise.
    static func periodTitle(_ period: Period) -> String {
        guard period.kind == .month else { return period.name }
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December"]
        return "\(months[period.start.month - 1]) \(period.start.year)"
    }

    /// The headline figures as (label, value) rows, values in the user's formats.
    var figures: [(String, String)] {
        let format = LocaleFormat(locale: locale)
        guard let code = entry.currency, let currency = try? Currency(code) else { return [] }
        var rows: [(String, String)] = []
        if let v = entry.incomeMinor { rows.append(("Income", format.money(v, currency))) }
        if let v = entry.expensesMinor { rows.append(("Expenses", format.money(v, currency))) }
        if let v = entry.netMinor { rows.append(("Net", format.money(v, currency))) }
        if let summary = entry.summary {
            rows.append(("Savings rate", summary.savingsRateTenths.map { format.percent(Percent(tenths: $0)) } ?? "–"))
            rows.append(("Budgets over", format.integer(Int64(summary.budgetsOver))))
            if let name = summary.largestCategory, let amount = summary.largestCategoryMinor {
                rows.append(("Largest category", "\(name) (\(format.money(amount, currency)))"))
            }
        }
        return rows
    }

    private var dates: String {
        let format = LocaleFormat(locale: locale)
        return "\(format.date(period.start)) – \(format.date(period.end))"
    }

    /// The plain-text part.
    var plainText: String {
        var text = "Hello \(Self.printable(username)),\n\nyour EZWallet statement for \(Self.periodTitle(period)) (\(dates)) is attached.\n\n"
        let width = (figures.map { $0.0.count }.max() ?? 0) + 2
        for (label, value) in figures {
            text += (label + ":").padding(toLength: width, withPad: " ", startingAt: 0) + value + "\n"
        }
        text += "\nThis message was sent automatically; the attached PDF is your full statement.\n"
        return text
    }

    /// The HTML part; every value from the ledger is escaped.
    var html: String {
        var rows = ""
        for (label, value) in figures {
            rows += "<tr><th align=\"left\">\(Self.escape(label))</th><td align=\"right\">\(Self.escape(value))</td></tr>\n"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(Self.escape(subject))</title></head>
            <body>
            <p>Hello \(Self.escape(Self.printable(username))),</p>
            <p>your EZWallet statement for \(Self.escape(Self.periodTitle(period))) (\(Self.escape(dates))) is attached.</p>
            <table>
            \(rows)</table>
            <p>This message was sent automatically; the attached PDF is your full statement.</p>
            </body></html>

            """
    }

    /// `s` with control characters (CR, LF, tabs…) shown as spaces: a username cannot shape the text.
    static func printable(_ s: String) -> String {
        String(s.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
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
