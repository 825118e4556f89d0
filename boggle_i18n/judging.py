"""The judge of a round: each player's list against one board, with the classic duplicate rule.

    referee = Referee(board, lexicon, selection.rules, selection=selection)
    verdict = referee.judge({"Ann": ["tap", "Kaas"], "Bob": ["kaas", "xyz"]})   # or judge(board, lexicon, ...)
    verdict.players[0].total, verdict.missed[:5]

A word is matched as the player wrote it, folded by `lookup`'s one rule (the recipe the lexicon was
built with: case, accents, final forms, digraphs), so `Kaas` and `kaas` are the same word. Each word
gets one status, decided in this order:

1. `repeated`: the player wrote the same word (same folded form) earlier in the list;
2. `too-short`: fewer letters than the rules' minimum (letters as the lexicon counts them: Welsh `ll` one);
3. `not-a-word`: the lexicon does not hold it (the reason is lookup's: the stage that dropped it, or
   not in the source);
4. `not-on-board`: a word, but no path on the board spells it;
5. `shared`: a valid word another player also found: struck for everyone (the classic rule), unless
   `strike=False`, when it stays `scored` and only names the others in `shared_with`;
6. `scored`: its points, as `solve` gives them on this board.

The points are the solver's (one scoring rule), and the words nobody found are the rest of the board's
solution, best first. The CLI (`boggle-i18n judge`) and a LAN room both call this module.
"""

from __future__ import annotations

from .board.board import Board
from .errors import BoggleI18nError
from .lexicon.store import Lexicon
from .limits import clip
from .lookup import CATEGORIES, Answer, WordChecker
from .record import dataclass
from .solver.base import FoundWord, Rules, SolveResult

TYPE_CHECKING = False  # `typing` is not imported at run time: mypy reads this name as True
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

    from .language.selection import Selection

STATUSES = ("scored", "shared", "not-on-board", "not-a-word", "too-short", "repeated")
MAX_PLAYERS = 64  # players in one round
MAX_LIST_WORDS = 10_000  # words in one player's list
MAX_NAME = 40  # characters of a player's name
MAX_WRITTEN = 200  # characters of one written word (no board holds a longer one a player could write)


@dataclass(frozen=True)
class JudgedWord:
    """One written word and what it scores: `points` is 0 unless `status` is "scored"."""

    written: str  # as the player wrote it
    word: str | None  # the folded lexicon form it matched (None if it matched nothing)
    points: int
    status: str  # one of STATUSES
    reason: str  # a human sentence (for not-a-word: lookup's reason)
    shared_with: tuple[str, ...] = ()  # other players who found it too
    path: tuple[int, ...] | None = None  # cell indices (row * cols + col) of one path, when on the board
    category: str | None = None  # for not-a-word: lookup's category (a key of lookup.CATEGORIES), for translation


@dataclass(frozen=True)
class PlayerResult:
    """A player's words in the order written, and their total."""

    name: str
    words: tuple[JudgedWord, ...]
    total: int


@dataclass(frozen=True)
class Judgement:
    """A judged round: every player's result, the words nobody found (best first), and whether shared words
    were struck."""

    players: tuple[PlayerResult, ...]
    missed: tuple[FoundWord, ...]
    strike: bool
    board: Board | None = None
    lexicon: str = ""
    rules: Rules | None = None
    lang: str | None = None
    dice: str | None = None


class Referee:
    """One round's board, lexicon and rules, solved once and ready to judge many words and lists.

    A room builds one per round: `check` answers one word as it is entered (alone: no duplicate rule),
    `judge` the whole round. `solved` and `checker` may be passed when the caller already has them.
    """

    def __init__(
        self,
        board: Board,
        lexicon: Lexicon,
        rules: Rules,
        *,
        selection: Selection | None = None,
        solved: SolveResult | None = None,
        checker: WordChecker | None = None,
    ) -> None:
        self.board = board
        self.lexicon = lexicon
        self.rules = rules
        code = selection.language.code if selection is not None else lexicon.manifest.get("language")
        self.lang = code if isinstance(code, str) else None
        self.dice = selection.dice.id if selection is not None and selection.dice is not None else None
        if solved is None:
            from .api import solve

            solved = solve(board, lexicon, rules, lang=self.lang)
        self.solved = solved
        self.found = {w.word: w for w in solved.words}
        self.checker = checker if checker is not None else WordChecker(lexicon)

    def _answer(self, written: str) -> Answer:
        if len(written) > MAX_WRITTEN:
            raise BoggleI18nError(
                f"a written word is over {MAX_WRITTEN} characters: {clip(written, 40)!r}",
                code="request.invalid",
                params={"name": "word"},
            )
        return self.checker.check(written)

    def check(self, written: str) -> JudgedWord:
        """One word alone: scored (with its points and path), too short, not a word or not on the board."""
        written = written.strip()
        answer = self._answer(written)
        return self._verdict(written, answer)

    def _verdict(self, written: str, answer: Answer) -> JudgedWord:
        letters = answer.length
        if letters is None and answer.dropped is not None and answer.dropped.stage == "length":
            letters = self.checker.spelling.length(answer.dropped.entry)  # dropped as too short for the list
        form = answer.normalised if answer.found else None
        minimum = self.rules.min_length
        if letters is not None and letters < minimum:
            return JudgedWord(written, form, 0, "too-short", f"shorter than {minimum} letters")
        if not answer.found:
            why = f"{CATEGORIES[answer.category]}: {answer.reason}" if answer.dropped is not None else answer.reason
            return JudgedWord(written, None, 0, "not-a-word", f"not a word ({why})", category=answer.category)
        on_board = self.found.get(answer.normalised or "")
        if on_board is None:
            return JudgedWord(written, form, 0, "not-on-board", "not on the board")
        path = tuple(r * self.board.cols + c for r, c in on_board.path)
        return JudgedWord(written, form, on_board.points, "scored", _points(on_board.points), path=path)

    def judge(self, lists: Mapping[str, Sequence[str]], *, strike: bool = True) -> Judgement:
        """Every player's list judged, shared words struck (or kept with `strike=False`), the missed words."""
        check_lists(lists)
        alone: dict[str, list[JudgedWord]] = {}
        for name, words in lists.items():
            seen: set[str] = set()
            judged = []
            for raw in words:
                written = raw.strip()
                if not written:
                    continue  # a blank line in a list is no word
                answer = self._answer(written)
                key = answer.normalised if answer.normalised is not None else written
                if key in seen:
                    judged.append(
                        JudgedWord(
                            written,
                            answer.normalised if answer.found else None,
                            0,
                            "repeated",
                            "written twice: counts once",
                        )
                    )
                    continue
                seen.add(key)
                judged.append(self._verdict(written, answer))
            alone[name] = judged
        finders: dict[str, list[str]] = {}
        for name, judged in alone.items():
            for w in judged:
                if w.status == "scored" and w.word is not None:
                    finders.setdefault(w.word, []).append(name)
        players = []
        for name, judged in alone.items():
            final = [_shared(w, name, finders, strike) for w in judged]
            players.append(PlayerResult(name, tuple(final), sum(w.points for w in final)))
        missed = tuple(w for w in self.solved.by_points() if w.word not in finders)
        return Judgement(
            tuple(players),
            missed,
            strike,
            self.board,
            str(self.lexicon.manifest.get("name", "")),
            self.rules,
            self.lang,
            self.dice,
        )


def _points(points: int) -> str:
    return f"{points} point{'' if points == 1 else 's'}"


def _shared(w: JudgedWord, name: str, finders: Mapping[str, list[str]], strike: bool) -> JudgedWord:
    """`w` under the duplicate rule: a scoring word another player also found is struck (or kept, named)."""
    if w.status != "scored" or w.word is None:
        return w
    others = tuple(n for n in finders[w.word] if n != name)
    if not others:
        return w
    if not strike:
        return JudgedWord(
            w.written,
            w.word,
            w.points,
            "scored",
            shared_reason(w.points, others, strike),
            others,
            w.path,
        )
    return JudgedWord(w.written, w.word, 0, "shared", shared_reason(w.points, others, strike), others, w.path)


def shared_reason(points: int, others: Sequence[str], strike: bool, name: Callable[[str], str] = str) -> str:
    """The reason of a shared word: struck, or kept with `strike=False`. `name` prints a player's name (a text
    front end isolates a right-to-left name in it)."""
    found = ", ".join(name(n) for n in others)
    return f"also found by {found}: struck" if strike else f"{_points(points)} (also found by {found})"


def check_lists(lists: Mapping[str, Sequence[str]]) -> None:
    """Bounded input: 1..MAX_PLAYERS players with printable, distinct names, lists of at most MAX_LIST_WORDS."""
    if not 1 <= len(lists) <= MAX_PLAYERS:
        raise BoggleI18nError(
            f"a round has 1 to {MAX_PLAYERS} players, not {len(lists)}",
            code="limit.range",
            params={"option": "players", "low": 1, "high": MAX_PLAYERS, "value": str(len(lists))},
        )
    for name, words in lists.items():
        if not (0 < len(name) <= MAX_NAME and name.isprintable() and name == name.strip()):
            raise BoggleI18nError(
                f"a player's name is 1 to {MAX_NAME} printable characters, not {clip(repr(name), 60)}",
                code="request.invalid",
                params={"name": "player"},
            )
        if isinstance(words, str):  # a list of words, not one string's characters
            raise BoggleI18nError(f"player {name}'s words are a list, not one string")
        if len(words) > MAX_LIST_WORDS:
            raise BoggleI18nError(
                f"player {name} has {len(words):,} words: at most {MAX_LIST_WORDS:,} a list",
                code="limit.range",
                params={"option": "words", "low": 0, "high": MAX_LIST_WORDS, "value": str(len(words))},
            )


def judge(
    board: Board,
    lexicon: Lexicon,
    rules: Rules,
    lists: Mapping[str, Sequence[str]],
    *,
    strike: bool = True,
    selection: Selection | None = None,
) -> Judgement:
    """Judge a round: `lists` maps each player's name to their words as written (in order)."""
    check_lists(lists)  # before the solve: a bad list costs nothing
    return Referee(board, lexicon, rules, selection=selection).judge(lists, strike=strike)


def judgement_dict(j: Judgement, paths: bool = False) -> dict[str, Any]:
    """The JSON document of a judged round (`judge --json`, docs/json/judge.schema.json).

    Paths are `[row, col]` pairs as in `solve --json`, included with `paths=True`.
    """
    board = j.board
    display = _display(j.lang)
    cols = board.cols if board is not None else 1

    def cells(path: tuple[int, ...] | None) -> list[list[int]] | None:
        return None if path is None else [list(divmod(i, cols)) for i in path]

    def shown(word: str | None) -> str | None:  # how the language writes it (Hebrew final letters)
        return None if word is None else display(word)

    def one(w: JudgedWord) -> dict[str, Any]:
        out: dict[str, Any] = {
            "written": w.written,
            "word": w.word,
            "shown": shown(w.word),
            "points": w.points,
            "status": w.status,
            "reason": w.reason,
            "category": w.category,  # not-a-word: lookup's category, for a translated reason; else null
            "shared_with": list(w.shared_with),
        }
        if paths:
            out["path"] = cells(w.path)
        return out

    def missed(w: FoundWord) -> dict[str, Any]:
        out: dict[str, Any] = {"word": w.word, "shown": shown(w.word), "points": w.points, "length": w.length}
        if paths:
            out["path"] = [[r, c] for r, c in w.path]
        return out

    return {
        "board": board.notation() if board is not None else None,
        "rows": board.rows if board is not None else None,
        "cols": board.cols if board is not None else None,
        "lang": j.lang,
        "dice": j.dice,
        "lexicon": j.lexicon,
        "rules": j.rules.to_dict() if j.rules is not None else None,
        "strike": j.strike,
        "players": [{"name": p.name, "total": p.total, "words": [one(w) for w in p.words]} for p in j.players],
        "missed": [missed(w) for w in j.missed],
    }


def _display(lang: str | None) -> Any:
    """How the language writes a stored word (final forms, Korean syllables); unchanged without a language."""
    if lang is None:
        return str
    from .language.records import get_language

    try:
        return get_language(lang).display
    except BoggleI18nError:
        return str
