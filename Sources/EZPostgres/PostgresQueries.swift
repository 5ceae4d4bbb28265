import EZLedger

/// The PostgreSQL text of each ``LedgerQuery``: the same columns, in the same order, as the
/// SQLite text, from the typed tables of `samples/schema.postgres.sql`.
///
/// Typed instants and dates come back as the contract's text (an instant in UTC with
/// milliseconds, `2026-10-05T09:30:00.000Z`; a date as `2026-10-05`), which the shared rules
/// parse exactly as they parse SQLite's text; `bigint` and `integer` columns are integers and a
/// `boolean` reads as 1 or 0. An instant-or-date pair (`occurred_at` and `occurred_on`,
/// `joined_at`/`joined_on`, `left_at`/`left_on`) becomes the one column the rules read (see
/// ``either(_:_:)``). A typed `deleted_at` is a timestamp, so the column SQLite's queries add for
/// one that cannot be (see ``notDeleted(_:)``) holds here only one the contract's text cannot hold
/// (see ``unreadableDeletion(_:)``). Parameters are `$1`, `$2`,
/// always bound.
extension LedgerQuery {
    /// An instant column as contract text (UTC, milliseconds), NULL for NULL. A value the contract's
    /// text cannot hold (`infinity`, a year before 1 or after 9999, which `to_char` would print as
    /// NULL, as a year of AD or as five digits) comes back as PostgreSQL's own text, which the rules
    /// quarantine as not a timestamp, as SQLite's would be: never a row that silently counts nowhere.
    static func instant(_ column: String) -> String {
        """
        CASE WHEN \(inContractYears("\(column) AT TIME ZONE 'UTC'")) THEN to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
             ELSE \(column)::text END
        """
    }

    /// A date column as contract text, NULL for NULL; out of the contract's years, its own text (see ``instant(_:)``).
    static func day(_ column: String) -> String {
        "CASE WHEN \(inContractYears(column)) THEN to_char(\(column), 'YYYY-MM-DD') ELSE \(column)::text END"
    }

    /// `alias.deleted_at` beside a row the reads keep: NULL, or for a time the contract's text cannot
    /// hold (±infinity, a year outside 1–9999, a BC date) PostgreSQL's own text, which the rules
    /// quarantine as a `deleted_at` that is not a timestamp (``LedgerContract/unparsedDeletion(_:)``),
    /// as SQLite's reads do (``LedgerQuery/notDeleted(_:)``). Such a row was read as deleted and
    /// left out unsaid: `check` said "Clean" and its money counted nowhere (outside PostgreSQL test).
    static func unreadableDeletion(_ alias: String) -> String {
        "CASE WHEN NOT \(inContractYears("\(alias).deleted_at AT TIME ZONE 'UTC'")) THEN \(alias).deleted_at::text END"
    }

    /// Whether `alias`'s row is read: not deleted, or deleted at a time the contract cannot hold
    /// (then quarantined: see ``unreadableDeletion(_:)``).
    static func liveOrUnreadable(_ alias: String) -> String {
        "(\(alias).deleted_at IS NULL OR NOT \(inContractYears("\(alias).deleted_at AT TIME ZONE 'UTC'")))"
    }

    /// Whether a date or timestamp lies in the years 1–9999 (false for ±infinity, NULL for NULL).
    static func inContractYears(_ value: String) -> String { "extract(year FROM \(value)) BETWEEN 1 AND 9999" }

    /// The user columns of ``RowValidator``'s user rule, in its order.
    static let postgresUserColumns = "u.id, u.username, u.email, u.role, u.currency, u.timezone, u.locale, u.book_name, "
        + "u.monthly_limit_minor, u.chart_style, \(instant("u.created_at")), \(instant("u.deleted_at"))"

    /// An instant-or-date pair (`occurred_at`/`occurred_on`) as the one contract column the rules
    /// read: the instant, or the bare date, NULL when neither is set; both set (which the schema's
    /// checks forbid) give a text that the rules quarantine as not a timestamp.
    static func either(_ instantColumn: String, _ dateColumn: String) -> String {
        """
        CASE WHEN \(dateColumn) IS NULL THEN \(instant(instantColumn))
             WHEN \(instantColumn) IS NULL THEN \(day(dateColumn))
             ELSE \(instant(instantColumn)) || ' and ' || \(day(dateColumn)) END
        """
    }

    /// Whether the query reads a whole table (every user, every rate) rather than one user's rows:
    /// such a query is read through a server-side cursor, a batch at a time, so that a million
    /// users never sit in memory as one result.
    var readsWholeTable: Bool {
        switch self {
        case .userRefs, .allUserRows, .allUserRowsWithStartDay, .deliveryContacts, .deliveryContactsWithoutOptIn, .exchangeRates, .exchangeRatesText,
             .orphanTransactions, .orphanFamilyMembers, .orphanGroupMembers, .statementEmails:
            return true
        default:
            return false
        }
    }

    /// The query's PostgreSQL text.
    package var postgres: String {
        switch self {
        case .userRefs: return "SELECT id, username, deleted_at IS NOT NULL, \(Self.instant("created_at")), timezone FROM users ORDER BY id"
        case .liveUserById: return "SELECT id FROM users WHERE id = $1 AND deleted_at IS NULL"
        case .transactionCount: return "SELECT COUNT(*) FROM transactions WHERE user_id = $1"
        case .liveUserByName: return "SELECT id FROM users WHERE username = $1 AND deleted_at IS NULL"
        case .userRow: return "SELECT \(Self.postgresUserColumns), NULL::integer FROM users u WHERE u.id = $1"
        case .allUserRows: return "SELECT \(Self.postgresUserColumns), NULL::integer FROM users u ORDER BY u.id"
        case .userRowWithStartDay: return "SELECT \(Self.postgresUserColumns), u.month_start_day FROM users u WHERE u.id = $1"
        case .allUserRowsWithStartDay: return "SELECT \(Self.postgresUserColumns), u.month_start_day FROM users u ORDER BY u.id"
        case .account: return "SELECT role FROM users WHERE id = $1 AND deleted_at IS NULL"
        case .isParent:
            return """
                SELECT 1 FROM family_members p
                JOIN families f ON f.id = p.family_id
                JOIN family_members c ON c.family_id = p.family_id
                JOIN users u ON u.id = c.user_id
                WHERE p.user_id = $1 AND p.role = 'parent' AND c.user_id = $2 AND c.role = 'child' AND u.deleted_at IS NULL
                """
        case .deliveryContacts:
            return "SELECT id, username, email, locale, deleted_at IS NOT NULL, statement_email, \(Self.instant("created_at")) FROM users ORDER BY id"
        case .deliveryContactsWithoutOptIn:
            return "SELECT id, username, email, locale, deleted_at IS NOT NULL, NULL::bigint, \(Self.instant("created_at")) FROM users ORDER BY id"
        case .balancesOfUser:
            return """
                SELECT id, user_id, name, kind, currency, opening_minor, \(Self.instant("created_at")), \(Self.unreadableDeletion("balances"))
                FROM balances WHERE user_id = $1 AND \(Self.liveOrUnreadable("balances")) ORDER BY id
                """
        case .categoriesOfUser:
            return """
                SELECT id, name, color, important, position, \(Self.unreadableDeletion("categories")) FROM categories
                WHERE user_id = $1 AND \(Self.liveOrUnreadable("categories")) ORDER BY position, id
                """
        case .transactionsOfUser, .transactionsOfGroup, .transactionsOfUserInWindow, .transactionsOfGroupInWindow:
            // The local date bound, in UTC with the same two-day margin as SQLite's text bound; rows
            // with no time at all are kept so that the rules quarantine them.
            let byUser = self == .transactionsOfUser || self == .transactionsOfUserInWindow
            let day = "COALESCE(t.occurred_on, (t.occurred_at AT TIME ZONE 'UTC')::date)"
            let window = self == .transactionsOfUserInWindow || self == .transactionsOfGroupInWindow
                ? "\(day) < $2::date AND \(day) >= $3::date" : "\(day) < $2::date"
            return """
                SELECT t.id, t.user_id, t.balance_id, t.category_id, t.group_id, t.kind, t.to_balance_id,
                       t.amount_minor, t.currency, \(Self.either("t.occurred_at", "t.occurred_on")), t.method, t.description, t.recurrence_days,
                       \(Self.instant("t.created_at")), \(Self.unreadableDeletion("t"))
                FROM transactions t
                WHERE \(byUser ? "t.user_id" : "t.group_id") = $1 AND \(Self.liveOrUnreadable("t"))
                  AND ((\(window)) OR (t.occurred_on IS NULL AND t.occurred_at IS NULL) OR NOT \(Self.inContractYears(day)))
                """
        case .groupSplitsInWindow:
            return """
                SELECT s.transaction_id, s.user_id, s.share_minor, u.id
                FROM splits s JOIN transactions t ON t.id = s.transaction_id LEFT JOIN users u ON u.id = s.user_id
                WHERE t.group_id = $1 AND t.deleted_at IS NULL
                  AND COALESCE(t.occurred_on, (t.occurred_at AT TIME ZONE 'UTC')::date) >= $2::date
                ORDER BY s.transaction_id, s.user_id
                """
        case .groupPayments:
            let day = "COALESCE(p.occurred_on, (p.occurred_at AT TIME ZONE 'UTC')::date)"
            return """
                SELECT p.id, p.from_user_id, p.to_user_id, p.from_balance_id, p.to_balance_id,
                       p.amount_minor, p.currency, \(Self.either("p.occurred_at", "p.occurred_on")), \(Self.instant("p.created_at")),
                       fb.user_id, fb.currency, tb.user_id, tb.currency, \(Self.unreadableDeletion("p"))
                FROM group_payments p
                LEFT JOIN balances fb ON fb.id = p.from_balance_id LEFT JOIN balances tb ON tb.id = p.to_balance_id
                WHERE p.group_id = $1 AND \(Self.liveOrUnreadable("p"))
                  AND (\(day) < $2::date OR (p.occurred_on IS NULL AND p.occurred_at IS NULL) OR NOT \(Self.inContractYears(day)))
                ORDER BY p.id
                """
        case .orphanGroupPayments:
            return """
                SELECT p.id, p.group_id FROM group_payments p LEFT JOIN groups g ON g.id = p.group_id
                WHERE \(Self.liveOrUnreadable("p")) AND g.id IS NULL ORDER BY p.id
                """
        case .groupsOfUser:
            return """
                SELECT g.id, g.name, g.owner_id, g.currency, \(Self.instant("g.created_at")), \(Self.unreadableDeletion("g")) FROM groups g
                JOIN group_members gm ON gm.group_id = g.id
                WHERE gm.user_id = $1 AND \(Self.liveOrUnreadable("g")) ORDER BY g.id
                """
        case .groupMembers:
            return """
                SELECT gm.user_id, \(Self.either("gm.joined_at", "gm.joined_on")), \(Self.either("gm.left_at", "gm.left_on")),
                       u.username, u.timezone, u.id
                FROM group_members gm LEFT JOIN users u ON u.id = gm.user_id
                WHERE gm.group_id = $1 ORDER BY gm.user_id
                """
        case .groupSplits:
            return """
                SELECT s.transaction_id, s.user_id, s.share_minor, u.id
                FROM splits s JOIN transactions t ON t.id = s.transaction_id LEFT JOIN users u ON u.id = s.user_id
                WHERE t.group_id = $1 AND t.deleted_at IS NULL ORDER BY s.transaction_id, s.user_id
                """
        case .budgetsOfUser:
            return """
                SELECT b.id, b.category_id, b.period, b.amount_minor, b.currency, \(Self.day("b.starts_on")), \(Self.day("b.ends_on")),
                       c.id, c.user_id, c.deleted_at
                FROM budgets b LEFT JOIN categories c ON c.id = b.category_id WHERE b.user_id = $1 ORDER BY b.id
                """
        case .budgetTransfersOfUser:
            return """
                SELECT bt.id, bt.from_category_id, bt.to_category_id, bt.amount_minor, \(Self.day("bt.period_start")),
                       f.user_id, t.user_id
                FROM budget_transfers bt
                LEFT JOIN categories f ON f.id = bt.from_category_id LEFT JOIN categories t ON t.id = bt.to_category_id
                WHERE bt.user_id = $1 ORDER BY bt.id
                """
        case .savingsGoalsOfUser:
            return """
                SELECT s.id, s.name, s.target_minor, s.currency, s.balance_id, \(Self.day("s.due_on")), b.user_id, b.currency
                FROM savings_goals s LEFT JOIN balances b ON b.id = s.balance_id WHERE s.user_id = $1 ORDER BY s.id
                """
        case .loginsOfUser:
            // No rowid in PostgreSQL: a login is named by its place in time order (`at` is typed, so
            // the rules never quarantine one by that name).
            return "SELECT row_number() OVER (ORDER BY at), \(Self.instant("at")) FROM logins WHERE user_id = $1 ORDER BY at"
        case .familyOfUser:
            return """
                SELECT fm.family_id, f.name, fm.role, f.id IS NOT NULL FROM family_members fm LEFT JOIN families f ON f.id = fm.family_id WHERE fm.user_id = $1
                """
        case .familyChildren:
            return """
                SELECT fm.user_id FROM family_members fm JOIN users u ON u.id = fm.user_id
                WHERE fm.family_id = $1 AND fm.role = 'child' AND u.deleted_at IS NULL ORDER BY fm.user_id
                """
        case .owner: return "SELECT timezone, currency, deleted_at FROM users WHERE id = $1"
        case .balancesOfOwner: return "SELECT id, user_id, currency FROM balances WHERE user_id = $1"
        case .balanceById: return "SELECT id, user_id, currency FROM balances WHERE id = $1"
        case .categoriesOfOwner: return "SELECT id, user_id, name, deleted_at FROM categories WHERE user_id = $1"
        case .categoryById: return "SELECT id, user_id, name, deleted_at FROM categories WHERE id = $1"
        case .groupById: return "SELECT currency, NOT \(Self.liveOrUnreadable("groups")) FROM groups WHERE id = $1"
        case .dataVersion:
            // A digest of the rows' content: any insert, update or delete changes it, whatever order
            // the writers' transactions commit in (the newest xmin did not move when an older
            // transaction committed last, and it restarts after a wraparound).
            return """
                SELECT count(*) * 4294967296
                       + coalesce(sum(hashtext(day::text || '|' || base || '|' || quote || '|' || rate::text)), 0)
                FROM exchange_rates
                """
        case .exchangeRates:
            // No rowid: a rate row is named by its place in (day, base, quote) order.
            return """
                SELECT row_number() OVER (ORDER BY day, base COLLATE "C", quote COLLATE "C"), \(Self.day("day")), base, quote,
                       rate::float8
                FROM exchange_rates ORDER BY 1
                """
        case .exchangeRatesText:
            return """
                SELECT \(Self.day("day")), base, quote, rate::float8::text FROM exchange_rates
                ORDER BY day, base COLLATE "C", quote COLLATE "C"
                """
        case .orphanTransactions:
            return """
                SELECT t.id, t.user_id FROM transactions t LEFT JOIN users u ON u.id = t.user_id
                WHERE \(Self.liveOrUnreadable("t")) AND u.id IS NULL ORDER BY t.id
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
