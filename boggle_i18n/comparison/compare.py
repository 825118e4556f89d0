"""Comparing languages: score many random boards per language with the fast engine.

    results = compare(["en", "nl", "bg"], size=(4, 4), n_boards=5000, seed=1)

Each language's boards come from its sourced dice set of that size, else from a
letter distribution derived from its built lexicon (`api.letter_distribution`:
the faces of its dice set of another size, else its alphabet (its clusters if the
record `attach`es letters: Korean), each weighted by how often it occurs in the lexicon's
words). Which one is always stated (`BoardSource.label`). Boards are drawn as face codes straight into an
`int32[n, cells]` array with numpy, so tens of thousands cost milliseconds.

Every language gets its own seed, `language_seed(seed, code)`, so adding a
language to the list does not change another language's boards.

A comparison is on one basis unless asked otherwise: every language in the table
gets boards made the same way and the same rules (`shared_rules`). `letters`
draws every language's boards from its letter distribution (available for all);
`dice` rolls each language's sourced dice set, and a language without one of
that size is reported apart (`without_dice`), never mixed in. Without `roll`,
`default_roll` picks `dice` when every language named has a dice set of the size,
else `letters`. Only `roll="own"` mixes bases: each language keeps its own dice
set or distribution and its own rules, and the table says so.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..api import letter_distribution, load_lexicon
from ..board.board import Board
from ..board.dice import DiceSet, get_dice
from ..errors import BoggleI18nError
from ..language.records import get_language
from ..language.selection import Selection, select
from ..limits import check
from ..solver.scorer import lexicon_letters

if TYPE_CHECKING:
    import numpy as np

    from ..lexicon.store import Lexicon
    from ..solver.codec import FaceCodec

Size = tuple[int, int]
LONGEST_FROM_TOP = 5  # the longest words are looked for on this many best boards
UNDER = 10  # "share of boards under 10 points"
ROLLS = ("letters", "dice", "own")
MIXED = "own"  # the one roll that mixes bases
TIERS = ("full", "common")
SHORT_SAMPLE = 200  # boards solved word by word for the share of points from 3-4 letter words


def shared_rules(size: Size) -> tuple[int, str]:
    """The one rule set of a comparison on one basis, by board size, the same for every language.

    Up to 4x4: 3+ letters, classic-4x4 (the classic game); 5x5: 4+ letters, big-5x5; 6x6 and
    over: 4+ letters, superbig-6x6 (the Big and Super Big Boggle rules).
    """
    cells = size[0] * size[1]
    if cells <= 16:
        return 3, "classic-4x4"
    if cells <= 25:
        return 4, "big-5x5"
    return 4, "superbig-6x6"


def language_seed(seed: int, code: str) -> int:
    """The seed of one language's boards: from the run's seed and the language code (SHA-256, 63 bits)."""
    digest = hashlib.sha256(f"boggle-i18n compare {seed} {code}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class BoardSource:
    """How one language's boards are made: `kind` is "dice" or "distribution"."""

    kind: str
    dice: DiceSet | None  # the set rolled ("dice") or lending its faces ("distribution"), if any
    faces: tuple[str, ...] = ()  # "distribution": the faces drawn from ...
    weights: tuple[float, ...] = ()  # ... and their probabilities
    lexicon: str | None = None  # "distribution": the lexicon whose letter frequencies weight the faces
    chosen: bool = False  # "distribution" asked for (roll="letters"), not for want of a dice set
    clusters: bool = False  # "distribution": the lexicon's clusters (the record `attach`es letters), not its alphabet

    @property
    def label(self) -> str:
        """Short, for tables: `dice en-new-4x4` or `distribution (nl-4x4 faces)`."""
        if self.kind == "dice":
            return f"dice {self.dice.id}" if self.dice else "dice"
        if self.dice:
            return f"distribution ({self.dice.id} faces)"
        return "distribution (clusters)" if self.clusters else "distribution (alphabet)"

    def describe(self) -> str:
        """One sentence for stderr and docs."""
        if self.kind == "dice" and self.dice is not None:
            return f"rolled dice set {self.dice.id}"
        what = f"the faces of dice set {self.dice.id}" if self.dice else "the lexicon's alphabet"
        if self.clusters and not self.dice:
            what = "the lexicon's clusters (a letter with the letters its record attaches)"
        why = "--roll letters" if self.chosen else "no sourced dice set of this size"
        return (
            f"letter distribution: each cell drawn from {what}, weighted by letter frequencies in lexicon "
            f"{self.lexicon} ({why})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form: enough to draw the same boards again with `language_seed`."""
        out: dict[str, Any] = {"kind": self.kind, "dice": self.dice.id if self.dice else None, "label": self.label}
        if self.kind == "distribution":
            out.update(lexicon=self.lexicon, faces=dict(zip(self.faces, self.weights, strict=True)))
        return out


def board_source(selection: Selection, lexicon: Lexicon, roll: str | None = None) -> BoardSource:
    """The language's dice set of the selection's size, else the lexicon's letter distribution.

    `roll="letters"` always takes the distribution (the faces of the language's dice, else
    its alphabet, weighted by the lexicon); `roll="dice"` needs a dice set (`has_dice` first).
    """
    if (roll or selection.rolls) == "dice" and selection.dice is not None:
        return BoardSource("dice", selection.dice)
    if roll == "dice":
        raise BoggleI18nError(f"{selection.language.code} has no dice set of this size: report it apart")
    language = selection.language
    lender = get_dice(language.dice[0]) if language.dice else None
    faces, counts = letter_distribution(lender, lexicon)
    total = float(sum(counts))
    weights = tuple(c / total for c in counts)
    clusters = lender is None and bool(language.attach)
    return BoardSource(
        "distribution", lender, tuple(faces), weights, lexicon.name, chosen=roll == "letters", clusters=clusters
    )


def roll_codes(source: BoardSource, codec: FaceCodec, shape: Size, n: int, seed: int) -> np.ndarray:
    """`n` boards of `shape` as `int32[n, cells]` face codes of `codec`, drawn with numpy from `seed`.

    Dice: each board is a random permutation of the dice, each die showing one of
    its faces uniformly. Distribution: every cell drawn independently by weight.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    cells = shape[0] * shape[1]
    if source.kind == "dice":
        assert source.dice is not None
        dice = source.dice.dice
        widest = max(len(die) for die in dice)
        table = np.zeros((len(dice), widest), dtype=np.int32)
        sides = np.array([len(die) for die in dice], dtype=np.int64)
        for i, die in enumerate(dice):
            table[i, : len(die)] = [codec.index(face.lower()) for face in die]
        order = np.argsort(rng.random((n, len(dice))), axis=1)  # a uniform permutation per board
        side = (rng.random((n, len(dice))) * sides[order]).astype(np.int64)
        return np.ascontiguousarray(table[order, side], dtype=np.int32)
    codes = np.array([codec.index(face) for face in source.faces], dtype=np.int32)
    picks = rng.choice(len(codes), size=(n, cells), p=np.asarray(source.weights, dtype=np.float64))
    return np.ascontiguousarray(codes[picks], dtype=np.int32)


@dataclass
class Optimized:
    """The optimizer's best board for one language (`--optimize-time`)."""

    board: str
    score: int
    n_words: int
    seconds: float
    boards_evaluated: int
    stopped: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return dict(self.__dict__)


@dataclass
class LanguageResult:
    """One language's figures, and every board behind them."""

    lang: str
    name: str
    status: str
    lexicon: str
    lexicon_words: int
    rows: int
    cols: int
    source: BoardSource
    seed: int
    rules: dict[str, Any]
    boards: list[str]
    scores: list[int]
    n_words: list[int]
    longest: list[str]
    seconds: float
    optimized: Optimized | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    alphabet_size: int = 0
    short_share: float | None = None  # share of points from words of 3-4 letters (first SHORT_SAMPLE boards)

    def to_dict(self, with_boards: bool = True) -> dict[str, Any]:
        """JSON form: the figures, and (by default) every board with its score and word count."""
        out: dict[str, Any] = {
            "lang": self.lang,
            "name": self.name,
            "status": self.status,
            "lexicon": self.lexicon,
            "word_count": self.lexicon_words,
            "rows": self.rows,
            "cols": self.cols,
            "boards_from": self.source.to_dict(),
            "seed": self.seed,
            "rules": self.rules,
            **self.stats,
            "alphabet_size": self.alphabet_size,
            "short_word_points": None if self.short_share is None else round(self.short_share, 4),
            "longest_words": self.longest,
            "seconds": round(self.seconds, 3),
            "optimized": self.optimized.to_dict() if self.optimized else None,
        }
        if with_boards:
            out["boards"] = [
                {"board": b, "score": s, "n_words": w}
                for b, s, w in zip(self.boards, self.scores, self.n_words, strict=True)
            ]
        return out


def summarise(boards: Sequence[str], scores: Sequence[int], n_words: Sequence[int]) -> dict[str, Any]:
    """Mean, median, p90 (numpy's linear interpolation), max and its board, words per board, share under 10."""
    import numpy as np

    s = np.asarray(scores, dtype=np.int64)
    best = int(np.argmax(s))  # the first board with the top score
    return {
        "n_boards": int(s.size),
        "mean": round(float(s.mean()), 2),
        "median": float(np.median(s)),
        "p90": round(float(np.percentile(s, 90)), 2),
        "max": int(s[best]),
        "max_board": boards[best],
        "mean_words": round(float(np.mean(np.asarray(n_words, dtype=np.int64))), 2),
        "share_under_10": round(float(np.mean(s < UNDER)), 4),
    }


def check_request(
    langs: Sequence[str],
    size: Size,
    n_boards: int,
    optimize_time: float | None = None,
    roll: str | None = None,
    tier: str = "full",
    seed: int = 0,
) -> None:
    """Everything the caller typed, checked before any lexicon is loaded or built."""
    if roll is not None and roll not in ROLLS:
        raise BoggleI18nError(f"--roll must be one of {', '.join(ROLLS)}, not {roll!r}")
    if tier not in TIERS:
        raise BoggleI18nError(f"--tier must be one of {', '.join(TIERS)}, not {tier!r}")
    if not langs:
        raise BoggleI18nError("name at least one language to compare", code="compare.no_langs")
    check("boards", n_boards)
    check("seed", seed)
    check("rows", size[0], "--size rows")
    check("cols", size[1], "--size columns")
    if optimize_time is not None:
        check("seconds", optimize_time, "--optimize-time")
        _optimizer()
    for lang in langs:
        select(lang=lang, size=size).require_lexicon()


def tier_lexicon(lang: str, tier: str = "full") -> str | None:
    """The lexicon of `lang`'s tier: its default, or the generated `NAME-common` (None if it has none)."""
    language = select(lang=lang).language
    if tier == "full" or language.lexicon is None:
        return language.lexicon
    from ..pipeline.recipe import recipe_names

    name = f"{language.lexicon}-common"
    return name if language.wordfreq and name in recipe_names() else None


def default_roll(langs: Sequence[str], size: Size, roll: str | None = None) -> str:
    """The basis of a comparison: `roll` if given, else dice when every language has a set of `size`, else letters.

    Boards rolled from dice and drawn from letters differ by 25-62% for the same language,
    so a table never mixes the two unless `roll="own"` asks for it.
    """
    if roll is not None:
        return roll
    return "dice" if langs and all(has_dice(lang, size) for lang in langs) else "letters"


def has_dice(lang: str, size: Size) -> bool:
    """Whether `lang` has a sourced dice set of `size` (what `roll="dice"` needs)."""
    return select(lang=lang, size=size).dice is not None


def compare_language(
    lang: str,
    *,
    size: Size = (4, 4),
    n_boards: int = 1000,
    seed: int = 0,
    store: str | os.PathLike[str] | None = None,
    engine: str = "fast",
    optimize_time: float | None = None,
    loader: Callable[[str], Lexicon] | None = None,
    progress: Callable[[str], None] | None = None,
    roll: str | None = None,
    tier: str = "full",
    events: Callable[[dict[str, Any]], None] | None = None,
) -> LanguageResult:
    """Roll `n_boards` boards of `size` for `lang`, score them and summarise (see the module docstring).

    `loader` loads (or builds) a lexicon by name; by default `load_lexicon(name, store)`.
    The boards come from `default_roll([lang], size, roll)` and the rules are `shared_rules(size)`,
    except with `roll="own"`: the language's own dice set (else letters) and rules.
    Progress goes to `progress` as English lines (the CLI's stderr) and to `events` as the same facts in
    numbers and names (`progress_line` words them for the CLI; the web page in its interface language).
    """
    from ..solver.scorer import prepare_scorer

    started = time.perf_counter()
    roll = default_roll([lang], size, roll)
    min_length, scoring = shared_rules(size) if roll != MIXED else (None, None)
    tiered = tier_lexicon(lang, tier) if tier != "full" else None
    if tier != "full" and tiered is None:
        raise BoggleI18nError(f"{lang} has no {tier} tier (no frequency source covers it)")
    selection = select(lang=lang, lexicon=tiered, size=size, store=store, min_length=min_length, scoring=scoring)
    name = selection.require_lexicon()
    lexicon = loader(name) if loader is not None else load_lexicon(name, store)
    source = board_source(selection, lexicon, None if roll == MIXED else roll)
    code = selection.language.code
    own_seed = language_seed(seed, code)
    _tell(
        progress,
        events,
        {
            "step": "rolling",
            "lang": code,
            "boards": n_boards,
            "size": f"{size[0]}x{size[1]}",
            "source": {
                "kind": source.kind,
                "dice": source.dice.id if source.dice else None,
                "lexicon": source.lexicon,
                "chosen": source.chosen,
            },
            "seed": own_seed,
        },
        source,
    )
    scorer = prepare_scorer(lexicon, selection.rules, size, engine=engine)
    codes = roll_codes(source, scorer.codec, size, n_boards, own_seed)
    scores, words = scorer.score_codes(codes)
    rows, cols = size
    notations = [scorer.codec.decode(row, rows, cols).notation() for row in codes]
    stats = summarise(notations, scores.tolist(), words.tolist())
    longest = _longest_words(scorer, codes, scores, rows, cols)
    short_share = _short_word_share(scorer, codes, rows, cols)
    optimized = None
    if optimize_time is not None:
        optimized = _optimize(lexicon, selection, source, size, own_seed, optimize_time, engine)
        _tell(
            progress,
            events,
            {
                "step": "optimized",
                "lang": code,
                "seconds": optimize_time,
                "board": optimized.board,
                "score": optimized.score,
            },
            source,
        )
    return LanguageResult(
        lang=code,
        name=selection.language.name,
        status=selection.language.status,
        lexicon=lexicon.name,
        lexicon_words=len(lexicon),
        rows=rows,
        cols=cols,
        source=source,
        seed=own_seed,
        rules=selection.rules.to_dict(),
        boards=notations,
        scores=[int(x) for x in scores],
        n_words=[int(x) for x in words],
        longest=longest,
        seconds=time.perf_counter() - started,
        optimized=optimized,
        stats=stats,
        alphabet_size=len(lexicon_letters(lexicon)),  # Welsh: ll is one of its 28 letters
        short_share=short_share,
    )


def progress_line(event: dict[str, Any], source: BoardSource) -> str:
    """A progress event as the CLI's English line on stderr (`source`: the board source the event names)."""
    lang = event["lang"]
    if event["step"] == "rolling":
        how = source.describe()
        return f"{lang}: {event['boards']:,} {event['size']} boards, {how}, seed {event['seed']}"
    if event["step"] == "optimized":
        return f"{lang}: optimizer's best in {event['seconds']:g} s: {event['board']} = {event['score']}"
    raise ValueError(f"unknown progress step {event['step']!r}")


def _tell(
    progress: Callable[[str], None] | None,
    events: Callable[[dict[str, Any]], None] | None,
    event: dict[str, Any],
    source: BoardSource,
) -> None:
    if events:
        events(event)
    if progress:
        progress(progress_line(event, source))


def compare(
    langs: Sequence[str],
    *,
    size: Size = (4, 4),
    n_boards: int = 1000,
    seed: int = 0,
    store: str | os.PathLike[str] | None = None,
    engine: str = "fast",
    optimize_time: float | None = None,
    loader: Callable[[str], Lexicon] | None = None,
    progress: Callable[[str], None] | None = None,
    roll: str | None = None,
    tier: str = "full",
) -> list[LanguageResult]:
    """`compare_language` for each language, in the order given (all checked first).

    The basis is `default_roll(langs, size, roll)`, one for every language. With `roll="dice"`,
    languages without a dice set of `size` are left out (`without_dice` names them); with
    `tier="common"`, languages without a common tier (`without_tier`).
    """
    check_request(langs, size, n_boards, optimize_time, roll, tier, seed)
    roll = default_roll(langs, size, roll)
    if roll == "dice":
        langs = [lang for lang in langs if has_dice(lang, size)]
    if tier != "full":
        langs = [lang for lang in langs if tier_lexicon(lang, tier) is not None]
    return [
        compare_language(
            lang,
            size=size,
            n_boards=n_boards,
            seed=seed,
            store=store,
            engine=engine,
            optimize_time=optimize_time,
            loader=loader,
            progress=progress,
            roll=roll,
            tier=tier,
        )
        for lang in langs
    ]


def without_tier(langs: Sequence[str], tier: str) -> list[str]:
    """The languages `tier` reports apart: no frequency source, so no common tier."""
    return [select(lang=lang).language.code for lang in langs if tier_lexicon(lang, tier) is None]


def without_dice(langs: Sequence[str], size: Size) -> list[str]:
    """The languages `roll="dice"` reports apart: no sourced dice set of `size`."""
    return [select(lang=lang, size=size).language.code for lang in langs if not has_dice(lang, size)]


def basis(roll: str | None, size: Size, tier: str = "full") -> dict[str, Any]:
    """What a comparison rests on, for the table's summary and the JSON (`roll` as resolved by `default_roll`)."""
    if roll is None or roll == MIXED:
        return {
            "roll": MIXED,
            "tier": tier,
            "rules": None,
            "note": "mixed basis: each language's own dice set (else letters) and rules",
        }
    min_length, scoring = shared_rules(size)
    what = (
        "every language's letter distribution (the faces of its dice, else its alphabet, weighted by its lexicon)"
        if roll == "letters"
        else "every language's sourced dice set"
    )
    return {"roll": roll, "tier": tier, "rules": {"min_length": min_length, "scoring": scoring}, "note": what}


def _short_word_share(scorer: Any, codes: np.ndarray, rows: int, cols: int) -> float | None:
    """Share of points from words of 3-4 letters, over the first SHORT_SAMPLE boards (solved word by word)."""
    total = short = 0
    for row in codes[:SHORT_SAMPLE]:
        for word in scorer.solve(scorer.codec.decode(row, rows, cols)).words:
            total += word.points
            if word.length <= 4:
                short += word.points
    return short / total if total else None


def _longest_words(scorer: Any, codes: np.ndarray, scores: np.ndarray, rows: int, cols: int) -> list[str]:
    """The three longest distinct words on the best few boards (solved one by one)."""
    import numpy as np

    top = np.argsort(-scores, kind="stable")[:LONGEST_FROM_TOP]
    words: dict[str, int] = {}  # word -> length in letters (Welsh `ll`, Croatian `lj` count one)
    for i in top:
        result = scorer.solve(scorer.codec.decode(codes[i], rows, cols))
        words.update((w.word, w.length) for w in result.words)
    return sorted(words, key=lambda w: (-words[w], w))[:3]


def _optimizer() -> Callable[..., Any]:
    """`boggle_i18n.optimize.optimizer.optimize`, imported only when asked for (it is a separate part)."""
    try:
        module = importlib.import_module("boggle_i18n.optimize.optimizer")
    except ImportError:
        raise BoggleI18nError("--optimize-time needs the optimizer (boggle_i18n.optimize), not in this build") from None
    optimize: Callable[..., Any] = module.optimize
    return optimize


def _optimize(
    lexicon: Lexicon, selection: Selection, source: BoardSource, size: Size, seed: int, seconds: float, engine: str
) -> Optimized:
    """Run the optimizer for `seconds` on the same dice or faces the random boards came from."""
    optimize = _optimizer()
    if source.kind == "dice":
        assert source.dice is not None
        result = optimize(
            lexicon, selection.rules, size, dice=source.dice.id, seed=seed, time_limit=seconds, top=1, engine=engine
        )
    else:
        result = optimize(
            lexicon,
            selection.rules,
            size,
            faces=list(source.faces),
            weights=list(source.weights),
            seed=seed,
            time_limit=seconds,
            top=1,
            engine=engine,
        )
    if result.stopped == "interrupted":  # the optimizer caught Ctrl-C to report; a comparison stops whole
        raise KeyboardInterrupt
    if not result.best:
        raise BoggleI18nError(f"the optimizer found no board for {selection.language.code} in {seconds:g} s")
    best = result.best[0]
    return Optimized(
        board=Board(size[0], size[1], tuple(best.faces)).notation(),
        score=int(best.score),
        n_words=int(best.n_words),
        seconds=round(float(result.seconds), 3),
        boards_evaluated=int(result.boards_evaluated),
        stopped=str(result.stopped),
    )


HEADERS = (
    "lang",
    "boards from",
    "rules",
    "lexicon words",
    "mean",
    "median",
    "p90",
    "max",
    "max board",
    "words/board",
    "< 10 pts",
    "3-4 letter pts",
    "alphabet",
    "longest words",
)


def table_rows(results: Sequence[LanguageResult]) -> list[list[str]]:
    """The comparison table's rows (the CLI and the docs print the same figures)."""
    rows = []
    for r in results:
        s = r.stats
        lang = r.lang + (" (beta)" if r.status == "beta" else "")
        row = [
            lang,
            r.source.label,
            f"{r.rules['min_length']}+ letters, {r.rules['scoring']['name']}",
            f"{r.lexicon_words:,}",
            f"{s['mean']:.1f}",
            f"{s['median']:g}",
            f"{s['p90']:g}",
            str(s["max"]),
            s["max_board"],
            f"{s['mean_words']:.1f}",
            f"{100 * s['share_under_10']:.1f}%",
            "" if r.short_share is None else f"{100 * r.short_share:.0f}%",
            str(r.alphabet_size),
            ", ".join(get_language(r.lang).display(w) for w in r.longest[:2]),  # as a reader writes them
        ]
        if any(x.optimized for x in results):
            row.append(f"{r.optimized.score} {r.optimized.board}" if r.optimized else "")
        rows.append(row)
    return rows


# The columns' ids, in HEADERS' order: the web page names them in its interface language.
COLUMNS = (
    "lang",
    "source",
    "rules",
    "lexicon_words",
    "mean",
    "median",
    "p90",
    "max",
    "max_board",
    "words_per_board",
    "under_10",
    "short_share",
    "alphabet",
    "longest",
)


def table_headers(results: Sequence[LanguageResult]) -> list[str]:
    """HEADERS, plus the optimizer's column when it ran."""
    return list(HEADERS) + (["optimized"] if any(r.optimized for r in results) else [])


def table_columns(results: Sequence[LanguageResult]) -> list[str]:
    """The ids of `table_headers(results)`'s columns."""
    return list(COLUMNS) + (["optimized"] if any(r.optimized for r in results) else [])
