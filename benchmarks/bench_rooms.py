"""A room's round for 8 players on loopback: how long after the round's end every word reaches every screen.

    python benchmarks/bench_rooms.py [--players 8] [--rounds 5] [--words 25] [--seconds 5] [--lexicon en-enable2k]

Starts `boggle-i18n serve` on a free loopback port with the store in $BOGGLE_I18N_HOME (the lexicon must be
built there). The host creates a room, the other players join; each page is a WebSocket client (the
`websockets` package, with the page's Origin). Each round the host starts it (4x4, English dice, `--seconds`
long), every player sends `--words` words while it runs (words of the board, some shared with the others, and
a few that are not words), each answered privately by the server; at the end of the round the server judges
every list and sends the results to every page.

Measured per player and round: from the round's end by the server's clock (the page's receipt of the
"running" state plus its `ends_in_ms`) to the receipt of the results holding every word of every player.
Printed: median, p90 and max over players and rounds, and the private answer's median round trip while
playing. Target (issue 37): the median at the end of the round under 200 ms. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
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
import urllib.request
from typing import Any

from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=60) as r:
        data: dict[str, Any] = json.load(r)
        return data


def get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=60) as r:
        data: dict[str, Any] = json.load(r)
        return data


class Page:
    """One player's page: its WebSocket, the state messages it got, its private answers' round trips."""

    def __init__(self, base: str, code: str, token: str) -> None:
        host = base.split("://", 1)[1]
        self.ws = connect(f"ws://{host}/api/rooms/{code}/socket", origin=base).__enter__()  # type: ignore[arg-type]
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.states: list[tuple[float, dict[str, Any]]] = []
        self.closed = ""
        self.answers: list[float] = []
        self.sent_at: list[float] = []
        self.lock = threading.Condition()
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self) -> None:
        try:
            for text in self.ws:
                now = time.monotonic()
                message = json.loads(text)
                with self.lock:
                    if message["type"] == "state":
                        self.states.append((now, message))
                    elif message["type"] in ("checked", "error"):
                        self.answers.append(now - self.sent_at[len(self.answers)])
                    self.lock.notify_all()
        except Exception as exc:  # the connection closed (at the end; else the wait for a state says so)
            self.closed = repr(exc)

    def wait(self, test: Any, timeout: float = 60.0) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        with self.lock:
            while True:
                for at, state in self.states:
                    if test(state):
                        return at, state
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no such state (connection: {self.closed or 'open'})")
                self.lock.wait(left)

    def send_word(self, word: str) -> None:
        with self.lock:
            self.sent_at.append(time.monotonic())
        self.ws.send(json.dumps({"type": "word", "word": word}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--words", type=int, default=25)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--lexicon", default="en-enable2k")
    args = parser.parse_args()

    port = free_port()
    env = {**os.environ, "BOGGLE_I18N_OFFLINE": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "boggle_i18n", "serve", "--port", str(port)], env=env, stderr=subprocess.PIPE, text=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                get(base, "/api/languages")
                break
            except OSError:
                time.sleep(0.2)
        host = post(base, "/api/rooms", {"name": "P0"})
        code = host["room"]
        tokens = [host["token"]] + [
            post(base, f"/api/rooms/{code}/join", {"name": f"P{i}"})["token"] for i in range(1, args.players)
        ]
        pages = [Page(base, code, token) for token in tokens]
        rng = random.Random(1)
        delays: list[float] = []
        settings = {"lang": "en", "lexicon": args.lexicon, "size": "4x4", "seconds": args.seconds}
        for number in range(1, args.rounds + 1):
            post(base, f"/api/rooms/{code}/start", {**settings, "token": tokens[0]})
            running = [p.wait(lambda s, n=number: s["round"] == n and s["phase"] == "running") for p in pages]
            board = running[0][1]["board"]["board"]
            solved = get(base, f"/api/solve?board={urllib.parse.quote(board)}&lang=en&lexicon={args.lexicon}")
            pool = [w["word"] for w in solved["words"]] or ["none"]
            lists: list[list[str]] = []
            for _ in pages:  # a shared part (struck at the end), the player's own words, a few non-words
                words = [*rng.sample(pool, min(len(pool), args.words - 3)), "zzqx", "qqq", pool[0]]
                rng.shuffle(words)
                lists.append(words)
            senders = [
                threading.Thread(target=lambda p=p, ws=ws: [p.send_word(w) for w in ws])
                for p, ws in zip(pages, lists, strict=True)
            ]
            for t in senders:
                t.start()
            for t in senders:
                t.join()
            for (start_at, state), page in zip(running, pages, strict=True):
                end = start_at + state["ends_in_ms"] / 1000
                at, over = page.wait(lambda s, n=number: s["round"] == n and s["phase"] == "over", args.seconds + 60)
                got = {p["name"]: [w["written"] for w in p["words"]] for p in over["results"]["players"]}
                assert all(got[f"P{i}"] == lists[i] for i in range(len(pages))), "a word did not reach a screen"
                delays.append((at - end) * 1000)
            print(
                f"round {number}: {board}, {sum(map(len, lists))} words from {len(pages)} players, "
                f"every list on every screen {statistics.median(delays[-len(pages) :]):.1f} ms after the end (median)"
            )
        answers = [a * 1000 for p in pages for a in p.answers]
        delays.sort()
        print(
            f"{len(delays)} screens ({args.players} players x {args.rounds} rounds): every word on every screen "
            f"after the round's end: median {statistics.median(delays):.1f} ms, "
            f"p90 {delays[int(0.9 * (len(delays) - 1))]:.1f} ms, max {delays[-1]:.1f} ms"
        )
        print(
            f"private answer to a word while playing ({len(answers)} words): median {statistics.median(answers):.1f} ms"
        )
        for p in pages:
            p.ws.close()
    finally:
        server.send_signal(signal.SIGINT)
        try:
            _, said = server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            _, said = server.communicate()
        if "Traceback" in said or "rror" in said:
            print(f"server stderr:\n{said[-3000:]}")


if __name__ == "__main__":
    main()
