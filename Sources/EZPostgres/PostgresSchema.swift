/// The ledger contract (version 1) as a PostgreSQL schema: the text of `samples/schema.postgres.sql`,
/// byte for byte (a test compares them).
///
/// The same tables, columns, keys and indexes as the SQLite contract (`samples/schema.sql`), typed:
/// `bigint` ids and minor units, `timestamptz` instants, `date` bare dates, `text` currencies,
/// `boolean` flags and `double precision` rates. Where a SQLite column holds an instant or a bare
/// local date (`transactions.occurred_at`, `group_members.joined_at` and `left_at`), two columns
/// hold it here: `occurred_at timestamptz` or `occurred_on date`, and so on, at most one of them set. `ezreport sample --out postgres://…` runs ``tablesSQL`` before its bulk insert and
/// ``indexesSQL`` after it.
package enum PostgresSchema {
    package static let createSQL: String = """
        -- The EZWallet ledger contract, version 1, in PostgreSQL (samples/schema.sql is the SQLite form).
        -- The app writes this schema; ezreport only reads it. See docs/ledger-schema.md.
        -- Money: bigint minor units. Currency: ISO-4217 code (text). Instants: timestamptz.
        -- Bare local dates: date. Where SQLite's one column holds an instant or a bare local date,
        -- two columns hold it here: transactions.occurred_at/occurred_on (and group_payments'), group_members'
        -- joined_at/joined_on and left_at/left_on (at most one of a pair set; occurred and joined: exactly one).

        CREATE TABLE users (
            id bigint PRIMARY KEY,
            username text UNIQUE NOT NULL,
            email text NOT NULL,
            password_hash text,
            role text NOT NULL,
            currency text NOT NULL,
            timezone text NOT NULL,
            locale text NOT NULL,
            book_name text,
            monthly_limit_minor bigint,
            chart_style text NOT NULL DEFAULT 'pie',
            created_at timestamptz NOT NULL,
            deleted_at timestamptz,
            statement_email boolean,
            month_start_day integer
        );

        CREATE TABLE balances (
            id bigint PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id),
            name text NOT NULL,
            kind text NOT NULL,
            currency text NOT NULL,
            opening_minor bigint NOT NULL DEFAULT 0,
            created_at timestamptz NOT NULL,
            deleted_at timestamptz
        );

        CREATE TABLE categories (
            id bigint PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id),
            name text NOT NULL,
            color text,
            important boolean NOT NULL DEFAULT false,
            position integer NOT NULL DEFAULT 0,
            deleted_at timestamptz
        );

        CREATE TABLE groups (
            id bigint PRIMARY KEY,
            name text NOT NULL,
            owner_id bigint NOT NULL REFERENCES users(id),
            currency text NOT NULL,
            created_at timestamptz NOT NULL,
            deleted_at timestamptz
        );

        CREATE TABLE transactions (
            id bigint PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id),
            balance_id bigint REFERENCES balances(id),
            category_id bigint REFERENCES categories(id),
            group_id bigint REFERENCES groups(id),
            kind text NOT NULL,
            to_balance_id bigint REFERENCES balances(id),
            amount_minor bigint NOT NULL,
            currency text NOT NULL,
            occurred_at timestamptz,
            occurred_on date,
            method text,
            description text,
            recurrence_days integer,
            created_at timestamptz NOT NULL,
            deleted_at timestamptz,
            CONSTRAINT transactions_occurred_once CHECK ((occurred_at IS NULL) <> (occurred_on IS NULL))
        );

        CREATE TABLE splits (
            transaction_id bigint NOT NULL REFERENCES transactions(id),
            user_id bigint NOT NULL REFERENCES users(id),
            share_minor bigint NOT NULL,
            PRIMARY KEY (transaction_id, user_id)
        );

        CREATE TABLE group_members (
            group_id bigint NOT NULL REFERENCES groups(id),
            user_id bigint NOT NULL REFERENCES users(id),
            joined_at timestamptz,
            joined_on date,
            left_at timestamptz,
            left_on date,
            PRIMARY KEY (group_id, user_id),
            CONSTRAINT group_members_joined_once CHECK ((joined_at IS NULL) <> (joined_on IS NULL)),
            CONSTRAINT group_members_left_once CHECK (left_at IS NULL OR left_on IS NULL)
        );

        CREATE TABLE group_payments (
            id bigint PRIMARY KEY,
            group_id bigint NOT NULL REFERENCES groups(id),
            from_user_id bigint NOT NULL REFERENCES users(id),
            to_user_id bigint NOT NULL REFERENCES users(id),
            from_balance_id bigint REFERENCES balances(id),
            to_balance_id bigint REFERENCES balances(id),
            amount_minor bigint NOT NULL,
            currency text NOT NULL,
            occurred_at timestamptz,
            occurred_on date,
            created_at timestamptz NOT NULL,
            deleted_at timestamptz,
            CONSTRAINT group_payments_occurred_once CHECK ((occurred_at IS NULL) <> (occurred_on IS NULL))
        );

        CREATE TABLE families (
            id bigint PRIMARY KEY,
            name text NOT NULL,
            created_at timestamptz NOT NULL
        );

        CREATE TABLE family_members (
            family_id bigint NOT NULL REFERENCES families(id),
            user_id bigint NOT NULL UNIQUE REFERENCES users(id),
            role text NOT NULL
        );

        CREATE TABLE budgets (
            id bigint PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id),
            category_id bigint REFERENCES categories(id),
            period text NOT NULL,
            amount_minor bigint NOT NULL,
            currency text NOT NULL,
            starts_on date NOT NULL,
            ends_on date
        );

        CREATE TABLE budget_transfers (
            id bigint PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id),
            from_category_id bigint NOT NULL REFERENCES categories(id),
            to_category_id bigint NOT NULL REFERENCES categories(id),
            amount_minor bigint NOT NULL,
            period_start date NOT NULL,
            created_at timestamptz NOT NULL
        );

        CREATE TABLE savings_goals (
            id bigint PRIMARY KEY,
            user_id bigint NOT NULL REFERENCES users(id),
            name text NOT NULL,
            target_minor bigint NOT NULL,
            currency text NOT NULL,
            balance_id bigint NOT NULL REFERENCES balances(id),
            due_on date
        );

        CREATE TABLE exchange_rates (
            day date NOT NULL,
            base text NOT NULL,
            quote text NOT NULL,
            rate double precision NOT NULL,
            PRIMARY KEY (day, base, quote)
        );

        CREATE TABLE logins (
            user_id bigint NOT NULL REFERENCES users(id),
            at timestamptz NOT NULL
        );

        -- Indexes the engine's per-user reads rely on for speed (the app creates them too).
        CREATE INDEX transactions_by_user_time ON transactions(user_id, occurred_at);
        CREATE INDEX transactions_by_group_time ON transactions(group_id, occurred_at) WHERE group_id IS NOT NULL;
        CREATE INDEX splits_by_user ON splits(user_id);
        CREATE INDEX group_members_by_user ON group_members(user_id);
        CREATE INDEX group_payments_by_group_time ON group_payments(group_id, occurred_at);
        CREATE INDEX balances_by_user ON balances(user_id);
        CREATE INDEX categories_by_user ON categories(user_id);
        CREATE INDEX budgets_by_user ON budgets(user_id);
        CREATE INDEX budget_transfers_by_user ON budget_transfers(user_id);
        CREATE INDEX savings_goals_by_user ON savings_goals(user_id);
        CREATE INDEX logins_by_user ON logins(user_id, at);

        """

    /// The `…_on date` twin of each instant-or-date column, by table (beside the contract's columns).
    package static let dateTwins: [String: [String]] = [
        "transactions": ["occurred_on"], "group_members": ["joined_on", "left_on"], "group_payments": ["occurred_on"],
    ]

    /// ``createSQL`` up to (not including) the index section: the tables.
    package static var tablesSQL: String { String(createSQL[..<indexSectionStart]) }

    /// The index section of ``createSQL``: its comment and every `CREATE INDEX` statement.
    package static var indexesSQL: String { String(createSQL[indexSectionStart...]) }

    private static var indexSectionStart: String.Index {
        createSQL.range(of: "-- Indexes")?.lowerBound ?? createSQL.endIndex
    }
}
