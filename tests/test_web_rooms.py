"""Rooms on one network (`serve --lan`, web/rooms.py) through Starlette's test client, as another machine on the
network sees them: refusals (foreign Host, foreign Origin, missing or wrong token, a word for another player,
the costly API) and a whole round whose totals are `judging.judge`'s on the same lists.

The client's address is not a loopback one (Starlette's "testclient"), so the `--lan` guard treats it as a phone;
its Host is the server's network address, as a phone's browser sends it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [web] extra is not installed")
from conftest import shared_file
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from boggle_i18n.judging import judge
from boggle_i18n.lexicon.build import build_lexicon
from boggle_i18n.web import create_app, rooms
from boggle_i18n.web.guard import Site

pytestmark = pytest.mark.shared

ADDRESS = "192.168.1.50"  # the server's network address (what `serve --lan` found and prints)
ORIGIN = f"http://{ADDRESS}"
HEADERS = {"origin": ORIGIN}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rooms-store")
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=root, download=False)
    return root


@pytest.fixture
def app(store: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(rooms, "COUNTDOWN", 0.3)
    return create_app(store, None, site=Site.network(ADDRESS, None), join_base=f"http://{ADDRESS}:8000")


@pytest.fixture
def phone(app: Any) -> Iterator[TestClient]:
    """Another machine on the network, asking for the server's network address."""
    with TestClient(app, base_url=ORIGIN, raise_server_exceptions=False) as c:
        c.sockets = []  # type: ignore[attr-defined]
        yield c
        for ws in c.sockets:  # type: ignore[attr-defined]
            leave(ws)  # a test that failed mid-round leaves none open (the client would wait for them)


def leave(ws: Any) -> None:
    """A page goes away (its session ends; the client waits for every open one when it closes)."""
    try:
        ws.__exit__(None, None, None)
    except Exception:  # closed by the server already
        pass


def create(client: TestClient, name: str = "Ann") -> dict[str, Any]:
    r = client.post("/api/rooms", json={"name": name}, headers=HEADERS)
    assert r.status_code == 201, r.text
    return r.json()


def join(client: TestClient, code: str, name: str) -> dict[str, Any]:
    r = client.post(f"/api/rooms/{code}/join", json={"name": name}, headers=HEADERS)
    assert r.status_code == 201, r.text
    return r.json()


def connect(client: TestClient, code: str, token: str) -> Any:
    ws = client.websocket_connect(f"ws://{ADDRESS}/api/rooms/{code}/socket", headers=HEADERS).__enter__()
    client.sockets.append(ws)  # type: ignore[attr-defined]
    ws.send_json({"type": "hello", "token": token})
    return ws


def until(ws: Any, kind: str, test: Any = lambda m: True) -> dict[str, Any]:
    """The next message of this type that passes the test (others, e.g. player counts, are skipped)."""
    for _ in range(200):
        message = ws.receive_json()
        if message["type"] == kind and test(message):
            return dict(message)
    raise AssertionError(f"no {kind} message")


START = {"lang": "en", "lexicon": "en-enable2k", "size": "4x4", "seconds": 5}


def test_a_foreign_host_is_refused(phone: TestClient) -> None:
    for host in ("evil.example", "10.0.0.9", f"{ADDRESS}.nip.io"):  # a name or another address: DNS rebinding
        r = phone.post("/api/rooms", json={"name": "Ann"}, headers={"host": host})
        assert r.status_code == 421 and "does not answer for host" in r.json()["error"], host
    with pytest.raises(WebSocketDisconnect) as refused:
        foreign = {"host": "evil.example", **HEADERS}
        with phone.websocket_connect(f"ws://{ADDRESS}/api/rooms/123456/socket", headers=foreign):
            pass
    assert refused.value.code == 1008


def test_a_foreign_origin_is_refused(phone: TestClient, app: Any) -> None:
    r = phone.post("/api/rooms", json={"name": "Ann"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "another site" in r.json()["error"]
    assert not app.state.rooms.rooms  # nothing was created
    room = create(phone)
    for headers in ({"origin": "http://evil.example"}, {}):  # another site's page, or no page at all
        with pytest.raises(WebSocketDisconnect) as refused:
            with phone.websocket_connect(f"ws://{ADDRESS}/api/rooms/{room['room']}/socket", headers=headers):
                pass
        assert refused.value.code == 1008


def test_the_network_reaches_only_the_page_and_the_rooms(phone: TestClient, app: Any) -> None:
    assert phone.get("/", headers=HEADERS).status_code == 200
    assert phone.get("/static/app.js").status_code == 200
    assert phone.get("/api/languages").status_code == 200
    for path in ("/api/solve?board=trap/kaas/oven/blij&lang=en", "/api/lexicons", "/api/records"):
        r = phone.get(path)
        assert r.status_code == 403 and "only its rooms" in r.json()["error"], path
    r = phone.post("/api/optimize", json={"lang": "en"}, headers=HEADERS)
    assert r.status_code == 403 and not app.state.web.jobs.get("1")
    with TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 40000)) as here:  # this machine
        assert here.get("/api/lexicons").status_code == 200


def test_a_missing_or_wrong_token_or_code_is_refused(phone: TestClient) -> None:
    room = create(phone)
    code = room["room"]
    for body in ({**START}, {**START, "token": "not-a-token"}, {**START, "token": 7}):
        r = phone.post(f"/api/rooms/{code}/start", json=body, headers=HEADERS)
        assert r.status_code == 403 and r.json()["code"] == "room.token", body
    guest = join(phone, code, "Bob")
    r = phone.post(f"/api/rooms/{code}/start", json={**START, "token": guest["token"]}, headers=HEADERS)
    assert r.status_code == 403 and r.json()["code"] == "room.not_host"  # a guest's token cannot start
    for token in (None, "", "not-a-token", guest["token"] + "x"):
        ws = connect(phone, code, token)  # type: ignore[arg-type]
        assert until(ws, "error")["code"] == "room.token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    r = phone.post("/api/rooms/000000/join", json={"name": "Eve"}, headers=HEADERS)
    other = "000000" if code != "000000" else "000001"
    r = phone.post(f"/api/rooms/{other}/join", json={"name": "Eve"}, headers=HEADERS)
    assert r.status_code == 404 and r.json()["code"] == "room.unknown"
    ws = connect(phone, other, room["token"])  # a real token, another room's code
    assert until(ws, "error")["code"] == "room.unknown"


def test_names_messages_and_counts_are_bounded(phone: TestClient, app: Any) -> None:
    for name in ("", "   ", "x" * (rooms.MAX_NAME + 1), "a\u0000b", "Ann: tap", 7):
        r = phone.post("/api/rooms", json={"name": name}, headers=HEADERS)
        assert r.status_code == 400 and r.json()["code"] == "room.bad_name", name
    room = create(phone)
    r = phone.post(f"/api/rooms/{room['room']}/join", json={"name": " ann "}, headers=HEADERS)
    assert r.status_code == 400 and r.json()["code"] == "room.name_taken"
    for i in range(rooms.MAX_PLAYERS - 1):
        join(phone, room["room"], f"P{i}")
    r = phone.post(f"/api/rooms/{room['room']}/join", json={"name": "Late"}, headers=HEADERS)
    assert r.status_code == 429 and r.json()["code"] == "room.full"
    ws = connect(phone, room["room"], room["token"])
    until(ws, "state")
    ws.send_text("x" * (rooms.MAX_MESSAGE + 1))
    assert "over" in until(ws, "error")["error"]
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4400
    while len(app.state.rooms.rooms) < rooms.MAX_ROOMS:
        create(phone)
    r = phone.post("/api/rooms", json={"name": "Zed"}, headers=HEADERS)
    assert r.status_code == 429 and r.json()["code"] == "room.too_many"


def test_a_round_judged_as_judge_judges_it(phone: TestClient, app: Any) -> None:
    """Host and two players: the same board for all, words checked privately, a word for another player refused,
    a page that reloads mid-round gets its words back, and the totals equal `judge` on the same lists."""
    host = create(phone, "Ann")
    code = host["room"]
    bob, cleo = join(phone, code, "Bob"), join(phone, code, "Cleo")
    pages = {name: connect(phone, code, p["token"]) for name, p in (("Ann", host), ("Bob", bob), ("Cleo", cleo))}
    for name, ws in pages.items():
        lobby = until(ws, "state")
        assert lobby["phase"] == "lobby" and lobby["join_url"] == f"http://{ADDRESS}:8000/?room={code}"
        assert lobby["qr_svg"].startswith("<svg") and lobby["host"] == (name == "Ann")
    r = phone.post(f"/api/rooms/{code}/start", json={**START, "token": host["token"]}, headers=HEADERS)
    assert r.status_code == 200, r.text
    boards = {}
    for name, ws in pages.items():
        assert until(ws, "state")["phase"] == "countdown"
        running = until(ws, "state", lambda m: m["phase"] == "running")
        assert "words" not in running["board"] and running["ends_in_ms"] > 3000
        boards[name] = running["board"]["board"]
    assert len(set(boards.values())) == 1  # the same board for everyone

    rnd = app.state.rooms.rooms[code].round
    best = [w.word for w in rnd.referee.solved.by_points() if w.length >= 3][:3]
    assert len(best) == 3, "a board with at least three words"
    one, two, three = best
    typed = {
        "Ann": [one.upper(), two, "zzqx", one],  # as written: upper case; not a word; written twice
        "Bob": [two, three],
        "Cleo": [],
    }
    # Bob tries to enter a word as Ann: refused, and nothing is recorded for either
    pages["Bob"].send_json({"type": "word", "word": one, "player": host["me"]})
    assert until(pages["Bob"], "error")["code"] == "room.not_yours"
    answers: dict[str, list[dict[str, Any]]] = {"Ann": [], "Bob": []}
    for name in ("Ann", "Bob"):
        for word in typed[name]:
            pages[name].send_json({"type": "word", "word": word})
            answers[name].append(until(pages[name], "checked")["answer"])
    assert [a["status"] for a in answers["Ann"]] == ["scored", "scored", "not-a-word", "repeated"]
    assert answers["Ann"][0]["word"] == one and answers["Ann"][0]["path"]
    assert answers["Ann"][2]["category"] == "letters"  # lookup's reason (zzqx: letters, no word), for the page
    # the others see how many words each has, never the words
    players = until(pages["Cleo"], "players", lambda m: next(p for p in m["players"] if p["name"] == "Bob")["words"])
    assert "Bob" in str(players) and two not in str(players)

    # Bob's phone reloads: a new connection with the same token gets the round and his words back
    leave(pages["Bob"])
    pages["Bob"] = connect(phone, code, bob["token"])
    back = until(pages["Bob"], "state")
    assert back["phase"] == "running" and [w["written"] for w in back["words"]] == typed["Bob"]
    assert back["board"]["board"] == boards["Ann"]

    finals = {name: until(ws, "state", lambda m: m["phase"] == "over")["results"] for name, ws in pages.items()}
    assert all(f == finals["Ann"] for f in finals.values())  # everyone sees every list
    result = finals["Ann"]
    judged = judge(rnd.board, rnd.lexicon, rnd.selection.rules, typed, strike=True, selection=rnd.selection)
    assert {p["name"]: p["total"] for p in result["players"]} == {p.name: p.total for p in judged.players}
    assert [w["word"] for w in result["missed"]] == [w.word for w in judged.missed]
    ann, bob_list = (next(p for p in result["players"] if p["name"] == n) for n in ("Ann", "Bob"))
    assert [w["status"] for w in ann["words"]] == ["scored", "shared", "not-a-word", "repeated"]
    assert bob_list["words"][0]["status"] == "shared" and bob_list["words"][0]["shared_with"] == ["Ann"]
    assert ann["total"] == answers["Ann"][0]["points"] and ann["total"] > 0

    # a word after the end is refused; the rematch keeps the room and its players, with a new round
    pages["Ann"].send_json({"type": "word", "word": three})
    assert until(pages["Ann"], "error")["code"] == "room.not_playing"
    r = phone.post(f"/api/rooms/{code}/start", json={**START, "token": host["token"]}, headers=HEADERS)
    assert r.status_code == 200 and r.json()["round"] == 2
    again = until(pages["Cleo"], "state", lambda m: m["round"] == 2)
    assert [p["name"] for p in again["players"]] == ["Ann", "Bob", "Cleo"] and again["phase"] == "countdown"


def test_a_rooms_socket_outlives_the_header_deadline(store: Path) -> None:
    """A real server (uvicorn with `serve`'s guarded protocol): the deadline for a request's headers must not close
    a WebSocket once it is open (it did: every room's page lost its connection 5 s after joining)."""
    import json
    import socket
    import threading
    import time
    import urllib.request

    import uvicorn
    from websockets.sync.client import connect as ws_connect

    from boggle_i18n.web.serving import guarded_protocol

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(store, None, site=Site.serving("127.0.0.1", port))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, http=guarded_protocol(16, header_seconds=0.3), log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(100):
            if server.started:
                break
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        request = urllib.request.Request(
            f"{base}/api/rooms", b'{"name": "Ann"}', {"Content-Type": "application/json"}, method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            room = json.load(r)
        with ws_connect(f"ws://127.0.0.1:{port}/api/rooms/{room['room']}/socket", origin=base) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "hello", "token": room["token"]}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            time.sleep(1.0)  # over three header deadlines
            ws.send(json.dumps({"type": "word", "word": "tap"}))
            answers = [json.loads(ws.recv(timeout=10)) for _ in range(2)]
            assert any(a.get("code") == "room.not_playing" for a in answers), answers  # still connected
    finally:
        server.should_exit = True
        thread.join(10)


def test_serve_lan_prints_the_join_link_and_answers_only_its_address(store: Path) -> None:
    """`serve --lan` as a user starts it: the join link names this machine's network address (with its QR code),
    the server answers for that address and the loopback names, not for another address; a machine with no
    network address, or `--lan` with `--host`, is one `Error:` line."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    from boggle_i18n.cli.serve_cmd import network_address
    from boggle_i18n.errors import BoggleI18nError

    run = subprocess.run(
        [sys.executable, "-m", "boggle_i18n", "serve", "--lan", "--host", "10.1.2.3", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 1 and len(lines) == 1 and lines[0].startswith("Error: --lan listens on every address")
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store), "BOGGLE_I18N_OFFLINE": "1"}
    args = [sys.executable, "-m", "boggle_i18n", "serve", "--lan", "--port", "0"]
    try:
        address = network_address()
    except BoggleI18nError as exc:  # no network here: the command says so, in one line
        run = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)
        assert run.returncode == 1 and run.stderr.strip() == f"Error: {exc}"
        return
    proc = subprocess.Popen(args, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        assert first.startswith("boggle-i18n serving http://127.0.0.1:") and f"http://{address}:" in first
        port = int(first.split(f"http://{address}:", 1)[1].split("/", 1)[0])
        assert (
            proc.stderr.readline().strip()
            == f"Join link for phones on this network: http://{address}:{port}/?view=room"
        )
        assert "█" in proc.stderr.readline()  # the QR code, drawn on the terminal
        time.sleep(0.5)

        def status(host: str, path: str = "/api/languages") -> int:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": host})
            try:
                with urllib.request.urlopen(request, timeout=30) as r:
                    return int(r.status)
            except urllib.error.HTTPError as e:
                return int(e.code)

        assert status(f"{address}:{port}") == 200 and status(f"localhost:{port}") == 200
        assert status(f"10.9.9.9:{port}") == 421 and status(f"evil.example:{port}") == 421
    finally:
        proc.send_signal(signal.SIGINT)
        _, said = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in said


def test_words_in_a_round_are_bounded(phone: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rooms, "MAX_WORDS", 2)
    host = create(phone)
    ws = connect(phone, host["room"], host["token"])
    r = phone.post(f"/api/rooms/{host['room']}/start", json={**START, "token": host["token"]}, headers=HEADERS)
    assert r.status_code == 200
    until(ws, "state", lambda m: m["phase"] == "running")
    for word in ("zzqx", "qqqz"):
        ws.send_json({"type": "word", "word": word})
        assert until(ws, "checked")["answer"]["status"] == "not-a-word"
    ws.send_json({"type": "word", "word": "tap"})
    refused = until(ws, "error")
    assert refused["code"] == "room.too_many_words" and refused["params"] == {"max": 2}
    for bad in ("", "   ", "x" * 65, 7):
        ws.send_json({"type": "word", "word": bad})
        assert until(ws, "error")["code"] == "room.bad_word", bad


def test_a_round_that_cannot_be_judged_still_ends(phone: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """If judging fails, every page is told so and the host can start again (the room is not stuck)."""
    from boggle_i18n.errors import BoggleI18nError

    def fails(rnd: Any, lists: Any) -> Any:
        raise BoggleI18nError("the word list went away", code="lexicon.unknown", params={"name": "en-enable2k"})

    monkeypatch.setattr(rooms, "results", fails)
    host = create(phone)
    ws = connect(phone, host["room"], host["token"])
    body = {**START, "seconds": rooms.SECONDS_LOW, "token": host["token"]}
    assert phone.post(f"/api/rooms/{host['room']}/start", json=body, headers=HEADERS).status_code == 200
    over = until(ws, "state", lambda m: m["phase"] == "over")
    assert over["results"]["code"] == "lexicon.unknown" and over["results"]["players"] == []
    assert phone.post(f"/api/rooms/{host['room']}/start", json=body, headers=HEADERS).status_code == 200
