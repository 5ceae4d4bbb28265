import GRDB

/// The prepared INSERT statements of every ledger table, reused for every row, with the id
/// counters and the row counts.
///
/// Ids are given explicitly (1, 2, 3… per table in insertion order) so that they never depend
/// on anything but the order the generator writes rows in.
final class SampleWriter {
    private let users, balances, categories, groups, transactions, splits, groupMembers: Statement
    private let families, familyMembers, budgets, budgetTransfers, savingsGoals, exchangeRates, logins: Statement
    private let groupPayments: Statement
    private(set) var summary = SampleSummary()

    init(_ db: Database) throws {
        func insert(_ table: String, _ columns: String) throws -> Statement {
            let marks = columns.split(separator: ",").map { _ in "?" }.joined(separator: ",")
            return try db.makeStatement(sql: "INSERT INTO \(table) (\(columns)) VALUES (\(marks))")
        }
        users = try insert("users", "id,username,email,password_hash,role,currency,timezone,locale,book_name,monthly_limit_minor,chart_style,created_at,deleted_at,statement_email,month_start_day")
        balances = try insert("balances", "id,user_id,name,kind,currency,opening_minor,created_at,deleted_at")
        categories = try insert("categories", "id,user_id,name,color,important,position,deleted_at")
        groups = try insert("groups", "id,name,owner_id,currency,created_at,deleted_at")
        transactions = try insert("transactions", "id,user_id,balance_id,category_id,group_id,kind,to_balance_id,amount_minor,currency,occurred_at,method,description,recurrence_days,created_at,deleted_at")
        splits = try insert("splits", "transaction_id,user_id,share_minor")
        groupMembers = try insert("group_members", "group_id,user_id,joined_at,left_at")
        families = try insert("families", "id,name,created_at")
        familyMembers = try insert("family_members", "family_id,user_id,role")
        budgets = try insert("budgets", "id,user_id,category_id,period,amount_minor,currency,starts_on,ends_on")
        budgetTransfers = try insert("budget_transfers", "id,user_id,from_category_id,to_category_id,amount_minor,period_start,created_at")
        savingsGoals = try insert("savings_goals", "id,user_id,name,target_minor,currency,balance_id,due_on")
        exchangeRates = try insert("exchange_rates", "day,base,quote,rate")
        logins = try insert("logins", "user_id,at")
        groupPayments = try insert("group_payments", "id,group_id,from_user_id,to_user_id,from_balance_id,to_balance_id,amount_minor,currency,occurred_at,created_at,deleted_at")
    }

    // MARK: - One method per table

    func user(id: Int64, username: String, email: String, passwordHash: String, role: String, currency: String,
              timezone: String, locale: String, bookName: String?, monthlyLimitMinor: Int64?, chartStyle: String,
              createdAt: String, deletedAt: String?, statementEmail: Bool, monthStartDay: Int?) throws {
        try users.execute(arguments: [id, username, email, passwordHash, role, currency, timezone, locale, bookName,
                                      monthlyLimitMinor, chartStyle, createdAt, deletedAt, statementEmail ? 1 : 0, monthStartDay])
        summary.users += 1
    }

    func balance(userId: Int64, name: String, kind: String, currency: String, openingMinor: Int64,
                 createdAt: String, deletedAt: String?) throws -> Int64 {
        summary.balances += 1
        let id = Int64(summary.balances)
        try balances.execute(arguments: [id, userId, name, kind, currency, openingMinor, createdAt, deletedAt])
        return id
    }

    func category(userId: Int64, name: String, color: String?, important: Bool, position: Int, deletedAt: String?) throws -> Int64 {
        summary.categories += 1
        let id = Int64(summary.categories)
        try categories.execute(arguments: [id, userId, name, color, important ? 1 : 0, position, deletedAt])
        return id
    }

    func group(name: String, ownerId: Int64, currency: String, createdAt: String, deletedAt: String?) throws -> Int64 {
        summary.groups += 1
        let id = Int64(summary.groups)
        try groups.execute(arguments: [id, name, ownerId, currency, createdAt, deletedAt])
        return id
    }

    // swiftlint:disable:next function_parameter_count
    func transaction(userId: Int64, balanceId: Int64?, categoryId: Int64?, groupId: Int64?, kind: String,
                     toBalanceId: Int64?, amountMinor: Int64, currency: String, occurredAt: String, method: String?,
                     description: String?, recurrenceDays: Int?, createdAt: String, deletedAt: String?) throws -> Int64 {
        precondition(amountMinor > 0, "the sample never writes a non-positive amount")
        summary.transactions += 1
        let id = Int64(summary.transactions)
        try transactions.execute(arguments: [id, userId, balanceId, categoryId, groupId, kind, toBalanceId, amountMinor,
                                             currency, occurredAt, method, description, recurrenceDays, createdAt, deletedAt])
        return id
    }

    func split(transactionId: Int64, userId: Int64, shareMinor: Int64) throws {
        try splits.execute(arguments: [transactionId, userId, shareMinor])
        summary.splits += 1
    }

    func groupMember(groupId: Int64, userId: Int64, joinedAt: String, leftAt: String?) throws {
        try groupMembers.execute(arguments: [groupId, userId, joinedAt, leftAt])
        summary.groupMembers += 1
    }

    // swiftlint:disable:next function_parameter_count
    func groupPayment(groupId: Int64, fromUserId: Int64, toUserId: Int64, fromBalanceId: Int64?, toBalanceId: Int64?,
                      amountMinor: Int64, currency: String, occurredAt: String, createdAt: String) throws {
        precondition(amountMinor > 0, "the sample never writes a non-positive amount")
        summary.groupPayments += 1
        try groupPayments.execute(arguments: [Int64(summary.groupPayments), groupId, fromUserId, toUserId, fromBalanceId, toBalanceId,
                                              amountMinor, currency, occurredAt, createdAt, nil])
    }

    func family(name: String, createdAt: String) throws -> Int64 {
        summary.families += 1
        let id = Int64(summary.families)
        try families.execute(arguments: [id, name, createdAt])
        return id
    }

    func familyMember(familyId: Int64, userId: Int64, role: String) throws {
        try familyMembers.execute(arguments: [familyId, userId, role])
        summary.familyMembers += 1
    }

    func budget(userId: Int64, categoryId: Int64?, period: String, amountMinor: Int64, currency: String,
                startsOn: String, endsOn: String?) throws {
        summary.budgets += 1
        try budgets.execute(arguments: [Int64(summary.budgets), userId, categoryId, period, amountMinor, currency, startsOn, endsOn])
    }

    func budgetTransfer(userId: Int64, from: Int64, to: Int64, amountMinor: Int64, periodStart: String, createdAt: String) throws {
        summary.budgetTransfers += 1
        try budgetTransfers.execute(arguments: [Int64(summary.budgetTransfers), userId, from, to, amountMinor, periodStart, createdAt])
    }

    func savingsGoal(userId: Int64, name: String, targetMinor: Int64, currency: String, balanceId: Int64, dueOn: String?) throws {
        summary.savingsGoals += 1
        try savingsGoals.execute(arguments: [Int64(summary.savingsGoals), userId, name, targetMinor, currency, balanceId, dueOn])
    }

    func exchangeRate(day: String, base: String, quote: String, rate: Double) throws {
        try exchangeRates.execute(arguments: [day, base, quote, rate])
        summary.exchangeRates += 1
    }

    func login(userId: Int64, at: String) throws {
        try logins.execute(arguments: [userId, at])
        summary.logins += 1
    }
}
