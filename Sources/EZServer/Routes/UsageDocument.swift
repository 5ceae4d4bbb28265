import EZAnalytics
import EZCore
import EZCSV
import Foundation

/// The admin usage report as JSON, encoded straight from ``UsageFigures``:
/// `{"period": …, "as_of": …, "rows": [{"month": "2026-09", "users_total": "12", …}]}`.
///
/// Each row has the columns of `usage.csv` as keys and the CSV's text as values (amounts as
/// plain decimals in the report currency, shares to one decimal, a suppressed cell as `<5`), so
/// the JSON and the CSV always say the same thing.
struct UsageDocument: Encodable {
    var period: String
    var asOf: String
    var rows: [Row]
    /// Users left out of every figure (their rows could not be read or converted): the report is
    /// incomplete when this is not 0.
    var usersLeftOut: Int

    init(_ usage: UsageFigures) {
        period = usage.period.name
        asOf = usage.asOf.description
        rows = usage.months.map { Row(month: $0, currency: usage.currency) }
        usersLeftOut = usage.usersLeftOut
    }

    enum CodingKeys: String, CodingKey {
        case period
        case asOf = "as_of"
        case rows
        case usersLeftOut = "users_left_out"
    }

    /// One month: a `usage.csv` row.
    struct Row: Encodable {
        let month: UsageMonth
        let currency: Currency

        /// The keys: `usage.csv`'s column names (``UsageCSV/columns``).
        enum Column: String, CodingKey, CaseIterable {
            case month, users_total, users_new, users_deleted, users_active, mau, transactions
            case volume, currency, budgets_over_share, spend_p50, spend_p90
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Column.self)
            let (year, monthNumber, _) = month.month.components
            try c.encode(String(format: "%04d-%02d", year, monthNumber), forKey: .month)
            try c.encode(Self.text(month.usersTotal), forKey: .users_total)
            try c.encode(Self.text(month.usersNew), forKey: .users_new)
            try c.encode(Self.text(month.usersDeleted), forKey: .users_deleted)
            try c.encode(Self.text(month.usersActive), forKey: .users_active)
            try c.encode(Self.text(month.mau), forKey: .mau)
            try c.encode(Self.text(month.transactions), forKey: .transactions)
            try c.encode(money(month.volume), forKey: .volume)
            try c.encode(currency.code, forKey: .currency)
            try c.encode(Self.text(month.budgetsOverShare.value.map(\.description), month.budgetsOverShare), forKey: .budgets_over_share)
            try c.encode(money(month.spendP50), forKey: .spend_p50)
            try c.encode(money(month.spendP90), forKey: .spend_p90)
        }

        private func money(_ value: Guarded<Int64>) -> String {
            Self.text(value.value.map { MinorUnits.plainDecimal($0, exponent: currency.exponent) }, value)
        }

        private static func text(_ value: Guarded<Int>) -> String { text(value.value.map(String.init), value) }

        /// `shown` for a shown figure, the CSV's mark for a suppressed one.
        private static func text<V>(_ shown: String?, _ value: Guarded<V>) -> String {
            if case .suppressed = value { return UsageCSV.suppressedMark }
            return shown ?? ""
        }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }
}
