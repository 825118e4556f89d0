"""The web app's speed from a client on loopback: warm /api/solve, many clients at once, first page load.

    python benchmarks/bench_web.py [--lexicon en-enable2k] [--clients 100] [--seconds 30]

Starts `boggle-i18n serve` on a free port with the store in $BOGGLE_I18N_HOME
(the lexicon must be built there), then measures:

1. warm /api/solve: 300 random 4x4 and 300 random 5x5 boards (seeded rolls of the
   English dice), one keep-alive connection, after one warm-up solve per size:
   median, p90 and p99 milliseconds per request, end to end;
2. load: `--clients` threads, each with its own connection, alternating solve and
   roll requests for `--seconds` s, `--rounds` times: requests, errors, requests/s,
   p50/p99 latency, and the server's resident memory (VmRSS) sampled every second
   (the first round grows the thread pool and its pooled scorers; the next should not grow);
3. first page load in Debian's chromium (Playwright), a fresh browser context each
   time: from navigation to the page ready (languages listed, board solved and its
   words listed) for a shared link to a random 4x4 board and to perslatgsineters
   (the densest known 4x4, 1,045 words), and every request's host (all must be
   this machine).

With `--baseline DIR` (a folder holding another version's `boggle_i18n` package, its C extensions
built, e.g. `git archive COMMIT boggle_i18n | tar -x -C DIR` plus the `*.so` files) a second server
runs that version, and warm solves alternate board by board between the two: both medians and their
ratio in one run, so the machine's load falls on both alike; with each server's CPU time per request
(from /proc), which a loaded machine hardly changes. `--warm-only` skips 2 and 3.

Targets (issue 15): 4x4 median under 10 ms, 5x5 under 20 ms; no errors under load
with p99 reported and memory flat; first load under 1 s with no request leaving
the machine. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def get(conn: http.client.HTTPConnection, path: str) -> tuple[int, bytes]:
    conn.request("GET", path)
    r = conn.getresponse()
    return r.status, r.read()


def boards(size: tuple[int, int], n: int, seed: int) -> list[str]:
    from boggle_i18n.api import roll

    return [roll(lang="en", size=size, seed=seed + i).board.notation() for i in range(n)]


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used (/proc/PID/stat): what a request costs, whatever the load."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def warm_solve(port: int, lexicon: str, size: tuple[int, int], n: int, pid: int) -> dict[str, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    todo = boards(size, n + 1, seed=1000 * size[0])
    status, _ = get(conn, f"/api/solve?{urllib.parse.urlencode({'board': todo[0], 'lexicon': lexicon})}")
    assert status == 200, status
    times, scores = [], []
    cpu = cpu_seconds(pid)
    for board in todo[1:]:
        path = f"/api/solve?{urllib.parse.urlencode({'board': board, 'lexicon': lexicon})}"
        started = time.perf_counter()
        status, body = get(conn, path)
        times.append((time.perf_counter() - started) * 1000)
        assert status == 200, (status, body[:200])
        scores.append(json.loads(body)["score"])
    cpu = cpu_seconds(pid) - cpu
    conn.close()
    return {
        "cpu_ms": 1000 * cpu / n,
        "median_ms": statistics.median(times),
        "p90_ms": pct(times, 90),
        "p99_ms": pct(times, 99),
        "mean_score": statistics.mean(scores),
    }


def side_by_side(
    ports: tuple[int, int], pids: tuple[int, int], lexicon: str, size: tuple[int, int], n: int
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median ms of warm solves of the same boards on two servers, alternating which one goes first, and each
    server's CPU ms per request (the steadier figure on a loaded machine)."""
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for port in ports]
    cpu = [0.0, 0.0]
    todo = boards(size, n + 1, seed=1000 * size[0])
    times: tuple[list[float], list[float]] = ([], [])
    bodies: list[bytes] = [b"", b""]
    for k, board in enumerate(todo):
        path = f"/api/solve?{urllib.parse.urlencode({'board': board, 'lexicon': lexicon})}"
        for i in (0, 1) if k % 2 else (1, 0):
            if k == 1:
                cpu[i] = cpu_seconds(pids[i])
            started = time.perf_counter()
            status, bodies[i] = get(conns[i], path)
            if k:  # the first board warms both up
                times[i].append((time.perf_counter() - started) * 1000)
            assert status == 200, (status, bodies[i][:200])
        same = [{key: v for key, v in json.loads(b).items() if key != "seconds"} for b in bodies]
        assert same[0] == same[1], f"the two versions answer {board} differently"
    used = [1000 * (cpu_seconds(pids[i]) - cpu[i]) / n for i in (0, 1)]
    for c in conns:
        c.close()
    return (statistics.median(times[0]), statistics.median(times[1])), (used[0], used[1])


def start_server(port: int, baseline: Path | None = None) -> tuple[subprocess.Popen[str], list[str]]:
    cmd = [sys.executable, "-m", "boggle_i18n", "serve", "--port", str(port)]
    env = dict(os.environ)
    if baseline is not None:
        env["PYTHONPATH"] = str(baseline)
    server = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env, cwd=baseline or None)
    deadline = time.monotonic() + 30
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            get(conn, "/api/languages")
            conn.close()
            return server, cmd
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("server did not start") from None
            time.sleep(0.2)


def stop_server(server: subprocess.Popen[str]) -> int:
    server.send_signal(signal.SIGINT)
    try:
        return server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        return server.wait()


def load(port: int, lexicon: str, clients: int, seconds: float, pid: int) -> dict[str, object]:
    todo = boards((4, 4), 500, seed=7)
    latencies: list[float] = []
    errors: list[str] = []
    counts = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    start_barrier = threading.Barrier(clients + 1)

    def client(k: int) -> None:
        rng = random.Random(k)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine: list[float] = []
        start_barrier.wait()
        i = 0
        while time.monotonic() < stop:
            if i % 2 == 0:
                path = f"/api/solve?{urllib.parse.urlencode({'board': rng.choice(todo), 'lexicon': lexicon})}"
            else:
                path = f"/api/roll?lang=en&seed={rng.randrange(2**32)}"
            i += 1
            started = time.perf_counter()
            try:
                status, body = get(conn, path)
                if status != 200:
                    with lock:
                        errors.append(f"{status} {body[:80]!r}")
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    errors.append(f"{type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            mine.append((time.perf_counter() - started) * 1000)
        conn.close()
        with lock:
            latencies.extend(mine)
            counts[0] += len(mine)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    rss = [rss_kib(pid)]
    start_barrier.wait()
    began = time.monotonic()
    while any(t.is_alive() for t in threads):
        time.sleep(1.0)
        rss.append(rss_kib(pid))
    for t in threads:
        t.join()
    took = time.monotonic() - began
    return {
        "requests": counts[0],
        "errors": len(errors),
        "first_errors": errors[:3],
        "requests_per_s": counts[0] / took,
        "p50_ms": pct(latencies, 50) if latencies else None,
        "p99_ms": pct(latencies, 99) if latencies else None,
        "rss_mib": [round(x / 1024, 1) for x in rss],
    }


def first_load(url: str) -> dict[str, object]:
    from playwright.sync_api import sync_playwright

    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    hosts: set[str] = set()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        out = []
        for _ in range(5):
            context = browser.new_context()  # a fresh cache every time: a first load
            page = context.new_page()
            page.on("request", lambda r: hosts.add(urllib.parse.urlsplit(r.url).netloc or r.url[:5]))
            started = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            out.append((time.perf_counter() - started) * 1000)
            context.close()
        browser.close()
    return {"median_ms": statistics.median(out), "max_ms": max(out), "hosts": sorted(hosts)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicon", default="en-enable2k")
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--boards", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2, help="load rounds one after another: is memory flat?")
    parser.add_argument("--baseline", type=Path, help="another version's source folder: warm solves side by side")
    parser.add_argument("--warm-only", action="store_true", help="only the warm solves (no load, no browser)")
    opts = parser.parse_args()
    port = free_port()
    server, cmd = start_server(port)
    try:
        print(f"server: {' '.join(cmd)} (pid {server.pid}); store {os.environ.get('BOGGLE_I18N_HOME', 'default')}")
        print(f"machine: {os.cpu_count()} cpus, load average {os.getloadavg()}")
        for size in ((4, 4), (5, 5)):
            r = warm_solve(port, opts.lexicon, size, opts.boards, server.pid)
            print(
                f"warm /api/solve {size[0]}x{size[1]} ({opts.boards} boards, lexicon {opts.lexicon}): "
                f"median {r['median_ms']:.2f} ms, p90 {r['p90_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms "
                f"(mean score {r['mean_score']:.0f}); server CPU {r['cpu_ms']:.2f} ms a request"
            )
        if opts.baseline is not None:
            other_port = free_port()
            other, _ = start_server(other_port, opts.baseline.resolve())
            try:
                print(f"side by side with {opts.baseline} (pid {other.pid}), alternating board by board:")
                for size in ((4, 4), (5, 5)):
                    (mine, theirs), (cpu_mine, cpu_theirs) = side_by_side(
                        (port, other_port), (server.pid, other.pid), opts.lexicon, size, opts.boards
                    )
                    print(
                        f"  warm /api/solve {size[0]}x{size[1]} ({opts.boards} boards, same answers): "
                        f"median this {mine:.2f} ms, baseline {theirs:.2f} ms ({theirs / mine:.2f}x); "
                        f"server CPU a request: this {cpu_mine:.2f} ms, baseline {cpu_theirs:.2f} ms "
                        f"({cpu_theirs / cpu_mine:.2f}x)"
                    )
            finally:
                stop_server(other)
        if opts.warm_only:
            return
        for round_ in range(1, opts.rounds + 1):
            r = load(port, opts.lexicon, opts.clients, opts.seconds, server.pid)
            print(
                f"load round {round_}: {opts.clients} clients for {opts.seconds:g} s (solve and roll alternating): "
                f"{r['requests']:,} requests, {r['errors']} errors, {r['requests_per_s']:.0f} req/s, "
                f"p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms"
            )
            if r["errors"]:
                print(f"  first errors: {r['first_errors']}")
            rss = r["rss_mib"]
            assert isinstance(rss, list)
            print(f"  server RSS (MiB, sampled every second): start {rss[0]}, max {max(rss)}, end {rss[-1]}")
        typical = boards((4, 4), 1, seed=5)[0]
        for board, what in ((typical, "a random 4x4 board"), ("perslatgsineters", "perslatgsineters, 1,045 words")):
            query = urllib.parse.urlencode({"board": board, "lexicon": opts.lexicon})
            page = first_load(f"http://127.0.0.1:{port}/?{query}")
            print(
                f"first page load of a shared link to {what} (fresh browser context, until the board is solved "
                f"and listed): median {page['median_ms']:.0f} ms, max {page['max_ms']:.0f} ms over 5; "
                f"hosts requested: {page['hosts']}"
            )
    finally:
        print(f"server stopped by Ctrl-C: exit {stop_server(server)}")


if __name__ == "__main__":
    main()
