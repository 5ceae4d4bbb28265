import EZAnalytics
import EZCore

/// The CSV files of one user's statement, in the column contract of `docs/exports.md`.
///
/// The file names, and the columns in their order, are a contract that users' scripts rely
/// on: columns may only ever be added at the end. Every file is produced even when it has no
/// rows (its header alone).
///
/// ```swift
/// let files = StatementCSV.files(for: figures)   // transactions.csv, categories.csv, …
/// ```
package enum StatementCSV {
    /// The file names in the order ``files(for:)`` returns them.
    package static let fileNames = [
        "transactions.csv", "categories.csv", "trends.csv", "category-trends.csv",
        "budgets.csv", "groups.csv", "settlements.csv", "savings.csv", "comparison.csv",
    ]

    /// Every statement CSV file for `figures`, in the order of ``fileNames``.
    ///
    /// - Complexity: O(rows) in the figures, with one byte buffer per file.
    package static func files(for figures: StatementFigures) -> [CSVFile] {
        [transactions(figures)] + filesAfterTransactions(for: figures)
    }

    /// Every statement CSV file but transactions.csv, in the order of ``fileNames``: what a caller
    /// that streams transactions.csv (``writeTransactions(_:to:)``) writes from memory.
    package static func filesAfterTransactions(for figures: StatementFigures) -> [CSVFile] {
        [
            categories(figures), trends(figures), categoryTrends(figures),
            budgets(figures), groups(figures), settlements(figures), savings(figures), comparison(figures),
        ]
    }

    /// Writes transactions.csv for `figures` into the file at `path` (created or truncated) as
    /// it is built, 64 KB at a time: the bytes ``files(for:)`` gives, without holding them whole
    /// (~12 MB for 100,000 rows).
    ///
    /// - Throws: ``CSVOutputError`` when the file cannot be written.
    package static func writeTransactions(_ figures: StatementFigures, to path: String) throws(CSVOutputError) {
        var w = CSVWriter(header: transactionColumns, output: try CSVFileOutput(path: path))
        append(figures.transactions, currency: figures.currency, to: &w)
        try w.finish()
    }

    // MARK: - Columns (the contract)

    static let transactionColumns = [
        "id", "date", "kind", "category", "balance", "method", "description", "amount", "currency",
        "counted", "report_currency", "group", "paid_by",
    ]
    /// `previous_amount` and `year_ago_amount` were appended for the comparison (issue 16).
    static let categoryColumns = ["category", "count", "amount", "percent", "currency", "previous_amount", "year_ago_amount"]
    static let trendColumns = ["bucket_start", "income", "expenses", "net", "transaction_count", "currency"]
    static let categoryTrendColumns = ["bucket_start", "category", "expenses", "currency"]
    static let budgetColumns = [
        "category", "window_start", "window_end", "base", "transfers_in", "transfers_out", "effective",
        "spent", "remaining", "percent", "expected_percent", "projected", "status", "currency",
    ]
    static let groupColumns = ["group_id", "group", "member_id", "member", "paid", "share", "net", "outstanding", "currency",
                               "settled"]
    static let settlementColumns = ["group_id", "group", "from", "to", "amount", "currency", "plan"]
    static let savingsColumns = ["goal", "target", "saved", "percent", "due_on", "monthly_needed", "currency"]
    static let comparisonColumns = ["measure", "current", "previous", "year_ago", "currency"]

    // MARK: - Files

    static func transactions(_ f: StatementFigures) -> CSVFile {
        transactions(f.transactions, currency: f.currency)
    }

    /// transactions.csv for `rows`, `counted` in the report currency `currency`.
    static func transactions(_ rows: [StatementRow], currency: Currency) -> CSVFile {
        var w = CSVWriter(header: transactionColumns, reserving: 160 + rows.count * 120)
        append(rows, currency: currency, to: &w)
        return w.file(named: "transactions.csv")
    }

    /// transactions.csv's rows for `rows`, after its header.
    private static func append(_ rows: [StatementRow], currency: Currency, to w: inout CSVWriter) {
        let reportExponent = currency.exponent
        for row in rows {
            w.integer(row.id)
            w.date(row.date)
            w.raw(row.kind.rawValue)
            w.text(row.category)
            w.text(row.balance)
            w.text(row.method)
            w.text(row.description)
            w.amount(row.amount, exponent: row.currency.exponent)
            w.raw(row.currency.code)
            w.amount(row.counted, exponent: reportExponent)
            w.raw(currency.code)
            w.text(row.group)
            w.text(row.paidBy)
            w.endRow()
        }
    }

    /// The period's categories (as before the comparison: every category with expenses in the
    /// period), each with its expenses in the previous period and a year earlier appended.
    static func categories(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: categoryColumns, reserving: 64 + f.categories.rows.count * 64)
        var earlier: [String: ComparedAmount] = [:]
        for c in f.comparison.categories { earlier[c.name] = c.amounts }
        for c in f.categories.rows {
            w.text(c.name)
            w.integer(c.count)
            w.amount(c.amount, exponent: f.currency.exponent)
            w.percent(tenths: c.percent.tenths)
            w.raw(f.currency.code)
            w.amount(earlier[c.name]?.previous ?? 0, exponent: f.currency.exponent)
            w.amount(earlier[c.name]?.yearAgo ?? 0, exponent: f.currency.exponent)
            w.endRow()
        }
        return w.file(named: "categories.csv")
    }

    static func trends(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: trendColumns, reserving: 64 + f.trend.points.count * 64)
        for p in f.trend.points {
            w.date(p.start)
            w.amount(p.income, exponent: f.currency.exponent)
            w.amount(p.expenses, exponent: f.currency.exponent)
            w.amount(p.net, exponent: f.currency.exponent)
            w.integer(p.transactionCount)
            w.raw(f.currency.code)
            w.endRow()
        }
        return w.file(named: "trends.csv")
    }

    /// A complete grid: every bucket × every category of `Trend.categoryNames`, zeros included,
    /// so that a script can pivot it without filling gaps.
    static func categoryTrends(_ f: StatementFigures) -> CSVFile {
        let names = f.trend.categoryNames
        var w = CSVWriter(header: categoryTrendColumns, reserving: 64 + f.trend.points.count * names.count * 40)
        for p in f.trend.points {
            for name in names {
                w.date(p.start)
                w.text(name)
                w.amount(p.expensesByCategory[name] ?? 0, exponent: f.currency.exponent)
                w.raw(f.currency.code)
                w.endRow()
            }
        }
        return w.file(named: "category-trends.csv")
    }

    static func budgets(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: budgetColumns, reserving: 160 + f.budgets.count * 120)
        let e = f.currency.exponent
        for b in f.budgets {
            w.text(b.categoryName ?? "")
            w.date(b.windowStart)
            w.date(b.windowEnd)
            w.amount(b.base, exponent: e)
            w.amount(b.transfersIn, exponent: e)
            w.amount(b.transfersOut, exponent: e)
            w.amount(b.effective, exponent: e)
            w.amount(b.spent, exponent: e)
            w.amount(b.remaining, exponent: e)
            w.percent(tenths: b.percent?.tenths)
            w.percent(tenths: b.expectedPercent?.tenths)
            w.amount(b.projected, exponent: e)
            w.raw(b.status.rawValue)
            w.raw(f.currency.code)
            w.endRow()
        }
        return w.file(named: "budgets.csv")
    }

    static func groups(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: groupColumns, reserving: 128 + f.groups.count * 256)
        for g in f.groups {
            for m in g.members {
                w.integer(g.groupId)
                w.text(g.name)
                w.integer(m.userId)
                w.text(m.username)
                w.amount(m.paid, exponent: g.currency.exponent)
                w.amount(m.share, exponent: g.currency.exponent)
                w.amount(m.net, exponent: g.currency.exponent)
                w.amount(m.outstanding, exponent: g.currency.exponent)
                w.raw(g.currency.code)
                w.amount(m.settled, exponent: g.currency.exponent)
                w.endRow()
            }
        }
        return w.file(named: "groups.csv")
    }

    static func settlements(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: settlementColumns, reserving: 128 + f.groups.count * 128)
        for g in f.groups {
            for s in g.settlement.transfers {
                w.integer(g.groupId)
                w.text(g.name)
                w.text(s.fromUsername)
                w.text(s.toUsername)
                w.amount(s.amount, exponent: g.currency.exponent)
                w.raw(g.currency.code)
                w.raw(g.settlement.method.rawValue)
                w.endRow()
            }
        }
        return w.file(named: "settlements.csv")
    }

    static func savings(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: savingsColumns, reserving: 128 + f.savings.count * 80)
        for s in f.savings {
            w.text(s.name)
            w.amount(s.target, exponent: s.currency.exponent)
            w.amount(s.saved, exponent: s.currency.exponent)
            w.percent(tenths: s.percent?.tenths)
            w.date(s.dueOn)
            w.amount(s.monthlyNeeded, exponent: s.currency.exponent)
            w.raw(s.currency.code)
            w.endRow()
        }
        return w.file(named: "savings.csv")
    }

    /// Income, expenses and net in the period, the previous period of the same length and the
    /// same period a year earlier: always these three rows.
    static func comparison(_ f: StatementFigures) -> CSVFile {
        var w = CSVWriter(header: comparisonColumns, reserving: 160)
        let e = f.currency.exponent
        for (measure, a) in [("income", f.comparison.income), ("expenses", f.comparison.expenses), ("net", f.comparison.net)] {
            w.raw(measure)
            w.amount(a.current, exponent: e)
            w.amount(a.previous, exponent: e)
            w.amount(a.yearAgo, exponent: e)
            w.raw(f.currency.code)
            w.endRow()
        }
        return w.file(named: "comparison.csv")
    }
}
