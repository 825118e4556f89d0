"""Rooms: several players on one network play the same board at the same moment (`serve --lan`, docs/web.md).

A room is created by its host (who plays too) and joined with its code; each player holds a secret token
(kept in the page's localStorage, so a phone that sleeps or reloads comes back to the round with its words).
The host starts a round: the board is rolled and solved on the server, shown to every player at the same
moment after a short countdown, and the round ends by the server's clock. Words are checked on the server
against the room's board, privately (each player sees only their own), and at the end every list is judged
together by `judging.judge`, the one place the duplicate rule and the totals are decided.

This module keeps the rooms and their players, and bounds them (rooms, players, names, words, messages); it
decides no rule of the game. Starlette is not imported here: a connection is anything with `send_json`.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..errors import BoggleI18nError

MAX_ROOMS = 16  # rooms open at once on one server
MAX_PLAYERS = 12  # players in one room
MAX_NAME = 24  # characters of a player's name
MAX_WORDS = 200  # words one player may enter in one round (each is judged with the list before it: bounded work)
MAX_MESSAGE = 1024  # bytes (characters) of one message a player's page sends
MAX_SOCKETS = 4  # open connections per player (a phone and a reloaded tab); the oldest goes first
ROOM_IDLE = 3 * 3600.0  # seconds: a room nobody has touched this long is closed when another is created
SECONDS_LOW, SECONDS_HIGH = 5, 1800  # a round's length (the browser tests play 5 to 20 s rounds)
COUNTDOWN = 3.0  # seconds between "start" and the board shown to everyone
CODE_DIGITS = 6  # a room's code: typed on a phone, guessed in a million tries
BAD_CODES = 30  # wrong codes asked for within BAD_CODE_WINDOW before joins are refused for a while
BAD_CODE_WINDOW = 60.0


class RoomError(BoggleI18nError):
    """A refusal about a room (answered 4xx; over a WebSocket, an `error` message)."""

    status = 400


class NoRoom(RoomError):
    status = 404


class Forbidden(RoomError):
    status = 403


class Crowded(RoomError):
    status = 429


class Connection(Protocol):
    """A player's live connection (a Starlette WebSocket)."""

    async def send_json(self, data: Any) -> None: ...

    async def close(self, code: int = 1000) -> None: ...


def check_name(raw: Any) -> str:
    """A player's name: 1 to MAX_NAME characters, no control characters, spaces folded; NFC."""
    if not isinstance(raw, str):
        raise RoomError("a name must be text", code="room.bad_name", params={"max": MAX_NAME})
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if (
        not name
        or len(name) > MAX_NAME
        or any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name)
        or ":" in name  # `judge` reads `NAME: words` lines: a room's lists stay writable that way
    ):
        raise RoomError(
            f"a name is 1 to {MAX_NAME} letters, without control characters or ':'",
            code="room.bad_name",
            params={"max": MAX_NAME},
        )
    return name


@dataclass
class Player:
    id: str  # public: names the player in lists (p1, p2, ...)
    token: str  # secret: only this player's page holds it
    name: str
    host: bool
    words: list[str] = field(default_factory=list)  # this round's words, as written
    checked: list[dict[str, Any]] = field(default_factory=list)  # the server's private answer to each
    sockets: list[Connection] = field(default_factory=list)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "host": self.host,
            "words": len(self.words),
            "online": bool(self.sockets),
        }


@dataclass
class Round:
    """One round's board as the library chose it, and when it starts and ends on the server's clock."""

    number: int
    selection: Any  # language.selection.Selection
    board: Any  # board.board.Board
    lexicon: Any  # lexicon.store.Lexicon
    shown: dict[str, Any]  # what every page shows: the grid and rules, never the words
    referee: Any  # judging.Referee: decides every word and the totals
    seconds: int
    starts: float  # time.monotonic()
    ends: float
    results: dict[str, Any] | None = None  # judging.judgement_dict, when the round is over


@dataclass
class Room:
    code: str
    settings: dict[str, Any]  # the host's choice (language, size, rules, seconds), as the page sends it
    join_url: str
    qr: str | None = None  # the join link's QR code (inline SVG), made once
    players: dict[str, Player] = field(default_factory=dict)  # by token
    round: Round | None = None
    last_round: Round | None = None
    touched: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.Task[None] | None = None
    next_id: int = 1

    def phase(self, now: float | None = None) -> str:
        """lobby (no round yet) | countdown | running | judging | over."""
        r = self.round
        if r is None:
            return "lobby"
        if r.results is not None:
            return "over"
        now = time.monotonic() if now is None else now
        if now < r.starts:
            return "countdown"
        return "running" if now < r.ends else "judging"


# What the room asks of the app: a board prepared from the host's settings (selection, board, lexicon, what
# the pages show), and the judgement of lists on a board (judging.judge and judgement_dict).
Prepare = Callable[[Mapping[str, Any]], tuple[Any, Any, Any, dict[str, Any]]]


def referee(rnd_parts: tuple[Any, Any, Any, dict[str, Any]]) -> Any:
    """The round's judge (`judging.Referee`: the board solved once, the lexicon's word checker)."""
    from ..judging import Referee

    selection, board, lexicon, _ = rnd_parts
    return Referee(board, lexicon, selection.rules, selection=selection)


def check_word(rnd: Round, name: str, words: list[str]) -> dict[str, Any]:
    """The private answer to a player's last word: their own list judged alone (no striking: the others'
    lists are secret until the end), so a word written twice is `repeated` now as at the end."""
    judged = rnd.referee.judge({name: words}, strike=False).players[0].words[-1]
    cols = rnd.board.cols
    return {
        "written": judged.written,
        "word": judged.word,
        "points": judged.points,
        "status": judged.status,
        "reason": judged.reason,
        "category": judged.category,  # not-a-word: lookup's category, which the page words
        "path": [list(divmod(i, cols)) for i in judged.path] if judged.path is not None else None,
    }


def results(rnd: Round, lists: Mapping[str, list[str]]) -> dict[str, Any]:
    """Every list judged together, shared words struck: `judging.judge`, as the `judge` command calls it, and
    its `--json` document (with paths)."""
    from ..judging import judge, judgement_dict

    judged = judge(rnd.board, rnd.lexicon, rnd.selection.rules, lists, strike=True, selection=rnd.selection)
    return judgement_dict(judged, paths=True)


class Rooms:
    """The rooms of one server (bounded), and the timers that start and end their rounds."""

    def __init__(self, prepare: Prepare, join_base: str | None = None, qr: bool = True) -> None:
        self.prepare = prepare
        self.join_base = join_base  # `serve --lan`: http://ADDRESS:PORT (else the page's own origin)
        self.qr = qr
        self.rooms: dict[str, Room] = {}
        self.bad_codes: list[float] = []

    # -- creating, finding, joining

    def create(self, name: Any, origin: str) -> tuple[Room, Player]:
        """A new room with its host as its first player."""
        name = check_name(name)
        now = time.monotonic()
        for code, room in list(self.rooms.items()):
            if now - room.touched > ROOM_IDLE and not any(p.sockets for p in room.players.values()):
                self.close(code)
        if len(self.rooms) >= MAX_ROOMS:
            raise Crowded(
                f"this server has {MAX_ROOMS} rooms open: try again later",
                code="room.too_many",
                params={"max": MAX_ROOMS},
            )
        while True:
            code = "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS))
            if code not in self.rooms:
                break
        base = (self.join_base or origin).rstrip("/")
        url = f"{base}/?room={code}"
        room = Room(code, {}, url, qr_svg(url) if self.qr else None)
        self.rooms[code] = room
        return room, self._add(room, name, host=True)

    def close(self, code: str) -> None:
        room = self.rooms.pop(code, None)
        if room is not None and room.timer is not None:
            room.timer.cancel()

    def close_all(self) -> None:
        """The server stops: every room's clock with it."""
        for code in list(self.rooms):
            self.close(code)

    def get(self, code: Any) -> Room:
        """The room of a code; a wrong code counts, and too many wrong codes in a minute refuse every join."""
        now = time.monotonic()
        self.bad_codes = [t for t in self.bad_codes if now - t < BAD_CODE_WINDOW]
        if len(self.bad_codes) >= BAD_CODES:
            raise Crowded("too many wrong room codes: try again in a minute", code="room.wrong_codes", params={})
        room = self.rooms.get(code) if isinstance(code, str) else None
        if room is None:
            self.bad_codes.append(now)
            raise NoRoom("no room has this code (it may have closed)", code="room.unknown", params={})
        room.touched = now
        return room

    def join(self, code: Any, name: Any) -> tuple[Room, Player]:
        room = self.get(code)
        name = check_name(name)
        if len(room.players) >= MAX_PLAYERS:
            raise Crowded(f"this room is full ({MAX_PLAYERS} players)", code="room.full", params={"max": MAX_PLAYERS})
        if any(p.name.casefold() == name.casefold() for p in room.players.values()):
            raise RoomError(f"a player here is called {name!r} already", code="room.name_taken", params={"name": name})
        return room, self._add(room, name, host=False)

    def _add(self, room: Room, name: str, host: bool) -> Player:
        player = Player(f"p{room.next_id}", secrets.token_urlsafe(18), name, host)
        room.next_id += 1
        room.players[player.token] = player
        return player

    def player(self, room: Room, token: Any) -> Player:
        """The player a token belongs to (in this room only)."""
        player = room.players.get(token) if isinstance(token, str) and token else None
        if player is None:
            raise Forbidden("this page holds no player's token for this room", code="room.token", params={})
        return player

    def host(self, room: Room, token: Any) -> Player:
        player = self.player(room, token)
        if not player.host:
            raise Forbidden("only the room's host can do this", code="room.not_host", params={})
        return player

    # -- rounds

    async def start(self, room: Room, token: Any, settings: Mapping[str, Any], seconds: int) -> None:
        """A new round (also a rematch): the board prepared from the host's settings, then the countdown."""
        self.host(room, token)
        async with room.lock:
            if room.phase() in ("countdown", "running", "judging"):
                raise RoomError("a round is being played in this room", code="room.playing", params={})
            parts = await asyncio.to_thread(self.prepare, settings)
            judge = await asyncio.to_thread(referee, parts)
            selection, board, lexicon, shown = parts
            number = (room.last_round.number + 1) if room.last_round else 1
            now = time.monotonic()
            ends = now + COUNTDOWN + seconds
            rnd = Round(number, selection, board, lexicon, shown, judge, seconds, now + COUNTDOWN, ends)
            room.settings = {**settings, "seconds": seconds}
            for p in room.players.values():
                p.words, p.checked = [], []
            room.round = room.last_round = rnd
            room.timer = asyncio.create_task(self._clock(room, rnd))
        await self.broadcast(room)

    async def _clock(self, room: Room, rnd: Round) -> None:
        """The round's clock: everyone gets the board when the countdown ends, the results when time is up."""
        await asyncio.sleep(max(0.0, rnd.starts - time.monotonic()))
        await self.broadcast(room)
        await asyncio.sleep(max(0.0, rnd.ends - time.monotonic()))
        await self.finish(room, rnd)

    async def finish(self, room: Room, rnd: Round) -> None:
        async with room.lock:
            if room.round is not rnd or rnd.results is not None:
                return
            lists = {p.name: list(p.words) for p in room.players.values()}
            try:
                rnd.results = await asyncio.to_thread(results, rnd, lists)
            except BoggleI18nError as exc:  # never a room stuck in "judging": the round ends, saying why
                rnd.results = {**exc.to_dict(), "players": [], "missed": []}
        await self.broadcast(room)

    async def word(self, room: Room, player: Player, message: Mapping[str, Any]) -> dict[str, Any]:
        """A word a player entered: checked against the room's board, the answer for this player only."""
        claimed = message.get("player")
        if claimed is not None and claimed != player.id:
            raise Forbidden("a player can enter words only for themselves", code="room.not_yours", params={})
        text = message.get("word")
        if not isinstance(text, str) or not text.strip() or len(text) > 64:
            raise RoomError("a word is 1 to 64 letters", code="room.bad_word", params={})
        async with room.lock:
            rnd = room.round
            if rnd is None or room.phase() != "running":
                raise RoomError("no round is being played now", code="room.not_playing", params={})
            if len(player.words) >= MAX_WORDS:
                raise RoomError(
                    f"at most {MAX_WORDS} words in a round", code="room.too_many_words", params={"max": MAX_WORDS}
                )
            words = [*player.words, text.strip()]
            answer = await asyncio.to_thread(check_word, rnd, player.name, words)
            player.words = words
            player.checked.append(answer)
        room.touched = time.monotonic()
        return answer

    # -- what each page is sent

    def snapshot(self, room: Room, player: Player) -> dict[str, Any]:
        """The room as this player sees it: the others' names and word counts, only their own words."""
        now = time.monotonic()
        phase = room.phase(now)
        rnd = room.round
        data: dict[str, Any] = {
            "type": "state",
            "room": room.code,
            "phase": phase,
            "me": player.id,
            "host": player.host,
            "players": [p.public() for p in room.players.values()],
            "settings": room.settings,
            "join_url": room.join_url,
            "qr_svg": room.qr,
            "round": rnd.number if rnd else 0,
        }
        if rnd is not None:
            data["seconds"] = rnd.seconds
            data["starts_in_ms"] = max(0, round((rnd.starts - now) * 1000))
            data["ends_in_ms"] = max(0, round((rnd.ends - now) * 1000))
            if phase != "countdown":
                data["board"] = rnd.shown
                data["words"] = player.checked
            if rnd.results is not None:
                data["results"] = rnd.results
        return data

    async def broadcast(self, room: Room) -> None:
        """Every player's page gets the room as they see it (a page that went away is dropped)."""
        sends: list[Awaitable[None]] = []
        for p in list(room.players.values()):
            view = self.snapshot(room, p)
            sends.extend(self._send(p, s, view) for s in list(p.sockets))
        await asyncio.gather(*sends)

    async def players_changed(self, room: Room) -> None:
        """Who is in the room and how many words each has: to every page (not the words)."""
        message = {"type": "players", "players": [p.public() for p in room.players.values()]}
        await asyncio.gather(*(self._send(p, s, message) for p in list(room.players.values()) for s in list(p.sockets)))

    async def _send(self, player: Player, socket: Connection, message: dict[str, Any]) -> None:
        try:
            await socket.send_json(message)
        except Exception:  # the page went away between two messages: it reconnects with its token
            if socket in player.sockets:
                player.sockets.remove(socket)

    async def attach(self, room: Room, player: Player, socket: Connection) -> None:
        """A page connected for a player: it gets the room now, every change later."""
        player.sockets.append(socket)
        while len(player.sockets) > MAX_SOCKETS:
            old = player.sockets.pop(0)
            try:
                await old.close(4000)
            except Exception:  # already gone
                pass
        await self._send(player, socket, self.snapshot(room, player))
        await self.players_changed(room)

    async def detach(self, room: Room, player: Player, socket: Connection) -> None:
        if socket in player.sockets:
            player.sockets.remove(socket)
            await self.players_changed(room)


def qr_svg(url: str) -> str | None:
    """The join link as a QR code, inline SVG (segno, generated here: nothing leaves the machine)."""
    try:
        import segno
    except ImportError:  # pragma: no cover - segno comes with the web extra
        return None
    svg: str = segno.make(url, error="m").svg_inline(scale=4, omitsize=True, dark="#000", light="#fff", title=url)
    return svg
