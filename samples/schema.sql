-- The EZWallet ledger contract, version 1 (PRAGMA user_version = 1).
-- The app writes this schema; ezreport only reads it. See docs/ledger-schema.md.
-- Money: INTEGER minor units. Currency: ISO-4217 code. Timestamps: ISO-8601 TEXT,
-- 'YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)' or a bare local date 'YYYY-MM-DD'.
PRAGMA user_version = 1;

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    username TEXT UNIQUE NOT NULL,
    email TEXT NOT NULL,
    password_hash TEXT,
    role TEXT NOT NULL,
    currency TEXT NOT NULL,
    timezone TEXT NOT NULL,
    locale TEXT NOT NULL,
    book_name TEXT,
    monthly_limit_minor INTEGER,
    chart_style TEXT NOT NULL DEFAULT 'pie',
    created_at TEXT NOT NULL,
    deleted_at TEXT,
    statement_email INTEGER,
    month_start_day INTEGER
);

CREATE TABLE balances (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    currency TEXT NOT NULL,
    opening_minor INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    deleted_at TEXT
);

CREATE TABLE categories (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    color TEXT,
    important INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL DEFAULT 0,
    deleted_at TEXT
);

CREATE TABLE groups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    currency TEXT NOT NULL,
    created_at TEXT NOT NULL,
    deleted_at TEXT
);

CREATE TABLE transactions (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    balance_id INTEGER REFERENCES balances(id),
    category_id INTEGER REFERENCES categories(id),
    group_id INTEGER REFERENCES groups(id),
    kind TEXT NOT NULL,
    to_balance_id INTEGER REFERENCES balances(id),
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    method TEXT,
    description TEXT,
    recurrence_days INTEGER,
    created_at TEXT NOT NULL,
    deleted_at TEXT
);

CREATE TABLE splits (
    transaction_id INTEGER NOT NULL REFERENCES transactions(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    share_minor INTEGER NOT NULL,
    PRIMARY KEY (transaction_id, user_id)
);

CREATE TABLE group_members (
    group_id INTEGER NOT NULL REFERENCES groups(id),
    user_id INTEGER NOT NULL REFERENCES users(id),
    joined_at TEXT NOT NULL,
    left_at TEXT,
    PRIMARY KEY (group_id, user_id)
);

CREATE TABLE group_payments (
    id INTEGER PRIMARY KEY,
    group_id INTEGER NOT NULL REFERENCES groups(id),
    from_user_id INTEGER NOT NULL REFERENCES users(id),
    to_user_id INTEGER NOT NULL REFERENCES users(id),
    from_balance_id INTEGER REFERENCES balances(id),
    to_balance_id INTEGER REFERENCES balances(id),
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    deleted_at TEXT
);

CREATE TABLE families (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE family_members (
    family_id INTEGER NOT NULL REFERENCES families(id),
    user_id INTEGER NOT NULL UNIQUE REFERENCES users(id),
    role TEXT NOT NULL
);

CREATE TABLE budgets (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    category_id INTEGER REFERENCES categories(id),
    period TEXT NOT NULL,
    amount_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    starts_on TEXT NOT NULL,
    ends_on TEXT
);

CREATE TABLE budget_transfers (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    from_category_id INTEGER NOT NULL REFERENCES categories(id),
    to_category_id INTEGER NOT NULL REFERENCES categories(id),
    amount_minor INTEGER NOT NULL,
    period_start TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE savings_goals (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    target_minor INTEGER NOT NULL,
    currency TEXT NOT NULL,
    balance_id INTEGER NOT NULL REFERENCES balances(id),
    due_on TEXT
);

CREATE TABLE exchange_rates (
    day TEXT NOT NULL,
    base TEXT NOT NULL,
    quote TEXT NOT NULL,
    rate REAL NOT NULL,
    PRIMARY KEY (day, base, quote)
);

CREATE TABLE logins (
    user_id INTEGER NOT NULL REFERENCES users(id),
    at TEXT NOT NULL
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
