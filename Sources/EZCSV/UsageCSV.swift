import EZAnalytics
import EZCore

/// `usage.csv`: the admin usage report's monthly table, one row per month, oldest first.
///
/// Suppressed cells (figures about fewer than ``UsageFigures/minimumUsers`` users) are written
/// as `<5`. Nothing in the file identifies a person.
///
/// ```swift
/// let file = UsageCSV.file(for: usage)   // usage.csv
/// ```
package enum UsageCSV {
    /// The columns of usage.csv, in order (a contract: add columns only at the end).
    package static let columns = [
        "month", "users_total", "users_new", "users_deleted", "users_active", "mau", "transactions",
        "volume", "currency", "budgets_over_share", "spend_p50", "spend_p90",
    ]

    /// What a suppressed cell holds.
    package static let suppressedMark = "<" + String(UsageFigures.minimumUsers)

    /// The usage.csv file for `usage`.
    package static func file(for usage: UsageFigures) -> CSVFile {
        var w = CSVWriter(header: columns, reserving: 160 + usage.months.count * 96)
        let e = usage.currency.exponent
        for m in usage.months {
            w.month(m.month)
            count(&w, m.usersTotal)
            count(&w, m.usersNew)
            count(&w, m.usersDeleted)
            count(&w, m.usersActive)
            count(&w, m.mau)
            count(&w, m.transactions)
            money(&w, m.volume, exponent: e)
            w.raw(usage.currency.code)
            switch m.budgetsOverShare {
            case .shown(let p): w.percent(tenths: p.tenths)
            case .suppressed: w.raw(suppressedMark)
            }
            money(&w, m.spendP50, exponent: e)
            money(&w, m.spendP90, exponent: e)
            w.endRow()
        }
        return w.file(named: "usage.csv")
    }

    private static func count(_ w: inout CSVWriter, _ value: Guarded<Int>) {
        switch value {
        case .shown(let v): w.integer(v)
        case .suppressed: w.raw(suppressedMark)
        }
    }

    private static func money(_ w: inout CSVWriter, _ value: Guarded<Int64>, exponent: Int) {
        switch value {
        case .shown(let v): w.amount(v, exponent: exponent)
        case .suppressed: w.raw(suppressedMark)
        }
    }
}
