"""The local server serves only its own page (docs/web.md, Security).

Forged `Host`, `Origin` and `Sec-Fetch-Site` headers and `text/plain` POSTs
(what another web site can make a browser send) are refused and change nothing:
no lexicon built, no job started, no file written. A real `boggle-i18n serve`
is then driven over loopback sockets: half-sent requests (slowloris) never lock
a normal request out, also at a low file descriptor limit, where the server
says each error once; 1,000 solves with distinct scoring tables grow its memory
by a bounded amount (measured in /proc).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import time
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")
from starlette.testclient import TestClient
from web_support import Server

from boggle_i18n.web import create_app
from boggle_i18n.web.guard import Site
from boggle_i18n.web.serving import HEADER_SECONDS
from boggle_i18n.web.state import Scorers

pytestmark = pytest.mark.shared

EVIL = "http://evil.example"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, built_store: Path) -> Path:
    """en-enable2k, and `en` with its trie damaged after its checksum was recorded; nl, gd and the rest are not
    built here, so a build would show."""
    import random

    root = tmp_path_factory.mktemp("security") / "store"
    root.mkdir()
    for name in ("en-enable2k", "en"):
        for suffix in (".marisa", ".json"):
            shutil.copy(built_store / f"{name}{suffix}", root / f"{name}{suffix}")
    trie = bytearray((root / "en.marisa").read_bytes())
    for offset in random.Random(22).sample(range(len(trie)), 5):
        trie[offset] ^= 0x5A
    (root / "en.marisa").write_bytes(bytes(trie))
    return root


def snapshot(*folders: Path) -> dict[str, tuple[int, int]]:
    """Every file under the folders, with its size and modification time."""
    out = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.exists() else []:
            info = path.stat()
            out[str(path)] = (info.st_size, info.st_mtime_ns)
    return out


# ---------------------------------------------------------------- which hosts a server answers to


def test_site_accepts_its_own_address_and_loopback_forms_only() -> None:
    site = Site.serving("127.0.0.1", 8722)
    for host in ("127.0.0.1:8722", "localhost:8722", "LOCALHOST.:8722", "[::1]:8722"):
        assert site.accepts(host), host
    for host in (
        "evil.example:8722",  # DNS rebinding: the attacker's name, resolved to 127.0.0.1
        "127.0.0.1:8723",
        "127.0.0.1",  # port 80
        "localhost:8722.evil.example",
        "127.0.0.1:8722@evil.example",
        "[::1]8722",
        "",
        ":8722",
        "192.168.1.5:8722",
    ):
        assert not site.accepts(host), host
    everywhere = Site.serving("0.0.0.0", 8722, allow=["Box.lan"])
    for host in (
        "192.168.1.5:8722",
        "[fe80::1]:8722",
        "localhost:8722",
        "box.lan:8722",
        f"{socket.gethostname()}:8722",
    ):
        assert everywhere.accepts(host), host
    for host in ("evil.example:8722", "192.168.1.5:9999", "box.lan.evil.example:8722"):
        assert not everywhere.accepts(host), host
    assert Site.serving("::1", 80).accepts("[::1]") and Site.serving("::1", 80).accepts("localhost:80")
    assert Site.serving("192.168.1.5", 8722).accepts("192.168.1.5:8722")
    assert not Site.serving("192.168.1.5", 8722).accepts("192.168.1.6:8722")


# ---------------------------------------------------------------- forged requests through the ASGI app


@pytest.fixture
def app_client(store: Path, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(store, tmp_path / "results", site=Site.serving("127.0.0.1", 8722))
    with TestClient(app, base_url="http://127.0.0.1:8722", raise_server_exceptions=False) as client:
        yield client


FORGED: list[tuple[str, str, dict[str, str], Any, int, str]] = [
    # method, path, headers, JSON body, status, the error says
    ("GET", "/", {"Host": "evil.example:8722"}, None, 421, "does not answer for host"),
    ("GET", "/api/solve?board=abcd&lexicon=en-enable2k", {"Host": "evil.example:8722"}, None, 421, "host"),
    ("POST", "/api/lexicons/nl/build", {"Host": "evil.example:8722"}, {}, 421, "host"),
    ("POST", "/api/optimize", {"Host": "127.0.0.1:9999"}, {"lexicon": "en-enable2k"}, 421, "host"),
    ("GET", "/api/solve?board=abcd&lexicon=en-enable2k", {"Origin": EVIL}, None, 403, "another site"),
    ("GET", "/api/lexicons/nl", {"Origin": EVIL}, None, 403, "another site"),
    ("POST", "/api/lexicons/nl/build", {"Origin": EVIL}, {}, 403, "another site"),
    ("POST", "/api/optimize", {"Origin": EVIL}, {"lexicon": "en-enable2k", "time_limit": 60}, 403, "another site"),
    ("POST", "/api/compare", {"Origin": "null"}, {"langs": ["en"]}, 403, "another site"),
    ("POST", "/api/compare", {"Origin": "http://127.0.0.1:9999"}, {"langs": ["en"]}, 403, "another site"),
    ("POST", "/api/optimize", {"Sec-Fetch-Site": "cross-site"}, {"lexicon": "en-enable2k"}, 403, "cross-site"),
    ("GET", "/api/solve?board=abcd&lexicon=en-enable2k", {"Sec-Fetch-Site": "cross-site"}, None, 403, "cross-site"),
    ("GET", "/api/lexicons/nl", {"Sec-Fetch-Site": "same-site"}, None, 403, "same-site"),
    # what an HTML form or a no-cors fetch sends: no preflight, so the type is the check
    ("POST", "/api/optimize", {"Content-Type": "text/plain"}, {"lexicon": "en-enable2k"}, 415, "application/json"),
    ("POST", "/api/compare", {"Content-Type": "application/x-www-form-urlencoded"}, {"langs": ["en"]}, 415, "json"),
    ("POST", "/api/lexicons/nl/build", {"Content-Type": "multipart/form-data"}, {}, 415, "json"),
    ("POST", "/api/lexicons/nl/build", {"Content-Type": ""}, {}, 415, "json"),
]


@pytest.mark.parametrize(("method", "path", "headers", "body", "status", "says"), FORGED)
def test_a_forged_request_is_refused_and_changes_nothing(
    app_client: TestClient,
    store: Path,
    method: str,
    path: str,
    headers: dict[str, str],
    body: Any,
    status: int,
    says: str,
) -> None:
    before = snapshot(store)
    sent = {"Content-Type": "application/json", **headers} if method == "POST" else headers
    content = None if body is None else json.dumps(body)
    r = app_client.request(method, path, headers=sent, content=content)
    assert r.status_code == status, r.text
    assert says in r.json()["error"] and "\n" not in r.json()["error"]
    web = app_client.app.state.web  # type: ignore[attr-defined]
    assert web.jobs.running() == 0 and web.lexicons.status() == {}  # nothing started, nothing loaded
    time.sleep(0.05)  # a build started by mistake would have written its first file by now
    assert snapshot(store) == before


def test_the_page_and_its_own_requests_pass(app_client: TestClient) -> None:
    """A shared link opened from another site (a cross-site navigation) shows the page; the page's own requests
    (same origin) work, under every loopback name."""
    page = app_client.get("/", headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
    assert page.status_code == 200 and "<title>boggle-i18n</title>" in page.text
    own = {"Origin": "http://127.0.0.1:8722", "Sec-Fetch-Site": "same-origin"}
    solved = app_client.get("/api/solve", params={"board": "abcd", "lexicon": "en-enable2k"}, headers=own)
    assert solved.status_code == 200, solved.text
    for host in ("localhost:8722", "[::1]:8722"):
        r = app_client.get("/api/languages", headers={"Host": host, "Origin": f"http://{host}"})
        assert r.status_code == 200, (host, r.text)
    job = app_client.post("/api/optimize", json={"lexicon": "en-enable2k", "time_limit": 30}, headers=own)
    assert job.status_code == 202
    stop = app_client.post(f"/api/jobs/{job.json()['id']}/stop", json={}, headers=own)
    assert stop.status_code == 200 and stop.json()["stopping"] is True
    assert app_client.post(f"/api/jobs/{job.json()['id']}/stop", headers=own).status_code == 415  # no JSON type


def test_a_get_never_builds(app_client: TestClient, store: Path) -> None:
    before = snapshot(store)
    for path, params in (
        ("/api/solve", {"board": "trap/kaas/oven/blij", "lang": "nl"}),
        ("/api/lookup", {"word": "kaas", "lang": "nl"}),
        ("/api/roll", {"lang": "nl", "letters": "lexicon"}),
    ):
        r = app_client.get(path, params=params)
        assert r.status_code == 409 and r.json()["not_built"] == "nl", r.text
    assert app_client.get("/api/lexicons/nl").json()["state"] == "not built"
    time.sleep(0.1)
    assert snapshot(store) == before and not (store / "nl.marisa").exists()


def test_a_slow_post_body_is_cut_off(app_client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A body that never arrives is a 400 after BODY_SECONDS, not a request held open for good."""
    import asyncio

    from boggle_i18n.web import app as web_app

    app = app_client.app

    async def trickle() -> tuple[int, bytes]:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            if not sent:
                sent.append({})
                return {"type": "http.request", "body": b'{"langs": ', "more_body": True}
            await asyncio.sleep(3600)  # the rest never comes
            return {"type": "http.disconnect"}  # pragma: no cover

        out: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            out.append(message)

        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
            "path": "/api/compare", "raw_path": b"/api/compare", "root_path": "", "query_string": b"",
            "headers": [(b"host", b"127.0.0.1:8722"), (b"content-type", b"application/json")],
            "server": ("127.0.0.1", 8722), "client": ("127.0.0.1", 1),
        }  # fmt: skip
        await app(scope, receive, send)  # type: ignore[arg-type]
        return out[0]["status"], b"".join(m.get("body", b"") for m in out[1:])

    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.3)
    with ThreadPoolExecutor(1) as thread:  # a loop of its own: the browser tests' Playwright may run one here
        status, body = thread.submit(lambda: asyncio.run(trickle())).result(timeout=60)
    assert status == 400 and b"not received within" in body


def test_the_scorer_pool_is_bounded_by_count_and_bytes(store: Path) -> None:
    """Distinct rule sets each prepare a scorer; the pool keeps the most recent within its count and bytes."""
    from boggle_i18n.api import load_lexicon, parse_board
    from boggle_i18n.language.selection import select

    lexicon = load_lexicon("en-enable2k", store, build=False)
    board = parse_board("perslatgsineters", lang="en")
    pool = Scorers(max_count=5, max_bytes=3 * 2**20)
    scores = []
    for i in range(40):
        rules = select(lang="en", size=(4, 4), scoring=f"3:1,4:1,5:2,6:3,7:5,8:{i + 11}").rules
        scores.append(pool.solve(lexicon, rules, board).score)
        count, size = pool.usage()
        assert count <= 5 and size <= 3 * 2**20
    assert count >= 2 and len(set(scores)) == 40  # kept, and each table scored (8-letter words score i + 11)
    again = pool.solve(lexicon, rules, board)  # the most recent key is still pooled: no new scorer
    assert again.score == scores[-1] and pool.usage()[0] == count


# ---------------------------------------------------------------- a real server over loopback sockets


def _get(port: int, path: str, headers: dict[str, str] | None = None, timeout: float = 30) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def _half_sent(port: int, n: int) -> list[socket.socket]:
    """`n` connections that each send half a request's headers and then nothing."""
    out = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /api/languages HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port)
        out.append(s)
    return out


def _closed_by_server(sockets: list[socket.socket], within: float) -> int:
    """How many of `sockets` the server has closed, waiting at most `within` seconds for all of them."""
    deadline = time.monotonic() + within
    closed: set[int] = set()
    while len(closed) < len(sockets) and time.monotonic() < deadline:
        for i, s in enumerate(sockets):
            if i in closed:
                continue
            s.settimeout(0)
            try:
                if s.recv(4096) == b"":
                    closed.add(i)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(i)
        time.sleep(0.1)
    return len(closed)


@pytest.fixture(scope="module")
def server(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(store, tmp_path_factory.mktemp("results"))
    yield running
    if running.proc.poll() is None:
        running.stop()


def test_real_server_refuses_other_hosts_and_sites(server: Server, store: Path) -> None:
    before = snapshot(store)
    port = server.port
    assert _get(port, "/api/languages", {"Host": f"evil.example:{port}"})[0] == 421
    assert _get(port, "/", {"Host": f"rebind.evil.example:{port}"})[0] == 421
    for headers in ({"Origin": EVIL}, {"Content-Type": "text/plain"}, {"Sec-Fetch-Site": "cross-site"}):
        for path, body in (
            ("/api/optimize", {"lexicon": "en-enable2k", "time_limit": 60}),
            ("/api/lexicons/nl/build", {}),
        ):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            sent = {"Content-Type": "application/json", **headers}
            conn.request("POST", path, body=json.dumps(body), headers=sent)
            r = conn.getresponse()
            assert r.status in (403, 415) and b"error" in r.read(), (path, headers)
            conn.close()
    status, body = _get(port, "/api/lexicons")
    assert status == 200 and json.loads(body)["server"] == {}  # nothing loaded or building
    assert snapshot(store) == before


def test_a_damaged_lexicon_is_an_error_and_the_server_stays_up(server: Server) -> None:
    for path in (
        "/api/solve?board=abcd&lexicon=en",
        "/api/lookup?word=cat&lexicon=en",
        "/api/roll?lexicon=en&letters=lexicon",
    ):
        status, body = _get(server.port, path)
        error = json.loads(body)["error"]
        assert status == 400 and "en.marisa" in error and "\n" not in error, body
    assert _get(server.port, "/api/solve?board=abcd&lexicon=en-enable2k")[0] == 200
    assert server.proc.poll() is None


def test_half_sent_requests_never_lock_a_normal_one_out(server: Server) -> None:
    """150 connections each holding half a request: a normal request is still answered within 5 s, and the
    server closes the half-sent ones once their header deadline passes."""
    port = server.port
    slow = _half_sent(port, 150)
    try:
        started = time.monotonic()
        status, _ = _get(port, "/api/solve?board=abcd&lexicon=en-enable2k", timeout=10)
        assert status == 200 and time.monotonic() - started < 5
        assert _closed_by_server(slow, HEADER_SECONDS + 10) == len(slow)
    finally:
        for s in slow:
            s.close()
    assert _get(port, "/api/languages")[0] == 200


def test_at_the_file_descriptor_limit_the_server_answers_and_says_each_error_once(store: Path, tmp_path: Path) -> None:
    """`ulimit -n 100` and 400 half-sent requests: a normal request is answered within 5 s; stderr holds no
    traceback and no flood (it used to write 95 MB of tracebacks in 25 s)."""
    limited = Server(store, tmp_path, max_files=100)
    try:
        slow = _half_sent(limited.port, 400)
        try:
            started = time.monotonic()
            status, _ = _get(limited.port, "/api/solve?board=abcd&lexicon=en-enable2k", timeout=10)
            assert status == 200 and time.monotonic() - started < 5
        finally:
            for s in slow:
                s.close()
        assert _get(limited.port, "/api/languages")[0] == 200
    finally:
        code, err = limited.stop()
    assert code == 0 and "Traceback" not in err and len(err) < 4096, err[:2000]


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")  # pragma: no cover


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc (Linux)")
def test_distinct_rule_sets_do_not_grow_the_server_without_bound(server: Server) -> None:
    """1,000 solves, each with its own scoring table: the server's RSS grows by under 150 MiB (it used to pin a
    prepared scorer per table: over 1 GiB)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def solve(i: int) -> None:
        query = urllib.parse.urlencode(
            {"board": "ab/cd", "lexicon": "en-enable2k", "scoring": f"3:1,4:1,5:2,6:3,7:5,8:{i + 11}"}
        )
        conn.request("GET", f"/api/solve?{query}")
        r = conn.getresponse()
        assert r.status == 200, r.read()
        r.read()

    for _ in range(3):
        solve(-1)  # warm: lexicon loaded and compiled, the thread pool started
    before = _rss_mib(server.proc.pid)
    for i in range(1000):
        solve(i)
    grown = _rss_mib(server.proc.pid) - before
    conn.close()
    assert grown < 150, f"RSS grew {grown:.0f} MiB"
    print(f"RSS {before:.0f} MiB, +{grown:.1f} MiB after 1,000 distinct rule sets ({os.cpu_count()} cpus)")
