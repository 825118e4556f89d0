"""What a hostile client costs `boggle-i18n serve`: memory per distinct rule set, and slow connections.

Starts `python -m boggle_i18n serve` on a free loopback port (from this checkout, or
`--code DIR` for another one, e.g. an older commit unpacked with `git archive`), then:

1. 1,000 `/api/solve` of `perslatgsineters` (en-enable2k), each with its own scoring
   table: the server's RSS before and after (from /proc);
2. N connections that each send half a request's headers, then one normal request:
   its status and latency, and how many of the N the server has closed 8 s later;
3. the bytes the server wrote to stderr.

    BOGGLE_I18N_HOME=STORE python benchmarks/bench_web_limits.py [--half-sent 150] [--max-files 100] [--code DIR]

The store must hold en-enable2k. Only loopback addresses are used; every loop is bounded.
"""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def get(port: int, path: str, timeout: float = 20) -> tuple[int | str, float]:
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return r.status, time.monotonic() - started
    except (OSError, http.client.HTTPException) as exc:
        return type(exc).__name__, time.monotonic() - started
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-sent", type=int, default=150)
    parser.add_argument("--max-files", type=int, default=None, help="the server's ulimit -n (soft and hard)")
    parser.add_argument("--code", type=Path, default=None, help="run the server from this checkout")
    parser.add_argument("--solves", type=int, default=1000)
    args = parser.parse_args()

    port = free_port()
    env = dict(os.environ)
    if args.code is not None:
        env["PYTHONPATH"] = str(args.code.resolve())

    def limit() -> None:
        if args.max_files is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (args.max_files, args.max_files))

    err = tempfile.TemporaryFile()
    cmd = [sys.executable, "-m", "boggle_i18n", "serve", "--port", str(port)]
    server = subprocess.Popen(cmd, env=env, stderr=err, preexec_fn=limit, cwd=args.code or None)
    try:
        deadline = time.monotonic() + 60
        while get(port, "/api/languages", timeout=5)[0] != 200:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.2)
        print(f"server: {' '.join(cmd)} (code {args.code or 'this checkout'}, ulimit -n {args.max_files or 'as is'})")
        print(f"machine: {os.cpu_count()} cpus, load average {os.getloadavg()}")

        board = {"board": "perslatgsineters", "lexicon": "en-enable2k"}
        for _ in range(3):
            get(port, "/api/solve?" + urllib.parse.urlencode(board))
        before, started = rss_mib(server.pid), time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for i in range(args.solves):
            scoring = f"3:1,4:1,5:2,6:3,7:5,8:{i + 11}"
            conn.request("GET", "/api/solve?" + urllib.parse.urlencode({**board, "scoring": scoring}))
            conn.getresponse().read()
        conn.close()
        after = rss_mib(server.pid)
        print(
            f"{args.solves:,} solves with distinct scoring tables: RSS {before:.1f} -> {after:.1f} MiB "
            f"(+{after - before:.1f}) in {time.monotonic() - started:.1f} s"
        )

        slow = []
        for _ in range(args.half_sent):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET /api/languages HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
            slow.append(s)
        status, seconds = get(port, "/api/solve?board=abcd&lexicon=en-enable2k")
        print(f"{args.half_sent} half-sent requests open, then a normal request: {status} in {seconds:.3f} s")
        time.sleep(8)
        closed = 0
        for s in slow:
            s.setblocking(False)
            try:
                closed += s.recv(1) == b""
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
            s.close()
        print(f"  8 s later the server had closed {closed} of them")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        err.seek(0)
        said = err.read()
        print(f"server stderr: {len(said):,} bytes, {said.count(b'Traceback'):,} tracebacks; exit {server.returncode}")


if __name__ == "__main__":
    main()
