#!/usr/bin/env python3
"""Load test for `ezreport serve` (loopback only): latency percentiles, throughput, errors and
resident memory, against `ezreport export` as a process per request, in the same run.

Usage: scripts/serve-load.py --bin .build/release/ezreport --db bench-data/ledger-1000.sqlite
                             [--clients 4] [--mixed 10000] [--period 2026-10] [--as-of 2026-11-01]
"""
import argparse, http.client, json, os, random, signal, sqlite3, statistics, subprocess, sys, tempfile, threading, time

def percentile(values, p):
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, int(round(p / 100.0 * (len(s) - 1)))))
    return s[k]

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

class Server:
    def __init__(self, binary, db, secret, max_concurrent):
        self.started = time.monotonic()
        self.proc = subprocess.Popen([binary, "serve", "--db", db, "--port", "0", "--jwt-secret-file", secret,
                                      "--max-concurrent", str(max_concurrent), "--log-format", "json"],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline().strip()
        self.ready_seconds = time.monotonic() - self.started
        if not line.startswith("listening on http://"):
            raise SystemExit(f"serve did not start: {line!r}")
        self.port = int(line.rsplit(":", 1)[1])

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=15)

def run_clients(port, requests, clients):
    """Sends `requests` (path, token) over `clients` keep-alive connections; returns (latencies ms, errors)."""
    lock = threading.Lock()
    queue = list(requests)
    latencies, errors = [], []
    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                if not queue:
                    break
                path, token = queue.pop()
            start = time.perf_counter()
            try:
                conn.request("GET", path, headers={"Authorization": "Bearer " + token})
                resp = conn.getresponse()
                body = resp.read()
                ms = (time.perf_counter() - start) * 1000
                with lock:
                    latencies.append(ms)
                    if resp.status != 200 or not body:
                        errors.append((path, resp.status))
            except Exception as e:  # a broken connection counts as an error
                with lock:
                    errors.append((path, repr(e)))
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.close()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads: t.start()
    for t in threads: t.join()
    return latencies, errors, time.perf_counter() - t0

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/ezreport")
    ap.add_argument("--db", default="bench-data/ledger-1000.sqlite")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--max-concurrent", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pdfs", type=int, default=600)
    ap.add_argument("--stats", type=int, default=2000)
    ap.add_argument("--mixed", type=int, default=10000)
    ap.add_argument("--exports", type=int, default=40)
    ap.add_argument("--period", default="2026-10")
    ap.add_argument("--as-of", default="2026-11-01")
    args = ap.parse_args()

    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    counts = db.execute("""SELECT u.id, COUNT(t.id) FROM users u LEFT JOIN transactions t ON t.user_id = u.id
                           AND t.deleted_at IS NULL AND substr(t.occurred_at, 1, 7) = ?
                           WHERE u.deleted_at IS NULL AND u.role = 'user' GROUP BY u.id ORDER BY 2, 1""", (args.period,)).fetchall()
    typical = counts[len(counts) // 2][0]
    rng = random.Random(1)
    users = [u for u, _ in counts[len(counts) // 4: 3 * len(counts) // 4]]
    sample_users = rng.sample(users, min(40, len(users)))

    folder = tempfile.mkdtemp(prefix="ezreport-load-")
    secret = os.path.join(folder, "secret.key")
    with open(secret, "w") as f:
        f.write("load-test-secret-" + "x" * 32 + "\n")
    def token(user):
        return subprocess.check_output([args.bin, "token", "--user", str(user), "--jwt-secret-file", secret, "--ttl", "2h"], text=True).strip()
    tokens = {u: token(u) for u in set(sample_users + [typical])}

    server = Server(args.bin, args.db, secret, args.max_concurrent)
    report = {"machine": f"{os.cpu_count()} cores, {os.uname().sysname} {os.uname().release}", "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "ready_seconds": round(server.ready_seconds, 3), "typical_user": typical, "typical_user_rows": counts[len(counts) // 2][1]}
    q = f"?as_of={args.as_of}"
    # Warm-up (fonts, caches): not measured.
    run_clients(server.port, [(f"/v1/users/{typical}/statement/{args.period}.pdf{q}", tokens[typical])] * 20, args.clients)

    lat, err, wall = run_clients(server.port, [(f"/v1/users/{typical}/statement/{args.period}.pdf{q}", tokens[typical])] * args.pdfs, args.clients)
    report["pdf"] = {"n": len(lat), "errors": len(err), "p50_ms": round(percentile(lat, 50), 1), "p99_ms": round(percentile(lat, 99), 1),
                     "per_second": round(len(lat) / wall, 1)}
    stats_path = f"/v1/users/{typical}/statistics?from={args.period}-01&to={args.period}-28"
    lat, err, wall = run_clients(server.port, [(stats_path, tokens[typical])] * args.stats, args.clients)
    report["statistics"] = {"n": len(lat), "errors": len(err), "p50_ms": round(percentile(lat, 50), 2), "p99_ms": round(percentile(lat, 99), 1)}

    kinds = [f"statement/{args.period}.pdf{q}", f"statement/{args.period}.xlsx{q}", f"statement/{args.period}/categories.csv{q}",
             f"statement/{args.period}/transactions.csv{q}", f"statement/{args.period}/charts/trend.png{q}",
             f"statistics?from={args.period}-01&to={args.period}-28&min=5", f"transactions.csv?from={args.period}-01&to={args.period}-28&q=a"]
    mixed = []
    for i in range(args.mixed):
        u = sample_users[i % len(sample_users)]
        mixed.append((f"/v1/users/{u}/{kinds[rng.randrange(len(kinds))]}", tokens[u]))
    mixed.reverse()  # the workers pop from the end
    first, rest = mixed[-1000:], mixed[:-1000]
    lat1, err1, _ = run_clients(server.port, first, args.clients)
    rss_after_1000 = rss_kib(server.proc.pid)
    lat2, err2, wall2 = run_clients(server.port, rest, args.clients)
    rss_end = rss_kib(server.proc.pid)
    all_lat = lat1 + lat2
    report["mixed"] = {"n": len(all_lat), "errors": len(err1) + len(err2), "p50_ms": round(percentile(all_lat, 50), 1),
                       "p99_ms": round(percentile(all_lat, 99), 1), "rss_mib_after_1000": round(rss_after_1000 / 1024, 1),
                       "rss_mib_end": round(rss_end / 1024, 1), "sample_errors": (err1 + err2)[:5]}
    report["shutdown_exit"] = server.stop()

    # The same PDF by spawning `ezreport export` per request, 4 at a time.
    def export_once(_):
        t = time.perf_counter()
        subprocess.run([args.bin, "export", "--db", args.db, "--user", str(typical), "--period", args.period, "--as-of", args.as_of,
                        "--format", "pdf", "--out", "-"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return (time.perf_counter() - t) * 1000
    from concurrent.futures import ThreadPoolExecutor
    t0 = time.perf_counter()
    with ThreadPoolExecutor(args.clients) as pool:
        lat = list(pool.map(export_once, range(args.exports)))
    wall = time.perf_counter() - t0
    report["export_process"] = {"n": len(lat), "p50_ms": round(percentile(lat, 50), 1), "p99_ms": round(percentile(lat, 99), 1),
                                "per_second": round(len(lat) / wall, 1)}
    print(json.dumps(report, indent=2))

if __name__ == "__main__":
    main()
