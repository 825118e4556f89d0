"""The web app: a JSON API under /api/ and one static page, over the same library calls as the CLI.

Every endpoint parses its parameters, calls the library (`solving`, `api.roll`,
`compare`, `optimize`, `optimize.results`) and returns JSON. A user's mistake is
a 4xx with `{"error": "one line", "code": ..., "params": {...}}` (the code and params the library raised, for
the page to word in the player's language; `errors.CODES`); a lexicon still being built is a 202 with its
progress lines; nothing answers with a traceback. The endpoints are listed in
docs/web.md (tests/test_web_api.py checks that list against `ROUTES`).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..api import roll
from ..board.notation import parse_size
from ..errors import BoggleI18nError
from ..language.selection import select
from ..lexicon.store import lexicon_name
from ..optimize.results import result_size
from ..solving import choose_board, search_selection, solution_dict, with_lexicon_info
from .guard import Site, SiteGuard
from .rooms import MAX_MESSAGE, SECONDS_HIGH, SECONDS_LOW, Room, RoomError, Rooms
from .state import Building, Busy, Job, Jobs, Lexicons, NotBuilt, Scorers

STATIC = Path(__file__).resolve().parent / "static"
MAX_QUERY = 2048  # bytes of query string
MAX_BODY = 16 * 1024  # bytes of a POST body
BODY_SECONDS = 10.0  # a POST body not received in this time is refused (400): a slow client holds nothing long
MAX_CELLS = 100  # a board the page solves or rolls: up to 10x10
MAX_SIDE = 10
MAX_WORD = 64
MAX_COMPARE_LANGS = 8
MAX_COMPARE_BOARDS = 20_000
MAX_SEARCH_SECONDS = 600.0


class BadRequest(BoggleI18nError):
    """A parameter the page (or a client) got wrong: 400."""


class JobStream(StreamingResponse):
    """A job's event stream: when the response ends, however it ends, a job still running is stopped (the page
    went away). The stream's own `finally` is not enough: a page that leaves while an event is being written
    cancels the response inside `send`, with the generator waiting at its `yield`, closed only when it is
    garbage-collected."""

    def __init__(self, events: AsyncIterator[str], job: Job) -> None:
        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        super().__init__(events, media_type="text/event-stream", headers=headers)
        self.job = job

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            if self.job.state == "running":
                self.job.stop.set()


def error(message: str | BoggleI18nError, status: int = 400) -> JSONResponse:
    """The one error shape: `{"error": "..."}`, with `code` and `params` when the refusal has them."""
    body = message.to_dict() if isinstance(message, BoggleI18nError) else {"error": message}
    return JSONResponse(body, status_code=status)


def _invalid(message: str, name: str) -> BadRequest:
    """A request the page never sends (a wrong type, too long, not JSON): one code, naming the parameter."""
    return BadRequest(message, code="request.invalid", params={"name": name})


# ---------------------------------------------------------------- parameters


def _text(params: Mapping[str, Any], key: str, default: str | None = None, limit: int = 512) -> str | None:
    value = params.get(key, default)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise _invalid(f"{key} must be a string", key)
    if len(value) > limit:
        raise _invalid(f"{key} is longer than {limit} characters", key)
    return value


def _int(
    params: Mapping[str, Any], key: str, default: int | None, low: int | None = None, high: int | None = None
) -> int | None:
    """A whole number; a range only where the web has its own cap (a number the library ranges, it checks)."""
    value = params.get(key)
    if value is None or value == "":
        return default
    shown = str(value)[:40]
    not_whole = BadRequest(
        f"{key} must be a whole number, not {shown!r}", code="limit.not_number", params={"option": key, "value": shown}
    )
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise not_whole  # 1.5 is refused, not truncated
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise not_whole from None
    if low is not None and high is not None and not low <= number <= high:
        raise BadRequest(
            f"{key} must be between {low} and {high}, not {number}",
            code="limit.range",
            params={"option": key, "low": low, "high": high, "value": str(number)},
        )
    return number


def _float(params: Mapping[str, Any], key: str, default: float, low: float, high: float) -> float:
    value = params.get(key)
    if value is None or value == "":
        return default
    shown = str(value)[:40]
    not_number = BadRequest(
        f"{key} must be a number, not {shown!r}", code="limit.not_number", params={"option": key, "value": shown}
    )
    if isinstance(value, bool):
        raise not_number
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise not_number from None
    if not low <= number <= high:  # NaN fails too
        raise BadRequest(
            f"{key} must be between {low:g} and {high:g}",
            code="limit.range",
            params={"option": key, "low": low, "high": high, "value": shown},
        )
    return number


def _bool(params: Mapping[str, Any], key: str, default: bool) -> bool:
    value = params.get(key)
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise _invalid(f"{key} must be true or false, not {text[:40]!r}", key)


def _size(params: Mapping[str, Any]) -> tuple[int, int] | None:
    text = _text(params, "size", limit=16)
    if text is None:
        return None
    shape = parse_size(text)
    _check_shape(shape)
    return shape


def _check_shape(shape: tuple[int, int]) -> None:
    rows, cols = shape
    if rows > MAX_SIDE or cols > MAX_SIDE or rows * cols > MAX_CELLS:
        raise BadRequest(
            f"a {rows}x{cols} board is too large here (at most {MAX_SIDE}x{MAX_SIDE})",
            code="board.too_large",
            params={"size": f"{rows}x{cols}", "max": f"{MAX_SIDE}x{MAX_SIDE}"},
        )


def _lexicon(params: Mapping[str, Any]) -> str | None:
    """A store name only: a path (recipe .toml, trie .marisa) never comes from a web client."""
    text = _text(params, "lexicon", limit=64)
    return lexicon_name(text) if text is not None else None


def _rules(params: Mapping[str, Any]) -> dict[str, Any]:
    """The rule options `select` takes, as the page sends them."""
    return {
        "lang": _text(params, "lang", limit=16),
        "lexicon": _lexicon(params),
        "dice": _text(params, "dice", limit=64),
        "min_length": _int(params, "min_length", None),  # its range is the library's (select checks it)
        "scoring": _text(params, "scoring", limit=200),
        "diagonals": _bool(params, "diagonals", True),
    }


async def _json_body(request: Request) -> dict[str, Any]:
    try:
        announced = int(request.headers.get("content-length") or 0)
    except ValueError:
        raise _invalid("Content-Length is not a number", "body") from None
    if announced > MAX_BODY:
        raise _invalid(f"request body over {MAX_BODY} bytes", "body")

    async def read() -> bytes:
        body = b""
        async for chunk in request.stream():  # never more than MAX_BODY read, whatever the header said
            body += chunk
            if len(body) > MAX_BODY:
                raise _invalid(f"request body over {MAX_BODY} bytes", "body")
        return body

    try:
        body = await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise _invalid(f"request body not received within {BODY_SECONDS:g} s", "body") from None
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):  # RecursionError: JSON nested thousands deep
        raise _invalid("request body is not JSON (or nested too deeply)", "body") from None
    if not isinstance(data, dict):
        raise _invalid("request body must be a JSON object", "body")
    bad = _unencodable(data)
    if bad is not None:
        raise _invalid(f"{bad} holds a lone surrogate (a \\ud800-\\udfff escape that is half a character)", bad)
    return data


def _unencodable(data: dict[str, Any]) -> str | None:
    """The top-level key of the first string (key or value, at any depth) that is no Unicode text: JSON lets an
    escape spell half a surrogate pair, which no UTF-8 encoder (an answer, a file, a log) takes. None: all good.
    Iterative, so a deep body cannot recurse; every endpoint's body passes here."""
    for top, value in data.items():
        stack: list[Any] = [top, value]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                try:
                    item.encode("utf-8")
                except UnicodeEncodeError:
                    return top if _encodes(top) else "body"
            elif isinstance(item, dict):
                for key, inner in item.items():
                    stack += (key, inner)
            elif isinstance(item, list):
                stack += item
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# ---------------------------------------------------------------- the app


class WebApp:
    """The routes and the state they share (store, loaded lexicons, scorers, jobs, results folder)."""

    def __init__(self, store: str | os.PathLike[str] | None = None, results: Path | None = None) -> None:
        self.store = store
        self.results = results
        self.lexicons = Lexicons(store)
        self.scorers = Scorers()
        self.jobs = Jobs()
        self._counts: dict[tuple[int, tuple[str, ...], str], dict[str, int]] = {}
        self._checkers: dict[int, Any] = {}
        self._lock = threading.Lock()
        self._languages: tuple[tuple[tuple[str, int, int], ...], dict[str, Any]] | None = None

    # -- solving

    def solve(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """GET /api/solve: the `solve --json` document of a board."""
        selection, _, _, solved = self._solve(params)
        return {**solved, "warnings": list(selection.warnings)}

    def _solve(self, params: Mapping[str, Any]) -> tuple[Any, Any, Any, dict[str, Any]]:
        """A board's selection, board, lexicon and `solve --json` document (the solve and a room's round)."""
        text = _text(params, "board", limit=1000)
        if text is None:
            raise BadRequest("give a board, e.g. board=trap/kaas/oven/blij", code="board.empty")
        rules = _rules(params)
        selection, board = choose_board(
            text, size=_size(params), bare_q=_text(params, "bare_q", limit=4), store=self.store, **rules
        )
        _check_shape(board.size)
        lexicon = self.lexicons.get(selection.require_lexicon())
        result = with_lexicon_info(self.scorers.solve(lexicon, selection.rules, board), lexicon)
        return selection, board, lexicon, solution_dict(selection, result)

    def room_board(self, params: Mapping[str, Any]) -> tuple[Any, Any, Any, dict[str, Any]]:
        """A room's round: a board rolled as the page's Roll does, solved as its game does (the dice's rules
        unless the host chose others). What the pages are shown is the board and its rules, never its words."""
        rolled = self.roll(params)
        rules = {k: params.get(k) for k in ("lang", "lexicon", "min_length", "scoring", "diagonals")}
        selection, board, lexicon, solved = self._solve({**rules, "board": rolled["board"]})
        keys = ("board", "rows", "cols", "lang", "dice", "grid", "shown_grid", "rules")
        shown = {k: solved.get(k) for k in keys}
        shown["lexicon"] = solved["lexicon"]["name"]
        shown["dice"] = rolled.get("dice") or solved.get("dice")
        return selection, board, lexicon, shown

    def roll(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """GET /api/roll: a rolled board (dice, or letters drawn cell by cell) and its seed."""
        letters = _text(params, "letters", limit=16)
        lang = _text(params, "lang", limit=16)
        dice = _text(params, "dice", limit=64)
        size = _size(params)
        seed = _int(params, "seed", None)  # its range is the library's (roll checks it)
        lexicon = counts = None
        if letters is not None and letters.strip().lower() == "lexicon":
            chosen = select(lang=lang, lexicon=_lexicon(params), store=self.store)
            lexicon = self.lexicons.get(chosen.require_lexicon())
            counts = self._letter_counts(lexicon, chosen.language.dice, chosen.language.attach)
        rolled = roll(
            dice=dice, lang=lang, size=size, letters=letters, seed=seed, letter_counts=counts, lexicon=lexicon
        )
        _check_shape(rolled.board.size)
        return rolled.to_dict()

    def daily(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """GET /api/daily: the board of the day (`daily.board_of_the_day`; `date=YYYY-MM-DD`, else today, UTC)."""
        from ..daily import board_of_the_day, parse_day, today

        text = _text(params, "date", limit=16)
        day = parse_day(text) if text else today()
        chosen = select(lang=_text(params, "lang", limit=16), lexicon=_lexicon(params), store=self.store)
        lexicon = None
        if chosen.for_size((4, 4)).dice is None:  # letters drawn by the word list: it is part of the rule
            lexicon = self.lexicons.get(chosen.require_lexicon())
        rolled = board_of_the_day(chosen.language.code, day, lexicon)
        return {**rolled.to_dict(), "date": day.isoformat()}

    def _letter_counts(self, lexicon: Any, dice_ids: Sequence[str], attach: str = "") -> dict[str, int]:
        """`api.face_counts` of every face a roll may draw (alphabet and dice faces), counted once per lexicon;
        a language that attaches letters (Thai tone marks) draws the lexicon's clusters (`api.cluster_counts`)."""
        from ..api import cluster_counts, face_counts
        from ..board.dice import get_dice
        from ..solver.scorer import lexicon_letters

        key = (id(lexicon), tuple(dice_ids), attach)
        with self._lock:
            counts = self._counts.get(key)
        if counts is None:
            if attach:
                counts = cluster_counts(lexicon, attach)
            else:
                faces = set(lexicon_letters(lexicon))  # Welsh: ll is a letter
                for d in dice_ids:
                    faces |= get_dice(d).faces
                counts = face_counts(lexicon, sorted(faces - {""}))
            with self._lock:
                self._counts[key] = counts
        return counts

    def lookup(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """GET /api/lookup: whether the lexicon holds a word and, if not, why (the library's `lookup.WordChecker`:
        the word through the stages its recipe recorded, as `boggle-i18n lookup` answers)."""
        word = _text(params, "word", limit=MAX_WORD)
        if word is None:
            raise BadRequest("give a word, e.g. word=kaas", code="lookup.empty_word")
        selection = select(lang=_text(params, "lang", limit=16), lexicon=_lexicon(params), store=self.store)
        lexicon = self.lexicons.get(selection.require_lexicon())
        answer = self._checker(lexicon).check(word).to_dict()
        return {**answer, "lang": selection.language.code, "key": answer["normalised"] or word.strip().lower()}

    def remove_word(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """POST /api/word/remove: "not a word?" on the end screen. The word goes on the player's blocklist of the
        lexicon in the store (the library's `userwords.remove_word`, as `boggle-i18n word remove`); the lexicon is
        loaded again for the next request, with the list applied."""
        from ..userwords import remove_word

        word = _text(data, "word", limit=MAX_WORD)
        if word is None:
            raise BadRequest("give a word, e.g. word=kaas", code="lookup.empty_word")
        change = remove_word(word, lang=_text(data, "lang", limit=16), lexicon=_lexicon(data), store=self.store)
        self.lexicons.forget(change.lexicon)
        return change.to_dict()

    def _checker(self, lexicon: Any) -> Any:
        """One word checker per lexicon (its recipe's stages, built once)."""
        from ..lookup import WordChecker

        key = id(lexicon)
        with self._lock:
            checker = self._checkers.get(key)
        if checker is None or checker.lexicon is not lexicon:
            checker = WordChecker(lexicon)
            with self._lock:
                self._checkers[key] = checker
        return checker

    # -- listings

    def languages(self) -> dict[str, Any]:
        """GET /api/languages: every language with its lexicons, dice sets and rules, and the scoring presets.

        Worked out once (22 languages' recipes take about 150 ms to read), again only when the store's
        manifests change (a lexicon built or removed): the page asks for it on every load.
        """
        key = _store_state(self.store)
        with self._lock:
            if self._languages is not None and self._languages[0] == key:
                return self._languages[1]
        answer = self._languages_now()
        with self._lock:
            self._languages = (key, answer)
        return answer

    def _languages_now(self) -> dict[str, Any]:
        from .export import languages_answer

        return languages_answer(self.store)  # the static site (export-web) ships the same answer

    def lexicon_list(self) -> dict[str, Any]:
        """GET /api/lexicons: what the store holds, and what this server has loaded or is building."""
        from ..lexicon.store import built_lexicons

        built = {
            name: {
                "lang": m.get("language"),  # the manifest's stored key; the API's vocabulary is `lang` (docs/json.md)
                **{k: m.get(k) for k in ("word_count", "licence", "trie_sha256")},
            }
            for name, m in built_lexicons(self.store).items()
        }
        return {"built": built, "server": self.lexicons.status()}

    def lexicon_status(self, name: str, build: bool = False) -> dict[str, Any]:
        """GET /api/lexicons/NAME: this server's load of one lexicon (loads a built one; never builds).
        POST /api/lexicons/NAME/build (`build`): builds it if it is not built (one build at a time)."""
        name = lexicon_name(name)
        try:
            lexicon = self.lexicons.get(name, wait=0.05, build=build)
        except Building as exc:
            if build:
                raise
            return {"name": name, "state": "building", "lines": exc.lines, "lang": exc.lang, "percent": exc.percent}
        except NotBuilt as exc:
            return {"name": name, "state": "not built", "error": str(exc)}
        return {"name": name, "state": "loaded", "word_count": len(lexicon), **self.lexicons.status().get(name, {})}

    def records(self) -> dict[str, Any]:
        """GET /api/records: the best board per lexicon, size and dice set: the records shipped with the package
        (`prove.shipped`) plus the result files of `serve --results DIR` (optimize's, and prove's proofs)."""
        from ..prove.shipped import load_records

        folder = self.results if self.results is not None and self.results.is_dir() else None
        try:
            runs, _known, proofs = load_records(folder)
            records = best_records([*runs, *proofs])
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
            # a result file edited by hand in a way the checks in best_records do not name: one line, not a 500
            why = f"{type(exc).__name__}: {exc}"
            raise BoggleI18nError(f"a result file in {folder} is malformed ({why})") from None
        return {"folder": str(folder) if folder else None, "records": records}

    # -- long jobs

    def _job_lexicon(self, name: str, job: Job, lang: str) -> Any:
        """Load (or build) `name` for a job; while it builds, its events say so, with how much of its list is read
        (a step of at most a quarter: the page's compare log keeps each line), so the page never just says
        "loading" through a build of a minute."""
        said: tuple[str | None, int | None] | None = None
        while True:
            try:
                return self.lexicons.get(name, wait=0.25, build=True)
            except Building as exc:
                now = (exc.lang, None if exc.percent is None else exc.percent // 25 * 25)
                if now != said:
                    job.emit({"step": "building", "lang": exc.lang or lang, "lexicon": name, "percent": now[1]})
                    said = now

    def start_compare(self, data: Mapping[str, Any]) -> Job:
        """POST /api/compare: a compare job (checked before it starts)."""
        from ..comparison.compare import (
            check_request,
            compare_language,
            default_roll,
            table_columns,
            table_headers,
            table_rows,
        )

        langs = data.get("langs")
        if not isinstance(langs, list) or not all(isinstance(x, str) and len(x) <= 16 for x in langs):
            raise _invalid("langs must be a list of language codes", "langs")
        if len(langs) > MAX_COMPARE_LANGS:
            raise BadRequest(
                f"compare at most {MAX_COMPARE_LANGS} languages at a time",
                code="compare.too_many_langs",
                params={"max": MAX_COMPARE_LANGS},
            )
        shape = _size(data) or (4, 4)
        n_boards = _int(data, "boards", 1000, 1, MAX_COMPARE_BOARDS)
        seed = _int(data, "seed", 0)  # its range is the library's (check_request)
        assert n_boards is not None and seed is not None
        check_request(langs, shape, n_boards, seed=seed)
        roll = default_roll(langs, shape)  # one basis for the whole table, as the CLI
        params = {"langs": langs, "size": f"{shape[0]}x{shape[1]}", "boards": n_boards, "seed": seed, "roll": roll}

        def work(job: Job) -> dict[str, Any]:
            results = []
            for lang in langs:
                if job.stop.is_set():
                    break
                # Events in numbers and names (compare.progress_line's facts): the page words them.
                job.emit({"step": "loading", "lang": lang})
                results.append(
                    compare_language(
                        lang,
                        size=shape,
                        n_boards=n_boards,
                        seed=seed,
                        store=self.store,
                        loader=partial(self._job_lexicon, job=job, lang=lang),
                        # a seed is 63 bits: a string, which JavaScript's numbers would round
                        events=lambda e: job.emit({**e, "seed": str(e["seed"])} if "seed" in e else e),
                        roll=roll,
                    )
                )
                job.emit({"step": "done", "lang": lang, "done": len(results), "of": len(langs)})
            if not results:
                return {"params": params, "headers": [], "columns": [], "rows": [], "languages": []}
            languages = [{**r.to_dict(with_boards=False), "scores": r.scores} for r in results]
            return {
                "params": params,
                "headers": table_headers(results),
                "columns": table_columns(results),
                "rows": table_rows(results),
                "languages": languages,
            }

        return self.jobs.start("compare", params, work)

    def start_optimize(self, data: Mapping[str, Any]) -> Job:
        """POST /api/optimize: a search job (one worker thread; stopped by its page, its time limit or shutdown)."""
        from ..optimize import optimize
        from ..optimize.problem import free_faces

        rules = _rules(data)
        seconds = _float(data, "time_limit", 30.0, 0.5, MAX_SEARCH_SECONDS)
        seed = _int(data, "seed", None)  # its range is the library's (check_request)
        strategy = _text(data, "strategy", "hill", limit=16) or "hill"
        chosen = search_selection(size=_size(data), store=self.store, **rules)
        shape = chosen.size or (4, 4)
        _check_shape(shape)
        from ..optimize.optimizer import check_request

        check_request(strategy=strategy, shape=shape, seed=seed or 0, time_limit=seconds)  # the CLI's checks: 400
        name = chosen.require_lexicon()
        if seed is None:
            from ..api import new_seed

            seed = new_seed()
        dice = rules["dice"]
        code = chosen.language.code
        params = {"lang": code, "lexicon": name, "size": f"{shape[0]}x{shape[1]}", "dice": dice}
        params.update(time_limit=seconds, seed=seed, strategy=strategy, rules=chosen.rules.to_dict())

        def work(job: Job) -> dict[str, Any]:
            job.emit({"step": "loading", "lexicon": name})
            lexicon = self._job_lexicon(name, job, code)
            faces = None if dice else free_faces(code, shape, lexicon)

            def on_progress(p: Any) -> None:
                rate = p.evaluated / p.elapsed if p.elapsed > 0 else 0.0
                job.emit({"best": p.best_score, "evaluated": p.evaluated, "rate": round(rate), "elapsed": p.elapsed})

            result = optimize(
                lexicon,
                chosen.rules,
                shape,
                dice=dice,
                faces=faces,
                strategy=strategy,
                seed=seed,
                time_limit=seconds,
                on_progress=on_progress,
                stop=job.stop.is_set,
            )
            return {**result.to_dict(), "lang": code}

        return self.jobs.start("optimize", params, work)


def _recipe_language(name: Any) -> str | None:
    """The language of a shipped recipe (proof files written before they recorded `lang`)."""
    from ..pipeline.recipe import load_recipe

    try:
        return load_recipe(str(name)).language
    except (BoggleI18nError, OSError):
        return None


def best_records(runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The best board per lexicon, size and dice set over result files: `optimize` runs (best found) and
    `prove` runs (`"kind": "proof"`; a complete one's `proven_best` is marked proven and wins a tie)."""
    best: dict[tuple[str, str, str], dict[str, Any]] = {}
    for run in runs:
        settings = run.get("settings") or {}
        proof = run.get("kind") == "proof"
        top = run.get("proven_best") if proof and run.get("complete") else None
        if top is None and run.get("best"):
            top = run["best"][0] if isinstance(run["best"], list) else run["best"]
        if top is None:
            continue
        _check_record(run, settings, top)
        size = result_size(run)
        key = (str(settings.get("lexicon")), str(size), str(settings.get("dice") or ""))
        record = {
            "lang": run.get("lang") or _recipe_language(settings.get("lexicon")),
            "lexicon": settings.get("lexicon"),
            "size": size,
            "dice": settings.get("dice"),
            "rules": settings.get("rules"),
            "board": top["board"],
            "score": top["score"],
            "n_words": top.get("n_words"),
            "proven": bool(proof and run.get("proven_best")),
            "command": run.get("command"),
            "file": run.get("_file"),
            "shipped": bool(run.get("_shipped")),
        }
        held = best.get(key)
        if held is None or (record["score"], record["proven"]) > (held["score"], held["proven"]):
            best[key] = record
    return sorted(best.values(), key=lambda r: (str(r["lang"]), str(r["lexicon"]), str(r["size"]), -r["score"]))


def _check_record(run: Mapping[str, Any], settings: Any, top: Any) -> None:
    """A result file edited by hand (or damaged) is one error naming it, never a 500."""
    where = f"result file {run.get('_file') or '(unnamed)'}"
    if not isinstance(settings, Mapping):
        raise BoggleI18nError(f"{where}: settings is not an object")
    if not isinstance(top, Mapping) or not isinstance(top.get("board"), str):
        raise BoggleI18nError(f"{where}: its best board is not an object with a board")
    score = top.get("score")
    if isinstance(score, bool) or not isinstance(score, int):
        raise BoggleI18nError(f"{where}: the score of board {top['board'][:40]!r} is not a whole number")
    if not isinstance(top.get("n_words", 0), int | None):
        raise BoggleI18nError(f"{where}: n_words of board {top['board'][:40]!r} is not a whole number")


def _store_state(store: str | os.PathLike[str] | None) -> tuple[tuple[str, int, int], ...]:
    """The store's manifests by name, modification time and size: changes when a lexicon is built or removed."""
    from ..storage import store_dir

    try:
        with os.scandir(store_dir(store)) as entries:
            return tuple(
                sorted((e.name, e.stat().st_mtime_ns, e.stat().st_size) for e in entries if e.name.endswith(".json"))
            )
    except OSError:
        return ()


# ---------------------------------------------------------------- ASGI wiring


class QueryLimit:
    """Refuses a query string over MAX_QUERY bytes with 414 before any route sees it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and len(scope.get("query_string", b"")) > MAX_QUERY:
            await error(_invalid(f"query string over {MAX_QUERY} bytes", "query"), 414)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def create_app(
    store: str | os.PathLike[str] | None = None,
    results: Path | None = None,
    site: Site | None = None,
    join_base: str | None = None,
) -> Starlette:
    """The ASGI app: the API, the page and its assets (from the package, never outside STATIC).

    `site` is what the server answers to (guard.py): `serve` gives its address and port; the default is the
    loopback names on any port. Requests for another host, or from another site, are refused before any route.
    `join_base` is the address a room's join link names (`serve --lan`: http://ADDRESS:PORT); without it, the
    page's own.
    """
    web = WebApp(store, results)
    rooms = Rooms(web.room_board, join_base)

    def sync(call: Callable[[Mapping[str, Any]], dict[str, Any]]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            params = dict(request.query_params)
            return await _answer(lambda: call(params))

        return endpoint

    async def _answer(call: Callable[[], Any], status: int = 200) -> Response:
        from starlette.concurrency import run_in_threadpool

        try:
            return JSONResponse(await run_in_threadpool(call), status_code=status)
        except (Building, BoggleI18nError) as exc:
            return _refused(exc)

    def _refused(exc: Exception) -> Response:
        """A library refusal as the page reads it (a lexicon being built or not built: the page builds it)."""
        if isinstance(exc, Building):
            return JSONResponse(exc.to_dict(), status_code=202)
        if isinstance(exc, Busy):
            return error(exc, 429)
        if isinstance(exc, NotBuilt):  # a GET never builds: the page asks with POST /api/lexicons/NAME/build
            return JSONResponse({**exc.to_dict(), "not_built": exc.name}, status_code=409)
        if isinstance(exc, RoomError):
            return error(exc, exc.status)
        assert isinstance(exc, BoggleI18nError)
        return error(exc)

    async def languages(request: Request) -> Response:
        return await _answer(web.languages)

    async def lexicons(request: Request) -> Response:
        return await _answer(web.lexicon_list)

    async def lexicon(request: Request) -> Response:
        return await _answer(lambda: web.lexicon_status(request.path_params["name"]))

    async def lexicon_build(request: Request) -> Response:
        try:
            await _json_body(request)  # no parameters; a body, if any, must still be a JSON object
        except BadRequest as exc:
            return error(exc)
        return await _answer(lambda: web.lexicon_status(request.path_params["name"], build=True))

    async def word_remove(request: Request) -> Response:
        try:
            data = await _json_body(request)
        except BadRequest as exc:
            return error(exc)
        return await _answer(lambda: web.remove_word(data))

    async def records(request: Request) -> Response:
        return await _answer(web.records)

    async def start(request: Request) -> Response:
        data = {}
        try:
            data = await _json_body(request)
        except BadRequest as exc:
            return error(exc)
        kind = request.url.path.rsplit("/", 1)[-1]
        starter = web.start_compare if kind == "compare" else web.start_optimize
        return await _answer(lambda: starter(data).to_dict(), status=202)

    def _job(request: Request) -> Job:
        job = web.jobs.get(request.path_params["job"])
        if job is None:
            raise HTTPException(404, "no such job (unknown, or finished long ago)")
        return job

    async def job_state(request: Request) -> Response:
        return JSONResponse(_job(request).to_dict())

    async def job_stop(request: Request) -> Response:
        job = _job(request)
        job.stop.set()
        return JSONResponse({"id": job.id, "state": job.state, "stopping": True})

    async def job_events(request: Request) -> Response:
        job = _job(request)

        async def stream() -> AsyncIterator[str]:
            sent = 0
            while True:
                events = job.events
                while sent < len(events):
                    yield f"event: progress\ndata: {json.dumps(events[sent])}\n\n"
                    sent += 1
                if job.state != "running":
                    yield f"event: end\ndata: {json.dumps(job.to_dict())}\n\n"
                    return
                if web.jobs.closing.is_set() and job.thread is not None:
                    await asyncio.to_thread(job.thread.join, 2.0)  # stopped with the server: its last word
                    yield f"event: end\ndata: {json.dumps(job.to_dict())}\n\n"
                    return
                if await request.is_disconnected():
                    return  # the page went away: JobStream stops its job
                await asyncio.sleep(0.2)

        return JobStream(stream(), job)

    # -- rooms (web/rooms.py): created, joined and started with POST; played over one WebSocket per page

    def _origin(request: Request) -> str:
        return f"{request.url.scheme}://{request.headers.get('host', '')}"

    def _joined(room: Room, player: Any) -> dict[str, Any]:
        return {"room": room.code, "token": player.token, "me": player.id, "join_url": room.join_url}

    async def room_create(request: Request) -> Response:
        try:
            data = await _json_body(request)
            room, player = rooms.create(data.get("name"), _origin(request))
        except BoggleI18nError as exc:
            return _refused(exc)
        return JSONResponse(_joined(room, player), status_code=201)

    async def room_join(request: Request) -> Response:
        try:
            data = await _json_body(request)
            room, player = rooms.join(request.path_params["code"], data.get("name"))
        except BoggleI18nError as exc:
            return _refused(exc)
        await rooms.players_changed(room)
        return JSONResponse(_joined(room, player), status_code=201)

    async def room_start(request: Request) -> Response:
        """The host starts a round (or the rematch) on the panel's settings; a lexicon not built is built first
        (the page's usual 409, then POST build, then 202 while it builds)."""
        try:
            data = await _json_body(request)
            room = rooms.get(request.path_params["code"])
            rooms.host(room, data.get("token"))
            seconds = _int(data, "seconds", 180, SECONDS_LOW, SECONDS_HIGH)
            assert seconds is not None
            keys = ("lang", "lexicon", "size", "dice", "letters", "min_length", "scoring", "diagonals")
            settings = {k: data[k] for k in keys if k in data and data[k] not in (None, "")}
            await rooms.start(room, data.get("token"), settings, seconds)
        except (Building, BoggleI18nError) as exc:
            return _refused(exc)
        return JSONResponse({"room": room.code, "round": room.round.number if room.round else 0})

    async def room_socket(socket: WebSocket) -> None:
        """A player's page in a room: the first message names the player by token; then words, answered to
        this page only; the room's changes come to every page. Refusals close the socket with 4400-4404."""
        await socket.accept()
        try:
            room = rooms.get(socket.path_params["code"])
            hello = await _message(socket)
            player = rooms.player(room, hello.get("token"))
        except (RoomError, ValueError) as exc:
            await _close(socket, exc)
            return
        await rooms.attach(room, player, socket)
        try:
            while True:
                try:
                    message = await _message(socket)
                    if message.get("type") != "word":
                        raise RoomError("unknown message", code="room.bad_word", params={})
                    answer = await rooms.word(room, player, message)
                except RoomError as exc:
                    await socket.send_json({"type": "error", **exc.to_dict()})
                    continue
                except ValueError as exc:
                    await _close(socket, exc)
                    return
                await socket.send_json({"type": "checked", "answer": answer})
                await rooms.players_changed(room)
        except WebSocketDisconnect:
            pass
        finally:
            await rooms.detach(room, player, socket)

    async def _message(socket: WebSocket) -> dict[str, Any]:
        """One message from a page: a JSON object of at most MAX_MESSAGE characters (else ValueError)."""
        text = await socket.receive_text()
        if len(text) > MAX_MESSAGE:
            raise ValueError(f"a message over {MAX_MESSAGE} characters")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ValueError("a message that is not JSON") from None
        if not isinstance(data, dict):
            raise ValueError("a message that is not a JSON object")
        return data

    async def _close(socket: WebSocket, exc: Exception) -> None:
        """Say why, then close: 4403 no token of this room, 4404 no such room, 4400 a malformed message."""
        body = exc.to_dict() if isinstance(exc, BoggleI18nError) else {"error": str(exc)}
        status = exc.status if isinstance(exc, RoomError) else 400
        try:
            await socket.send_json({"type": "error", **body})
            await socket.close(4000 + status)
        except (WebSocketDisconnect, RuntimeError):
            pass

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def not_found(request: Request, exc: Exception) -> Response:
        if isinstance(exc, HTTPException):
            return error(str(exc.detail), exc.status_code)
        return error("not found", 404)

    async def internal(request: Request, exc: Exception) -> Response:
        return error(f"internal error ({type(exc).__name__}); the server log has no more than this line", 500)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        rooms.close_all()
        web.jobs.shutdown()

    routes = [
        Route("/", page),
        Route("/api/languages", languages),
        Route("/api/lexicons", lexicons),
        Route("/api/lexicons/{name}", lexicon),
        Route("/api/lexicons/{name}/build", lexicon_build, methods=["POST"]),
        Route("/api/solve", sync(web.solve)),
        Route("/api/roll", sync(web.roll)),
        Route("/api/daily", sync(web.daily)),
        Route("/api/lookup", sync(web.lookup)),
        Route("/api/records", records),
        Route("/api/word/remove", word_remove, methods=["POST"]),
        Route("/api/compare", start, methods=["POST"]),
        Route("/api/optimize", start, methods=["POST"]),
        Route("/api/jobs/{job}", job_state),
        Route("/api/jobs/{job}/events", job_events),
        Route("/api/jobs/{job}/stop", job_stop, methods=["POST"]),
        Route("/api/rooms", room_create, methods=["POST"]),
        Route("/api/rooms/{code}/join", room_join, methods=["POST"]),
        Route("/api/rooms/{code}/start", room_start, methods=["POST"]),
        WebSocketRoute("/api/rooms/{code}/socket", room_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: not_found, 404: not_found, Exception: internal},
        lifespan=lifespan,
    )
    app.state.web = web
    app.state.rooms = rooms
    app.add_middleware(QueryLimit)
    app.add_middleware(SiteGuard, site=site or Site())  # added last: the outermost layer, before anything else
    return app


ROUTES = (
    "GET /api/languages",
    "GET /api/lexicons",
    "GET /api/lexicons/{name}",
    "POST /api/lexicons/{name}/build",
    "GET /api/solve",
    "GET /api/roll",
    "GET /api/daily",
    "GET /api/lookup",
    "GET /api/records",
    "POST /api/word/remove",
    "POST /api/compare",
    "POST /api/optimize",
    "GET /api/jobs/{job}",
    "GET /api/jobs/{job}/events",
    "POST /api/jobs/{job}/stop",
    "POST /api/rooms",
    "POST /api/rooms/{code}/join",
    "POST /api/rooms/{code}/start",
)
WEBSOCKETS = ("/api/rooms/{code}/socket",)
