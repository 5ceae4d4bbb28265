#!/usr/bin/env python3
"""The pandas peer: EZWallet's monthly statements the way a Python team would write them, for the benchmark.

Per user, from the same read-only SQLite ledger as ezreport (docs/ledger-schema.md): the user's rows read
with parameterised SQL (pandas.read_sql with params); each row placed on its local date (the user's zone for
the period and trend, the payer's for the rate and group membership) and converted with the latest rate on or
before that date (pd.merge_asof; direct or inverse, the later, direct on a tie) in exact int64 arithmetic on the rate's shortest
decimal, rounded half-to-even, as ezreport does; group expenses at the user's split, else an equal split among
the members on the payer's date (remainder units to the lowest ids); income, expenses, net, category shares
(one decimal, largest remainder: they sum to 100.0), the 12-month trend, budget consumption per window
(month/ISO week/year, clipped, the window's transfers, the monthly limit when there is no overall budget).
Writes transactions/categories/trends/budgets.csv (CRLF, formula guard), two PNG charts (matplotlib Agg:
category pie or doughnut, trend), statement.xlsx (pandas.ExcelWriter, openpyxl: four sheets) and
statement.pdf (PdfPages: a summary page with both charts, then the transactions as tables).
Not done, unlike ezreport: row validation and quarantine (it trusts a clean ledger), groups/settlements/
savings/category-trends CSVs, balances, a parent's view, the admin report, the manifest and its SHA-256s,
atomic writes, incremental re-runs, locale formatting, periods other than one month, 4-5 more charts, and the
budget columns expected_percent/projected; budget percents are rounded from floats (display only). A row
with no rate fails its user (ezreport quarantines it); amount x significand x 10^k must fit in int64.

  pandas_statements.py export --db L --user ID --period 2026-10 --out DIR
  pandas_statements.py batch  --db L --period 2026-10 --out DIR [--jobs N]
  pandas_statements.py verify --db L --period 2026-10 --manifest Reports/2026-10/manifest.json
"""
import argparse
import json
import multiprocessing
import os
import re
import sqlite3
import sys

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["font.family"] = ["DejaVu Sans", "Noto Sans CJK JP"]  # accents, then CJK usernames
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402

ZERO_DIGIT = {"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
              "VUV", "XAF", "XOF", "XPF"}
THREE_DIGIT = {"BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"}
DAY = pd.Timedelta(days=1)
WINDOW_START = {"week": pd.offsets.Week(weekday=0), "month": pd.offsets.MonthBegin(), "year": pd.offsets.YearBegin()}
MONEY_COLUMNS = ("base", "transfers_in", "transfers_out", "effective", "spent", "remaining")  # budget lines
FAR = pd.Timestamp("2200-01-01")  # an open end
WINDOW = {"week": pd.DateOffset(weeks=1), "month": pd.DateOffset(months=1), "year": pd.DateOffset(years=1)}


def exponent(code):
    return 0 if code in ZERO_DIGIT else 3 if code in THREE_DIGIT else 2


def open_ledger(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.execute("PRAGMA query_only = 1")
    return con


def decimal_rate(value):
    """The shortest decimal that reads back as the REAL (Python's repr, like Swift's), as (significand, scale)."""
    text = repr(float(value))
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    sig, scale = int(whole + frac), len(frac) - int(exp or 0)
    while sig and sig % 10 == 0:
        sig, scale = sig // 10, scale - 1
    return sig, scale


def load_rates(con):
    """Both directions of every rate, sorted for merge_asof: (day, src, dst, sig, scale, inverse)."""
    r = pd.read_sql("SELECT day, base, quote, rate FROM exchange_rates", con)
    r["day"] = pd.to_datetime(r["day"], format="%Y-%m-%d").astype("datetime64[ns]")
    sig_scale = {v: decimal_rate(v) for v in r["rate"].unique()}
    r["sig"] = r["rate"].map(lambda v: sig_scale[v][0]).astype("int64")
    r["scale"] = r["rate"].map(lambda v: sig_scale[v][1]).astype("int64")
    r["rday"] = r["day"]
    direct = r.rename(columns={"base": "src", "quote": "dst"})[["day", "src", "dst", "sig", "scale", "rday"]]
    inverse = r.rename(columns={"base": "dst", "quote": "src"})[["day", "src", "dst", "sig", "scale", "rday"]]
    return direct.sort_values("day"), inverse.sort_values("day")


def convert(amount, src, day, target, rates):
    """Minor units of `src` on `day` into `target`: exact integer maths, rounded half-to-even (int64 Series)."""
    out = pd.Series(amount.to_numpy(dtype="int64"), index=amount.index)
    need = src != target
    if not need.any():
        return out
    q = pd.DataFrame({"day": day[need].astype("datetime64[ns]"), "src": src[need], "amount": amount[need]})
    q["dst"], q["key"] = target, q.index
    q = q.sort_values("day")
    direct, inverse = rates
    d = pd.merge_asof(q, direct, on="day", by=["src", "dst"], direction="backward")
    i = pd.merge_asof(q, inverse, on="day", by=["src", "dst"], direction="backward")
    # The latest rate in either direction; the direct one when both are of the same day.
    inv = (d["sig"].isna() | (i["rday"] > d["rday"])).to_numpy()
    if (inv & i["sig"].isna().to_numpy()).any():
        raise ValueError(f"no exchange rate into {target} for some rows")
    sig = np.where(inv, i["sig"], d["sig"]).astype("int64")
    scale = np.where(inv, i["scale"], d["scale"]).astype("int64")
    a = d["amount"].to_numpy(dtype="int64")
    shift = d["src"].map(exponent).to_numpy() - exponent(target)  # from-exponent minus to-exponent
    power = np.where(inv, scale - shift, -scale - shift)  # result = num/den * 10^power
    num = np.where(inv, a, a * sig) * 10 ** np.clip(power, 0, None)
    den = np.where(inv, sig, 1) * 10 ** np.clip(-power, 0, None)
    quo, rem = np.divmod(num, den)
    quo += (2 * rem > den) | ((2 * rem == den) & (quo % 2 == 1))
    out.loc[d["key"].to_numpy()] = quo
    return out


def local_days(stamps, zones):
    """Local calendar date of each ISO-8601 stamp in its zone (a bare date stays that date)."""
    out = pd.Series(pd.NaT, index=stamps.index, dtype="datetime64[ns]")
    bare = stamps.str.len() == 10
    out[bare] = pd.to_datetime(stamps[bare], format="%Y-%m-%d")
    inst = pd.to_datetime(stamps[~bare], utc=True, format="ISO8601")
    zones = pd.Series(zones, index=stamps.index) if isinstance(zones, str) else zones
    for tz, idx in zones[~bare].groupby(zones[~bare]).groups.items():
        out[idx] = inst[idx].dt.tz_convert(tz).dt.tz_localize(None).dt.normalize()
    return out


# ---------------------------------------------------------------------------------------------- reads
OWN_SQL = """SELECT t.id, t.kind, t.amount_minor, t.currency, t.occurred_at, t.method, t.description,
       CASE WHEN c.deleted_at IS NULL THEN c.name END AS category, b.name AS balance
FROM transactions t LEFT JOIN categories c ON c.id = t.category_id LEFT JOIN balances b ON b.id = t.balance_id
WHERE t.user_id = ? AND t.deleted_at IS NULL AND t.occurred_at >= ? AND t.occurred_at < ?
  AND NOT (t.kind = 'expense' AND t.group_id IS NOT NULL)"""
MY_GROUPS = "SELECT gm.group_id FROM group_members gm JOIN groups g ON g.id = gm.group_id " \
            "WHERE gm.user_id = ? AND g.deleted_at IS NULL"
GROUP_SQL = f"""SELECT t.id, t.user_id AS payer_id, t.group_id, t.amount_minor, t.currency, t.occurred_at,
       t.method, t.description, t.balance_id, CASE WHEN c.deleted_at IS NULL THEN c.name END AS category,
       u.timezone AS payer_tz, u.username AS paid_by, g.name AS "group", b.name AS balance
FROM transactions t JOIN users u ON u.id = t.user_id AND u.deleted_at IS NULL JOIN groups g ON g.id = t.group_id
LEFT JOIN categories c ON c.id = t.category_id LEFT JOIN balances b ON b.id = t.balance_id
WHERE t.group_id IN ({MY_GROUPS}) AND t.kind = 'expense' AND t.deleted_at IS NULL
  AND t.occurred_at >= ? AND t.occurred_at < ?"""
MEMBERS_SQL = f"""SELECT gm.group_id, gm.user_id, gm.joined_at, gm.left_at, u.timezone
FROM group_members gm JOIN users u ON u.id = gm.user_id WHERE gm.group_id IN ({MY_GROUPS})"""
SPLITS_SQL = f"""SELECT s.transaction_id AS id, s.user_id, s.share_minor FROM splits s
JOIN transactions t ON t.id = s.transaction_id
WHERE t.group_id IN ({MY_GROUPS}) AND t.deleted_at IS NULL AND t.occurred_at >= ? AND t.occurred_at < ?"""


def group_shares(con, user, lo, hi):
    """The group expenses the user shares or paid, with the user's share (in the expense's currency)."""
    g = pd.read_sql(GROUP_SQL, con, params=(user, lo, hi))
    if g.empty:
        return g.assign(share=pd.Series(dtype="int64"), owner_day=pd.Series(dtype="datetime64[ns]"))
    g["owner_day"] = local_days(g["occurred_at"], g["payer_tz"])
    splits = pd.read_sql(SPLITS_SQL, con, params=(user, lo, hi))
    has_split = g["id"].isin(splits["id"])
    mine = splits[splits["user_id"] == user].set_index("id")["share_minor"]
    g["share"] = g["id"].map(mine).fillna(0).astype("int64")
    equal = g.loc[~has_split, ["id", "group_id", "owner_day", "amount_minor", "payer_id"]]
    if not equal.empty:
        m = pd.read_sql(MEMBERS_SQL, con, params=(user,))
        m["joined"] = local_days(m["joined_at"], m["timezone"])
        m["left"] = local_days(m["left_at"].fillna("2200-01-01"), m["timezone"])
        e = equal.merge(m[["group_id", "user_id", "joined", "left"]], on="group_id", suffixes=("", "_m"))
        e = e[(e["owner_day"] >= e["joined"]) & (e["owner_day"] < e["left"])].sort_values(["id", "user_id"])
        e["n"] = e.groupby("id")["user_id"].transform("size")
        e["rank"] = e.groupby("id").cumcount()
        nobody = ~equal["id"].isin(e["id"])  # no member on its date: it stays with whoever paid it
        e = e[e["user_id"] == user]
        eq = e["amount_minor"] // e["n"] + (e["rank"] < e["amount_minor"] % e["n"])
        share = equal["id"].map(pd.Series(eq.to_numpy(), index=e["id"].to_numpy())).fillna(0).astype("int64")
        share[nobody & (equal["payer_id"] == user)] = equal["amount_minor"]
        g.loc[~has_split, "share"] = share
    return g[(g["share"] > 0) | (g["payer_id"] == user)]


def user_rows(con, user, rates, start, end, trend_start):
    """Every row the user's statement counts from trend_start to end: own rows and group shares."""
    lo, hi = (trend_start - 2 * DAY).strftime("%Y-%m-%d"), (end + 2 * DAY).strftime("%Y-%m-%d")
    cur, tz = user["currency"], user["timezone"]
    cats = pd.read_sql("SELECT name, color FROM categories WHERE user_id = ? AND deleted_at IS NULL "
                       "ORDER BY position, id", con, params=(int(user["id"]),))
    own = pd.read_sql(OWN_SQL, con, params=(int(user["id"]), lo, hi))
    own["owner_day"] = local_days(own["occurred_at"], tz)
    own["day"] = own["owner_day"]
    own["counted"], counts = 0, own["kind"] != "transfer"  # a transfer is neither income nor expense
    own.loc[counts, "counted"] = convert(own.loc[counts, "amount_minor"], own.loc[counts, "currency"],
                                         own.loc[counts, "owner_day"], cur, rates)
    own["category"] = own["category"].fillna("Others")
    own["group"], own["paid_by"] = "", ""
    g = group_shares(con, int(user["id"]), lo, hi)
    g["day"] = local_days(g["occurred_at"], tz)
    g["kind"] = "expense"
    g["counted"] = convert(g["share"], g["currency"], g["owner_day"], cur, rates)
    g["category"] = g["category"].where(g["category"].isin(cats["name"]), "Others")
    g["balance"] = g["balance"].where(g["payer_id"] == user["id"], "")
    rows = pd.concat([own, g], ignore_index=True)
    rows = rows[(rows["day"] >= trend_start) & (rows["day"] <= end)]
    rows["at"] = pd.to_datetime(rows["occurred_at"], utc=True, format="ISO8601")  # a bare date: its UTC midnight
    return rows.sort_values(["day", "at", "id"]), cats


# ---------------------------------------------------------------------------------------------- figures
def largest_remainder_tenths(amounts):
    if amounts.sum() == 0:
        return np.zeros(len(amounts), dtype="int64")
    exact = amounts.to_numpy() * 1000
    base, rem = np.divmod(exact, amounts.sum())
    base[np.argsort(-rem, kind="stable")[: 1000 - base.sum()]] += 1
    return base


def budgets(con, user, rows, cats, rates, start, end):
    """One line per budget window overlapping the period (see BudgetAnalytics in ezreport)."""
    uid = int(user["id"])
    b = pd.read_sql("SELECT b.id, b.period, b.amount_minor, b.currency, b.starts_on, b.ends_on, c.name AS category "
                    "FROM budgets b LEFT JOIN categories c ON c.id = b.category_id AND c.deleted_at IS NULL "
                    "WHERE b.user_id = ? AND b.starts_on <= ? AND (b.ends_on IS NULL OR b.ends_on >= ?) "
                    "AND (b.category_id IS NULL OR c.id IS NOT NULL)",
                    con, params=(uid, end.strftime("%Y-%m-%d"), start.strftime("%Y-%m-%d")))
    if not b["category"].isna().any() and pd.notna(user["monthly_limit_minor"]):
        b.loc[len(b)] = [0, "month", int(user["monthly_limit_minor"]), user["currency"], "1900-01-01", None, None]
    t = pd.read_sql("SELECT f.name AS src, c.name AS dst, bt.amount_minor, bt.period_start FROM budget_transfers bt "
                    "JOIN categories f ON f.id = bt.from_category_id JOIN categories c ON c.id = bt.to_category_id "
                    "WHERE bt.user_id = ?", con, params=(uid,))
    spend = rows[(rows["kind"] == "expense") & (rows["counted"] > 0)]
    lines = []
    for r in b.itertuples(index=False):  # a user has a handful of budgets and windows: plain Python
        s0, s1 = pd.Timestamp(r.starts_on), pd.Timestamp(r.ends_on) if pd.notna(r.ends_on) else FAR
        cat = r.category if pd.notna(r.category) else ""
        s = WINDOW_START[r.period].rollback(max(start, s0))
        while s <= min(end, s1):
            ws, we = max(s, s0), min(s + WINDOW[r.period] - DAY, s1)
            sel = spend[(spend["day"] >= ws) & (spend["day"] <= min(we, end))]
            tr = t[t["period_start"].isin([s.strftime("%Y-%m-%d"), ws.strftime("%Y-%m-%d")])]
            lines.append((cat, ws, we, s, r.currency, r.amount_minor, tr.loc[tr["dst"] == cat, "amount_minor"].sum(),
                          tr.loc[tr["src"] == cat, "amount_minor"].sum(),
                          (sel["counted"] if not cat else sel.loc[sel["category"] == cat, "counted"]).sum()))
            s += WINDOW[r.period]
    out = pd.DataFrame(lines, columns=["category", "window_start", "window_end", "calendar_start", "currency",
                                       "base", "transfers_in", "transfers_out", "spent"])
    money = pd.concat([out[k] for k in ("base", "transfers_in", "transfers_out")], ignore_index=True)
    converted = convert(money.astype("int64"), pd.concat([out["currency"]] * 3, ignore_index=True),
                        pd.concat([out["calendar_start"]] * 3, ignore_index=True), user["currency"], rates).to_numpy()
    n = len(out)
    out["base"], out["transfers_in"], out["transfers_out"] = converted[:n], converted[n:2 * n], converted[2 * n:]
    out = out.drop(columns=["calendar_start", "currency"]).astype({"spent": "int64"})
    out.insert(6, "effective", out["base"] + out["transfers_in"] - out["transfers_out"])
    out["remaining"] = out["effective"] - out["spent"]
    pct = np.where(out["effective"] > 0, out["spent"] * 100 / out["effective"].where(out["effective"] > 0, 1), np.nan)
    out["percent"] = pd.Series(pct).round(1)
    spent, eff = out["spent"], out["effective"]  # the status from exact integers, as ezreport (not the rounded %)
    out["status"] = np.select([(spent > eff) | ((eff <= 0) & (spent > 0)), (eff > 0) & (spent * 5 >= eff * 4)],
                              ["over", "warning"], "ok")
    order = out["category"].map({c: i + 1 for i, c in enumerate(cats["name"])}).fillna(0)  # overall, then as shown
    return out.assign(order=order).sort_values(["order", "window_start"], kind="stable").drop(columns="order")


def figures(con, user, rates, start, end):
    trend_start = start - pd.DateOffset(months=11)
    rows, cats = user_rows(con, user, rates, start, end, trend_start)
    period = rows[rows["day"] >= start]
    income = int(period.loc[period["kind"] == "income", "counted"].sum())
    expenses = int(period.loc[period["kind"] == "expense", "counted"].sum())
    spent = period[(period["kind"] == "expense") & (period["counted"] > 0)]
    by_cat = spent.groupby("category")["counted"].agg(["size", "sum"]).reset_index()
    by_cat.columns = ["category", "count", "amount"]
    by_cat = by_cat.sort_values(["amount", "category"], ascending=[False, True]).reset_index(drop=True)
    by_cat["percent"] = largest_remainder_tenths(by_cat["amount"]) / 10
    color = dict(zip(cats["name"], cats["color"]))
    by_cat["color"] = by_cat["category"].map(color)
    month = rows["day"].dt.to_period("M").dt.start_time
    signed = rows.assign(month=month, income=rows["counted"].where(rows["kind"] == "income", 0),
                         expenses=rows["counted"].where(rows["kind"] == "expense", 0))
    trend = signed.groupby("month").agg(income=("income", "sum"), expenses=("expenses", "sum"),
                                        transaction_count=("id", "size"))
    trend = trend.reindex(pd.date_range(trend_start, start, freq="MS"), fill_value=0).rename_axis("bucket_start")
    trend.insert(2, "net", trend["income"] - trend["expenses"])
    return dict(rows=period, income=income, expenses=expenses, categories=by_cat, trend=trend.reset_index(),
                budgets=budgets(con, user, rows, cats, rates, start, end))


# ---------------------------------------------------------------------------------------------- outputs
def money_text(minor, exp):
    minor = minor.astype("int64")
    if exp == 0:
        return minor.astype(str)
    sign = pd.Series(np.where(minor < 0, "-", ""), index=minor.index)
    mag = minor.abs()
    return sign + (mag // 10 ** exp).astype(str) + "." + (mag % 10 ** exp).astype(str).str.zfill(exp)


def guard(text):
    text = text.fillna("").astype(str)
    return text.mask(text.str.match(r"^[=+\-@\t\r]"), "'" + text)


def write_csvs(d, cur, folder):
    """The four CSV files; returns the transactions table for the workbook."""
    exp = exponent(cur)
    r = d["rows"]
    tx = pd.DataFrame({"id": r["id"], "date": r["day"].dt.strftime("%Y-%m-%d"), "kind": r["kind"],
                       "category": guard(r["category"]), "balance": guard(r["balance"]), "method": guard(r["method"]),
                       "description": guard(r["description"]), "amount": "", "currency": r["currency"],
                       "counted": money_text(r["counted"], exp), "report_currency": cur,
                       "group": guard(r["group"]), "paid_by": guard(r["paid_by"])})
    for c, idx in r.groupby("currency").groups.items():
        tx.loc[idx, "amount"] = money_text(r.loc[idx, "amount_minor"], exponent(c))
    csv = dict(index=False, lineterminator="\r\n", encoding="utf-8")
    tx.to_csv(os.path.join(folder, "transactions.csv"), **csv)
    c = d["categories"]
    pd.DataFrame({"category": guard(c["category"]), "count": c["count"], "amount": money_text(c["amount"], exp),
                  "percent": c["percent"].map("{:.1f}".format), "currency": cur}) \
        .to_csv(os.path.join(folder, "categories.csv"), **csv)
    t = d["trend"]
    pd.DataFrame({"bucket_start": t["bucket_start"].dt.strftime("%Y-%m-%d"), **{
        k: money_text(t[k], exp) for k in ("income", "expenses", "net")}, "transaction_count": t["transaction_count"],
        "currency": cur}).to_csv(os.path.join(folder, "trends.csv"), **csv)
    b = d["budgets"].copy()
    for k in MONEY_COLUMNS:
        b[k] = money_text(b[k], exp)
    b["category"] = guard(b["category"])
    b["currency"] = cur
    b.to_csv(os.path.join(folder, "budgets.csv"), date_format="%Y-%m-%d", float_format="%.1f", **csv)
    return tx


def draw_pie(ax, cats, doughnut):
    top = cats.head(7)
    amounts, labels, colors = list(top["amount"]), list(top["category"]), list(top["color"].fillna("#999999"))
    if len(cats) > 7:
        amounts.append(cats["amount"].iloc[7:].sum())
        labels.append("Other")
        colors.append("#cccccc")
    if not amounts:
        ax.text(0.5, 0.5, "No expenses", ha="center"), ax.axis("off")
        return
    ax.pie(amounts, labels=labels, colors=colors, autopct="%1.1f%%", startangle=90, counterclock=False,
           wedgeprops=dict(width=0.45) if doughnut else None, textprops=dict(fontsize=8))
    ax.set_title("Expenses by category")


def draw_trend(ax, trend, scale, cur):
    x = trend["bucket_start"].dt.strftime("%b %y")
    for k, style in (("income", "-o"), ("expenses", "-s"), ("net", "--")):
        ax.plot(x, trend[k] / scale, style, label=k)
    ax.set_title(f"Last 12 months ({cur})"), ax.legend(fontsize=8), ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)


def render(user, d, period, folder):
    os.makedirs(os.path.join(folder, "charts"), exist_ok=True)
    cur, exp = user["currency"], exponent(user["currency"])
    doughnut = user["chart_style"] == "doughnut"
    with pd.ExcelWriter(os.path.join(folder, "statement.xlsx"), engine="openpyxl") as xlsx:
        r = d["rows"]  # the workbook holds numbers and dates, the CSV plain decimals
        write_csvs(d, cur, folder).assign(date=r["day"], amount=r["amount_minor"] / 10 ** r["currency"].map(exponent),
                                          counted=r["counted"] / 10 ** exp) \
            .to_excel(xlsx, sheet_name="Transactions", index=False)
        d["categories"].drop(columns="color").assign(amount=d["categories"]["amount"] / 10 ** exp) \
            .to_excel(xlsx, sheet_name="Categories", index=False)
        d["trend"].assign(**{k: d["trend"][k] / 10 ** exp for k in ("income", "expenses", "net")}) \
            .to_excel(xlsx, sheet_name="Trends", index=False)
        d["budgets"].assign(**{k: d["budgets"][k] / 10 ** exp for k in MONEY_COLUMNS}) \
            .to_excel(xlsx, sheet_name="Budgets", index=False)
    for name, draw in (("categories", lambda ax: draw_pie(ax, d["categories"], doughnut)),
                       ("trend", lambda ax: draw_trend(ax, d["trend"], 10 ** exp, cur))):
        fig, ax = plt.subplots(figsize=(8, 5))
        draw(ax)
        fig.savefig(os.path.join(folder, "charts", f"{name}.png"), dpi=200)
        plt.close(fig)
    with PdfPages(os.path.join(folder, "statement.pdf")) as pdf:
        fig = plt.figure(figsize=(8.27, 11.69))
        amt = lambda m: money_text(pd.Series([m]), exp).iloc[0]  # noqa: E731
        fig.text(0.08, 0.95, f"{user['book_name'] or 'EZWallet'} — statement {period}", fontsize=16)
        fig.text(0.08, 0.91, f"{user['username']}   income {amt(d['income'])} {cur}   expenses "
                             f"{amt(d['expenses'])} {cur}   net {amt(d['income'] - d['expenses'])} {cur}", fontsize=9)
        draw_pie(fig.add_axes([0.1, 0.48, 0.8, 0.38]), d["categories"], doughnut)
        draw_trend(fig.add_axes([0.1, 0.08, 0.8, 0.32]), d["trend"], 10 ** exp, cur)
        pdf.savefig(fig)
        plt.close(fig)
        # The transactions as monospaced text, 60 rows a page: matplotlib's ax.table made a Text per cell
        # and was half of a statement's time; one text block per page is what one would ship.
        r = d["rows"]
        table = pd.DataFrame({"Date": r["day"].dt.strftime("%Y-%m-%d"), "Kind": r["kind"], "Category": r["category"],
                              "Description": r["description"].fillna("").str.slice(0, 40),
                              cur: money_text(r["counted"], exp)})
        for i in range(0, max(len(table), 1), 60):
            fig = plt.figure(figsize=(8.27, 11.69))
            fig.text(0.06, 0.96, table.iloc[i:i + 60].to_string(index=False), va="top", fontsize=8,
                     family=["DejaVu Sans Mono", "Noto Sans CJK JP"])
            pdf.savefig(fig)
            plt.close(fig)


# ---------------------------------------------------------------------------------------------- commands
STATE = {}


def init_worker(db):
    STATE["con"] = open_ledger(db)
    STATE["rates"] = load_rates(STATE["con"])


def statement(user, period, folder):
    """One user's figures, and their files in `folder` (None: figures only)."""
    start = pd.Timestamp(period + "-01")
    d = figures(STATE["con"], user, STATE["rates"], start, start + pd.offsets.MonthEnd(0))
    if folder is not None:
        render(user, d, period, folder)
    return int(user["id"]), d["income"], d["expenses"], len(d["rows"])


def user_folder(out, period, user):
    """<out>/<period>/users/<id>-<safe-username>, as ezreport names it: the username never becomes a path."""
    safe = re.sub(r"[^\w.\-]", "_", str(user["username"]))[:64]
    return os.path.join(out, period, "users", f"{user['id']}-{'_' + safe[1:] if safe.startswith('.') else safe}")


def users(con, where, params=()):
    df = pd.read_sql(f"SELECT id, username, currency, timezone, chart_style, book_name, monthly_limit_minor "
                     f"FROM users WHERE deleted_at IS NULL {where} ORDER BY id", con, params=params)
    return df.astype(object).where(df.notna(), None).to_dict("records")


def job(args):
    user, period, out = args
    try:
        return statement(user, period, user_folder(out, period, user))
    except Exception as e:  # one user's failure is reported, the others go on (like ezreport's exit 2)
        return user["id"], None, f"{type(e).__name__}: {e}", 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", choices=["export", "batch", "verify"])
    p.add_argument("--db", required=True), p.add_argument("--period", required=True)
    p.add_argument("--user", type=int), p.add_argument("--out", default="peer-out")
    p.add_argument("--jobs", type=int, default=2), p.add_argument("--manifest")
    a = p.parse_args(argv)
    if not re.fullmatch(r"\d{4}-\d{2}", a.period):
        p.error("--period must be a calendar month YYYY-MM")
    init_worker(a.db)
    if a.mode == "export":
        found = users(STATE["con"], "AND id = ?", (a.user,))
        if not found:
            p.error(f"no live user {a.user}")
        statement(found[0], a.period, a.out)  # like `ezreport export --out DIR`: the files go into DIR
        return 0
    if a.mode == "batch":
        work = [(u, a.period, a.out) for u in users(STATE["con"], "")]
        STATE["con"].close()  # each worker opens its own connection
        with multiprocessing.get_context("fork").Pool(a.jobs, initializer=init_worker, initargs=(a.db,)) as pool:
            done = list(pool.imap_unordered(job, work, chunksize=4))
        failed = [r for r in done if r[1] is None]
        for uid, _, why, _ in failed:
            print(f"pandas_statements: user {uid}: {why}", file=sys.stderr)
        print(f"{len(done) - len(failed)} statements, {len(failed)} failed")
        return 2 if failed else 0
    manifest = json.load(open(a.manifest, encoding="utf-8"))
    want = {u["id"]: u for u in manifest["users"] if u["status"] == "ok"}
    by_id = {u["id"]: u for u in users(STATE["con"], "")}
    match = 0
    for uid, m in sorted(want.items()):
        peer = statement(by_id[uid], a.period, None)[1:]
        ours = (m["income_minor"], m["expenses_minor"], m["transaction_count"])
        ok = peer == ours
        match += ok
        if not ok:
            print(f"user {uid}: peer income/expenses/rows {peer}, ezreport {ours}")
    print(f"verify: {match} of {len(want)} users match ezreport's income_minor, expenses_minor and "
          f"transaction_count exactly")
    return 0 if match == len(want) else 1


if __name__ == "__main__":
    sys.exit(main())
