import EZAnalytics

extension Manifest {
    /// The few headline figures a delivered e-mail quotes, recorded by the monthly run so that
    /// `ezreport deliver` never has to compute or render anything (docs/manifest.md, `summary`).
    package struct StatementSummary: Codable, Equatable, Sendable {
        /// Rows of the user's own in the period (their shares of others' group expenses excluded):
        /// 0 means the user did nothing themselves (`deliver --skip-empty`).
        package var ownTransactionCount: Int
        /// `net / income` in tenths of a percent; absent without income.
        package var savingsRateTenths: Int64?
        /// Budgets over 100 % in the period.
        package var budgetsOver: Int
        /// The category with the largest expenses, and that amount in the report currency.
        package var largestCategory: String?
        package var largestCategoryMinor: Int64?
        /// The user's own period (`YYYY-MM-DD`) when it is not the run's: a month starting on the
        /// user's payday (`users.month_start_day`). Absent for everyone else.
        package var periodStart: String?
        package var periodEnd: String?

        /// The summary of one statement's figures.
        package init(_ figures: StatementFigures) {
            // Counted, not filtered into a copy: a 100,000-row statement's rows would be held twice.
            var own = 0
            for row in figures.transactions where row.paidBy.isEmpty || row.paidBy == figures.user.username { own += 1 }
            ownTransactionCount = own
            savingsRateTenths = figures.kpis.savingsRate?.tenths
            budgetsOver = figures.budgets.filter { $0.status == .over }.count
            let largest = figures.categories.rows.filter { $0.amount > 0 }.max { ($0.amount, $1.name) < ($1.amount, $0.name) }
            largestCategory = largest?.name
            largestCategoryMinor = largest?.amount
            if figures.period.monthStartDay != 1 {
                periodStart = figures.period.start.description
                periodEnd = figures.period.end.description
            }
        }
    }
}
