/// Every query the contract's rules run, named once; each backend gives its SQL for it
/// (``sqlite`` here, PostgreSQL's in EZPostgres), returning the same columns in the same order.
///
/// The rules read columns by position, so a case's documentation lists its columns. Text
/// timestamps and dates come back in the contract's text forms (a PostgreSQL `timestamptz` as
/// `YYYY-MM-DDTHH:MM:SS.fffZ`, a `date` as `YYYY-MM-DD`) so that one parser reads both.
/// Arguments are always bound, never spliced into the SQL.
package enum LedgerQuery: Hashable, Sendable, CaseIterable {
    // MARK: Users
    /// `id, username, deleted` (deleted: 1 or 0), every user by id.
    case userRefs
    /// `id` of the live user with id `$1`.
    case liveUserById
    /// `COUNT(*)` of user `$1`'s own transactions, every date: a job's size before its rows are read.
    case transactionCount
    /// `id` of the live user with username `$1` (text).
    case liveUserByName
    /// ``RowValidator/userColumns`` of user `$1`, then NULL (a ledger without `month_start_day`).
    case userRow
    /// ``RowValidator/userColumns`` of every user, by id, then NULL.
    case allUserRows
    /// ``RowValidator/userColumns`` of user `$1`, then `month_start_day`.
    case userRowWithStartDay
    /// ``RowValidator/userColumns`` of every user, by id, then `month_start_day`.
    case allUserRowsWithStartDay
    /// `role` of the live user `$1`.
    case account
    /// `1` when `$1` is a parent and `$2` a live child of the same family.
    case isParent
    /// `id, username, email, locale, deleted, statement_email` of every user by id.
    case deliveryContacts
    /// As ``deliveryContacts`` with NULL for a ledger without `users.statement_email`.
    case deliveryContactsWithoutOptIn

    // MARK: One user's tables
    /// `id, user_id, name, kind, currency, opening_minor, created_at, deleted_at` of user `$1`'s live balances
    /// (`deleted_at` set only when it cannot be a timestamp: see ``notDeleted(_:)``).
    case balancesOfUser
    /// `id, name, color, important, position, deleted_at` of user `$1`'s live categories (as ``balancesOfUser``).
    case categoriesOfUser
    /// ``TransactionRules/select`` of user `$1`'s live transactions before local date `$2` (text) + 1 day margin.
    case transactionsOfUser
    /// ``TransactionRules/select`` of group `$1`'s live transactions, bounded as ``transactionsOfUser``.
    case transactionsOfGroup
    /// As ``transactionsOfUser``, only from local date `$3` (text) − 2 days on (a window's load).
    case transactionsOfUserInWindow
    /// As ``transactionsOfGroup``, only from local date `$3` (text) − 2 days on.
    case transactionsOfGroupInWindow
    /// As ``groupSplits``, only of transactions from local date `$2` (text) − 2 days on.
    case groupSplitsInWindow
    /// ``RowValidator/groupPaymentColumns`` of group `$1`'s live settle-up payments before `$2` (as transactions).
    case groupPayments
    /// `id, group_id` of live settle-up payments whose group does not exist.
    case orphanGroupPayments
    /// `id, name, owner_id, currency, created_at, deleted_at` of the live groups user `$1` is a member of (as ``balancesOfUser``).
    case groupsOfUser
    /// `user_id, joined_at, left_at, username, timezone, users.id` of group `$1`'s members.
    case groupMembers
    /// `transaction_id, user_id, share_minor, users.id` of the splits of group `$1`'s live transactions.
    case groupSplits
    /// `id, category_id, period, amount_minor, currency, starts_on, ends_on, category id, category user_id, category deleted_at` of user `$1`'s budgets.
    case budgetsOfUser
    /// `id, from_category_id, to_category_id, amount_minor, period_start, from user_id, to user_id` of user `$1`'s budget transfers.
    case budgetTransfersOfUser
    /// `id, name, target_minor, currency, balance_id, due_on, balance user_id` of user `$1`'s savings goals.
    case savingsGoalsOfUser
    /// `row id, at` of user `$1`'s logins.
    case loginsOfUser
    /// `family_id, family name, role, whether the family exists` of user `$1`'s family membership.
    case familyOfUser
    /// `user_id` of family `$1`'s live children, by id.
    case familyChildren

    // MARK: Rows a transaction refers to
    /// `timezone, currency, deleted_at` of user `$1`.
    case owner
    /// `id, user_id, currency` of user `$1`'s balances (deleted ones too).
    case balancesOfOwner
    /// `id, user_id, currency` of balance `$1`.
    case balanceById
    /// `id, user_id, name, deleted_at` of user `$1`'s categories (deleted ones too).
    case categoriesOfOwner
    /// `id, user_id, name, deleted_at` of category `$1`.
    case categoryById
    /// `currency, deleted` (1 or 0) of group `$1`.
    case groupById

    // MARK: The whole ledger
    /// A number that moves whenever the exchange rates may have changed (``LiveRates``): SQLite's
    /// `data_version` (any commit by another connection); on PostgreSQL, made of the rates'
    /// row count and newest row version (`xmin`).
    case dataVersion
    /// `row id, day, base, quote, rate` of every exchange rate.
    case exchangeRates
    /// `day, base, quote, rate as text` of every exchange rate, by day, base and quote (the rates' digest).
    case exchangeRatesText
    /// `id, user_id` of live transactions whose user does not exist.
    case orphanTransactions
    /// `family_id, user_id` of family members whose user does not exist.
    case orphanFamilyMembers
    /// `group_id, user_id` of group members whose group does not exist.
    case orphanGroupMembers
    /// `id, statement_email` of every user (for ledgers that have the column).
    case statementEmails
}

/// A value bound to a ``LedgerQuery``'s parameter.
package enum LedgerArgument: Hashable, Sendable {
    case integer(Int64)
    case text(String)
}

extension LedgerQuery {
    /// The query's SQLite text (`?` parameters).
    package var sqlite: String {
        switch self {
        // A user is deleted when `deleted_at` holds a date. One holding anything else is not taken
        // as deleted: the user stays in the run and fails there with the reason (the contract's
        // rule), instead of vanishing from it with exit 0.
        case .userRefs: return "SELECT id, username, \(Self.isDeleted), created_at, timezone FROM users ORDER BY id"
        case .liveUserById: return "SELECT id FROM users WHERE id = ? AND NOT \(Self.isDeleted)"
        case .transactionCount: return "SELECT COUNT(*) FROM transactions WHERE user_id = ?"
        case .liveUserByName: return "SELECT id FROM users WHERE username = ? AND NOT \(Self.isDeleted)"
        case .userRow: return "SELECT \(RowValidator.userColumns), NULL FROM users u WHERE u.id = ?"
        case .allUserRows: return "SELECT \(RowValidator.userColumns), NULL FROM users u ORDER BY u.id"
        case .userRowWithStartDay: return "SELECT \(RowValidator.userColumns), u.month_start_day FROM users u WHERE u.id = ?"
        case .allUserRowsWithStartDay: return "SELECT \(RowValidator.userColumns), u.month_start_day FROM users u ORDER BY u.id"
        // A `deleted_at` that cannot be a timestamp is not a deletion (``isDeleted``): the account
        // is read, and its report answers that the row breaks the contract (422), not 401.
        case .account: return "SELECT role FROM users WHERE id = ? AND NOT \(Self.isDeleted)"
        case .isParent:
            return """
                SELECT 1 FROM family_members p
                JOIN families f ON f.id = p.family_id
                JOIN family_members c ON c.family_id = p.family_id
                JOIN users u ON u.id = c.user_id
                WHERE p.user_id = ? AND p.role = 'parent' AND c.user_id = ? AND c.role = 'child' AND u.deleted_at IS NULL
                """
        case .deliveryContacts:
            return "SELECT id, username, email, locale, deleted_at IS NOT NULL, statement_email, created_at FROM users ORDER BY id"
        case .deliveryContactsWithoutOptIn:
            return "SELECT id, username, email, locale, deleted_at IS NOT NULL, NULL, created_at FROM users ORDER BY id"
        case .balancesOfUser:
            return """
                SELECT id, user_id, name, kind, currency, opening_minor, created_at, deleted_at
                FROM balances WHERE user_id = ? AND \(Self.notDeleted("balances")) ORDER BY id
                """
        case .categoriesOfUser:
            return """
                SELECT id, name, color, important, position, deleted_at FROM categories
                WHERE user_id = ? AND \(Self.notDeleted("categories")) ORDER BY position, id
                """
        case .transactionsOfUser, .transactionsOfGroup, .transactionsOfUserInWindow, .transactionsOfGroupInWindow:
            // `occurred_at < bound` keeps rows up to the bound in any zone (bare dates and timestamps
            // both start with the date, so text order works with a two-day margin); rows whose text is
            // not a date at all, or NULL (a file whose table lacks NOT NULL), are kept so that they
            // are quarantined, not silently dropped.
            let byUser = self == .transactionsOfUser || self == .transactionsOfUserInWindow
            let window = self == .transactionsOfUserInWindow || self == .transactionsOfGroupInWindow
                ? "t.occurred_at < ? AND t.occurred_at >= ?" : "t.occurred_at < ?"
            return TransactionRules.select + """

                WHERE \(byUser ? "t.user_id" : "t.group_id") = ? AND \(Self.notDeleted("t"))
                  AND ((\(window)) OR t.occurred_at IS NULL OR t.occurred_at NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')
                """
        case .groupSplitsInWindow:
            return """
                SELECT s.transaction_id, s.user_id, s.share_minor, u.id
                FROM splits s JOIN transactions t ON t.id = s.transaction_id LEFT JOIN users u ON u.id = s.user_id
                WHERE t.group_id = ? AND t.deleted_at IS NULL AND t.occurred_at >= ? ORDER BY s.transaction_id, s.user_id
                """
        case .groupPayments:
            return """
                SELECT \(RowValidator.groupPaymentColumns)
                FROM group_payments p
                LEFT JOIN balances fb ON fb.id = p.from_balance_id LEFT JOIN balances tb ON tb.id = p.to_balance_id
                WHERE p.group_id = ? AND \(Self.notDeleted("p"))
                  AND (p.occurred_at < ? OR p.occurred_at IS NULL OR p.occurred_at NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')
                ORDER BY p.id
                """
        case .orphanGroupPayments:
            return """
                SELECT p.id, p.group_id FROM group_payments p LEFT JOIN groups g ON g.id = p.group_id
                WHERE \(Self.notDeleted("p")) AND g.id IS NULL ORDER BY p.id
                """
        case .groupsOfUser:
            return """
                SELECT g.id, g.name, g.owner_id, g.currency, g.created_at, g.deleted_at FROM groups g
                JOIN group_members gm ON gm.group_id = g.id
                WHERE gm.user_id = ? AND \(Self.notDeleted("g")) ORDER BY g.id
                """
        case .groupMembers:
            return """
                SELECT gm.user_id, gm.joined_at, gm.left_at, u.username, u.timezone, u.id
                FROM group_members gm LEFT JOIN users u ON u.id = gm.user_id
                WHERE gm.group_id = ? ORDER BY gm.user_id
                """
        case .groupSplits:
            return """
                SELECT s.transaction_id, s.user_id, s.share_minor, u.id
                FROM splits s JOIN transactions t ON t.id = s.transaction_id LEFT JOIN users u ON u.id = s.user_id
                WHERE t.group_id = ? AND t.deleted_at IS NULL ORDER BY s.transaction_id, s.user_id
                """
        case .budgetsOfUser:
            return """
                SELECT b.id, b.category_id, b.period, b.amount_minor, b.currency, b.starts_on, b.ends_on,
                       c.id, c.user_id, c.deleted_at
                FROM budgets b LEFT JOIN categories c ON c.id = b.category_id WHERE b.user_id = ? ORDER BY b.id
                """
        case .budgetTransfersOfUser:
            return """
                SELECT bt.id, bt.from_category_id, bt.to_category_id, bt.amount_minor, bt.period_start,
                       f.user_id, t.user_id
                FROM budget_transfers bt
                LEFT JOIN categories f ON f.id = bt.from_category_id LEFT JOIN categories t ON t.id = bt.to_category_id
                WHERE bt.user_id = ? ORDER BY bt.id
                """
        case .savingsGoalsOfUser:
            return """
                SELECT s.id, s.name, s.target_minor, s.currency, s.balance_id, s.due_on, b.user_id, b.currency
                FROM savings_goals s LEFT JOIN balances b ON b.id = s.balance_id WHERE s.user_id = ? ORDER BY s.id
                """
        case .loginsOfUser: return "SELECT rowid, at FROM logins WHERE user_id = ? ORDER BY rowid"
        case .familyOfUser:
            return """
                SELECT fm.family_id, f.name, fm.role, f.id IS NOT NULL FROM family_members fm LEFT JOIN families f ON f.id = fm.family_id WHERE fm.user_id = ?
                """
        case .familyChildren:
            return """
                SELECT fm.user_id FROM family_members fm JOIN users u ON u.id = fm.user_id
                WHERE fm.family_id = ? AND fm.role = 'child' AND u.deleted_at IS NULL ORDER BY fm.user_id
                """
        case .owner: return "SELECT timezone, currency, deleted_at FROM users WHERE id = ?"
        case .balancesOfOwner: return "SELECT id, user_id, currency FROM balances WHERE user_id = ?"
        case .balanceById: return "SELECT id, user_id, currency FROM balances WHERE id = ?"
        case .categoriesOfOwner: return "SELECT id, user_id, name, deleted_at FROM categories WHERE user_id = ?"
        case .categoryById: return "SELECT id, user_id, name, deleted_at FROM categories WHERE id = ?"
        // Deleted as ``notDeleted(_:)`` reads it: a group whose `deleted_at` cannot be a timestamp is
        // not deleted; its member's load quarantines it, and its expenses with it.
        case .groupById: return "SELECT currency, NOT \(Self.notDeleted("groups")) FROM groups WHERE id = ?"
        case .dataVersion: return "PRAGMA data_version"
        case .exchangeRates: return "SELECT rowid, day, base, quote, rate FROM exchange_rates ORDER BY rowid"
        case .exchangeRatesText: return "SELECT day, base, quote, CAST(rate AS TEXT) FROM exchange_rates ORDER BY day, base, quote"
        case .orphanTransactions:
            return """
                SELECT t.id, t.user_id FROM transactions t LEFT JOIN users u ON u.id = t.user_id
                WHERE \(Self.notDeleted("t")) AND u.id IS NULL ORDER BY t.id
                """
        case .orphanFamilyMembers:
            return """
                SELECT fm.family_id, fm.user_id FROM family_members fm LEFT JOIN users u ON u.id = fm.user_id
                WHERE u.id IS NULL ORDER BY fm.family_id, fm.user_id
                """
        case .orphanGroupMembers:
            return """
                SELECT gm.group_id, gm.user_id FROM group_members gm LEFT JOIN groups g ON g.id = gm.group_id
                WHERE g.id IS NULL ORDER BY gm.group_id, gm.user_id
                """
        case .statementEmails: return "SELECT id, statement_email FROM users ORDER BY id"
        }
    }
}

extension LedgerQuery {
    /// SQL for "this user is deleted": `deleted_at` holds a date (text that starts like one).
    static let isDeleted = "coalesce(deleted_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*', 0)"

    /// SQL for "the row of table or alias `table` is not soft-deleted", the rule ``isDeleted`` gives
    /// users: its `deleted_at` is NULL, or holds something that cannot be a timestamp (it does not
    /// start like a date: `''`, `0`, `'no'`). Those rows are read, and their rules quarantine them
    /// (``LedgerContract/unparsedDeletion(_:)``) instead of the row vanishing from every figure
    /// with nothing reported.
    static func notDeleted(_ table: String) -> String {
        "(\(table).deleted_at IS NULL OR NOT \(table).deleted_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*')"
    }
}
