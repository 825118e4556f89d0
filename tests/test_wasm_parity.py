"""The browser's solver against the library: one set of rules, board for board.

The page's solver (static/solver.js over the WebAssembly build of solver/_walk.h, run here by Node through
tools/wasm_solve.js, the same files the browser loads) must find exactly the words, points, first paths and
totals that the library's fast engine (what `boggle-i18n solve` runs) finds: 1,100 rolled boards in 11
languages covering every script the project has (Latin, Cyrillic, Greek, Armenian, Hebrew, Arabic, Thai,
Lao), multi-letter faces (English Qu, Th ... and blanks on its 6x6 dice, Welsh digraphs, Armenian ու),
3x3 to 6x6 boards, with and without diagonals. The lexicons are built from the real Debian lists and
dictionaries (a sample of each: this checks the walk and the rules data, not the lists), and a few boards
go through the CLI too.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import missing, require_file, require_tool, shared_file

from boggle_i18n.api import load_lexicon, roll
from boggle_i18n.board.board import Board
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.language.selection import select
from boggle_i18n.lexicon.build import build_lexicon
from boggle_i18n.solver.compiled import cache_path, compile_lexicon
from boggle_i18n.solver.scorer import prepare_scorer
from boggle_i18n.web.export import browser_rules, lexicon_rules
from boggle_i18n.web.wasmbuild import solver_wasm

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = 40_000  # words a language: enough for boards full of words, quick to build
BOARDS = 100  # a language
# language -> where its words come from: ("list", path), ("hunspell", .dic) or ("aspell", dictionary)
SOURCES = {
    "en": ("list", "shared:en-enable2k.txt"),
    "nl": ("list", "/usr/share/dict/dutch"),
    "de": ("list", "shared:de-ngerman.txt"),
    "cy": ("aspell", "cy"),
    "ru": ("aspell", "ru"),
    "el": ("hunspell", "/usr/share/hunspell/el_GR.dic"),
    "hy": ("aspell", "hy"),
    "he": ("hunspell", "/usr/share/hunspell/he_IL.dic"),
    "ar": ("aspell", "ar"),
    "th": ("hunspell", "/usr/share/hunspell/th_TH.dic"),
    "lo": ("hunspell", "/usr/share/hunspell/lo_LA.dic"),
}


def sample_words(kind: str, where: str) -> list[str]:
    """Up to SAMPLE words of a real list, spread over the whole file (every initial letter)."""
    if kind == "list":
        path = shared_file("lexicons", where.removeprefix("shared:")) if where.startswith("shared:") else Path(where)
        words = require_file(path, "a Debian word list").read_text("utf-8", errors="replace").split()
    elif kind == "hunspell":
        dic = require_file(Path(where), "a Debian hunspell dictionary")
        aff = dic.with_suffix(".aff").read_text("latin-1")
        encoding = next((ln.split()[1] for ln in aff.splitlines() if ln.startswith("SET ")), "utf-8")
        lines = dic.read_bytes().decode(encoding.replace("ISO8859", "iso8859"), errors="replace").splitlines()[1:]
        words = [ln.split("/")[0].split("\t")[0].strip() for ln in lines]
    else:
        aspell = require_tool("aspell", "aspell")
        done = subprocess.run([aspell, "-d", where, "dump", "master"], capture_output=True, check=False)
        if done.returncode != 0:
            missing(f"aspell has no {where} dictionary (apt-get install aspell-{where})")
        words = done.stdout.decode("utf-8", errors="replace").split()
    step = max(1, len(words) // SAMPLE)
    return [w for w in words[::step] if w]


@pytest.fixture(scope="session")
def parity_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small lexicon a language, built by the project's pipeline from the real source (its recipe's stages)."""
    store = tmp_path_factory.mktemp("parity-store")
    work = tmp_path_factory.mktemp("parity-sources")
    for code, (kind, where) in SOURCES.items():
        source = work / f"{code}.txt"
        source.write_text("\n".join(sample_words(kind, where)) + "\n", "utf-8")
        recipe = work / f"p-{code}.toml"
        recipe.write_text(
            f'extends = "wordlist"\nname = "p-{code}"\nlanguage = "{code}"\n'
            'description = "a sample for the parity test"\nlicence = "GPL-2.0-or-later"\n\n[source]\nname = "sample"\n',
            "utf-8",
        )
        build_lexicon(str(recipe), source=source, store=store, download=False)
    return store


def node() -> str:
    """Node, which runs the page's JavaScript here (Debian's nodejs; .ci/run installs it with npm)."""
    found = shutil.which("node")
    if found is None:
        missing("node not installed (apt-get install nodejs)")
    return found


def boards_for(code: str, name: str, store: Path) -> list[tuple[Board, bool]]:
    """BOARDS rolled boards: the language's dice where it has them, else letters by the lexicon's frequencies;
    mostly 4x4, some 3x3, 5x5 and 6x6, one in five without diagonals."""
    lexicon = load_lexicon(name, store)
    language = select(lexicon=name, store=store).language
    rng = random.Random(f"parity {code}")
    out = []
    for i in range(BOARDS):
        size = rng.choice([(4, 4)] * 6 + [(3, 3), (5, 5), (6, 6), (4, 5)])
        seed = rng.randrange(2**31)
        try:
            board = roll(lang=code, size=size, seed=seed).board if language.dice else None
        except Exception:
            board = None
        if board is None:
            board = roll(lang=code, size=size, seed=seed, letters="lexicon", lexicon=lexicon).board
        out.append((board, i % 5 != 4))
    return out


@pytest.fixture(scope="session")
def parity(parity_store: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict]:
    """Every board solved by the library (fast engine) and by the browser's solver under Node."""
    work = tmp_path_factory.mktemp("parity")
    cases, lexicons = [], {}
    for code in SOURCES:
        name = f"p-{code}"
        lexicon = load_lexicon(name, parity_store)
        compiled = compile_lexicon(lexicon)
        bgc = cache_path(lexicon)
        assert bgc is not None and bgc.is_file()
        lexicons[name] = str(bgc)
        for board, diagonals in boards_for(code, name, parity_store):
            chosen = select(lexicon=name, store=parity_store, diagonals=diagonals).for_size(board.size)
            solved = prepare_scorer(lexicon, chosen.rules, board.size, "fast").solve(board)
            cases.append(
                {
                    "lang": code,
                    "lexicon": name,
                    "board": board,
                    "expected": solved,
                    "job": {
                        "lexicon": name,
                        "rows": board.rows,
                        "cols": board.cols,
                        "faces": list(board.faces),
                        "rules": browser_rules(chosen.rules, compiled.max_length),
                    },
                }
            )
    job = work / "job.json"
    job.write_text(json.dumps({"wasm": str(solver_wasm()), "lexicons": lexicons, "boards": [c["job"] for c in cases]}))
    done = subprocess.run(
        [node(), str(ROOT / "tools" / "wasm_solve.js"), str(job)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    for case, got in zip(cases, json.loads(done.stdout)["results"], strict=True):
        case["got"] = got
    return cases


def test_browser_solver_finds_what_the_library_finds(parity: list[dict]) -> None:
    """Identical word sets, points, first paths and totals on every board, in every language."""
    assert len(parity) >= 1000 and len({c["lang"] for c in parity}) >= 10
    words = 0
    for case in parity:
        expected = case["expected"]
        want = {w.word: (w.points, [list(cell) for cell in w.path]) for w in expected.words}
        got = {w: (p, path) for w, p, path in case["got"]["words"]}
        assert got == want, (case["lang"], case["board"].notation())
        assert case["got"]["score"] == expected.score
        words += len(want)
    assert words > 20 * len(parity)  # boards with words on them, not empty agreement


def test_parity_covers_every_script_and_multi_letter_faces(parity: list[dict]) -> None:
    """The boards hold each script's letters and multi-letter faces (Qu, Th, Welsh ll/ch ..., Armenian ու)."""
    faces = {c["lang"]: {f for c2 in parity if c2["lang"] == c["lang"] for f in c2["board"].faces} for c in parity}
    assert {"qu", "th", ""} <= faces["en"] and "ու" in faces["hy"]  # en 6x6 dice: digraphs and a blank
    assert faces["cy"] & {"ll", "ch", "dd", "ff", "th"}
    for code, letter in {"ru": "о", "el": "α", "he": "ו", "ar": "ا", "th": "า", "lo": "າ"}.items():
        assert letter in faces[code], code
    found = {w for c in parity if c["lang"] == "cy" for w, *_ in c["got"]["words"]}
    assert any("ll" in w or "ch" in w for w in found)  # a word through a digraph face, found in the browser


def test_cli_agrees_on_a_board_a_language(parity: list[dict], parity_store: Path) -> None:
    """`boggle-i18n solve --json` gives the browser's total on one board per language."""
    seen = set()
    for case in parity:
        if case["lang"] in seen or not case["got"]["words"] or case["board"].size != (4, 4):
            continue
        seen.add(case["lang"])
        args = ["solve", case["board"].notation(), "--lexicon", case["lexicon"], "--store", str(parity_store), "--json"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["score"] == case["got"]["score"]
        assert sorted(w["word"] for w in data["words"]) == sorted(w for w, *_ in case["got"]["words"])
    assert len(seen) == len(SOURCES)


def test_rules_data_reads_boards_as_the_library_does(parity_store: Path) -> None:
    """The face table the page reads notation with maps each token as `parse_board` does (shorthands, case)."""
    rules = lexicon_rules("p-en", parity_store)
    assert rules["tokens"]["q"] == "qu" and rules["tokens"]["Q"] == "qu" and rules["tokens"]["[qu]"] == "qu"
    four = rules["sizes"]["4x4"]
    assert four == {"dice": "en-new-4x4", "min_length": 3, "scoring": "classic-4x4"}
    assert rules["scoring"]["classic-4x4"]["points"][:10] == [0, 0, 0, 1, 1, 2, 3, 5, 11, 11]
    assert rules["sizes"]["6x6"]["scoring"] == "superbig-6x6" and rules["sizes"]["8x8"]["min_length"] >= 3
    assert rules["tokens"]["[th]"] == "th" and rules["tokens"]["[TH]"] == "th"
    cy = lexicon_rules("p-cy", parity_store)
    assert cy["tokens"]["[ll]"] == "ll" and "ll" in cy["draw"][""]["faces"]


def test_the_static_sites_api_answers_as_serve(parity_store: Path, tmp_path: Path) -> None:
    """The static site's /api/solve (static/local_api.js under Node, reading an export) answers as serve's:
    the board as notation, grid, capitals, every word with its points, length in letters, path and written form
    (Greek ς, Hebrew final letters), totals, rules and dice; a face outside the alphabet is refused with the
    library's code. Eight boards a language in six languages."""
    from urllib.parse import urlencode

    from boggle_i18n.errors import BoggleI18nError
    from boggle_i18n.web.app import WebApp
    from boggle_i18n.web.site import export_site

    names = ["p-en", "p-he", "p-el", "p-cy", "p-hy", "p-th"]
    site = tmp_path / "site"
    export_site(site, names, parity_store)
    web = WebApp(parity_store)
    urls, expected = [], []
    for name in names:
        for board, _ in boards_for(name[2:], name, parity_store)[:8]:
            query = {"board": board.notation(), "lang": name[2:], "lexicon": name}
            urls.append("/api/solve?" + urlencode(query))
            expected.append(web.solve(query))
    refused = {"board": "жaaa/aaaa/aaaa/aaaa", "lang": "en", "lexicon": "p-en"}  # Cyrillic: no fold makes it en
    with pytest.raises(BoggleI18nError) as error:
        web.solve(refused)
    urls.append("/api/solve?" + urlencode(refused))
    job = tmp_path / "urls.json"
    job.write_text(json.dumps(urls))
    done = subprocess.run(
        [node(), str(ROOT / "tools" / "static_api.js"), str(site), str(job)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    shown = 0
    for want, got in zip(expected, answers, strict=False):
        assert got["status"] == 200, got
        body = got["body"]
        for key in ("board", "rows", "cols", "grid", "shown_grid", "lang", "dice", "rules", "score", "n_words"):
            assert body[key] == want[key], (key, want["board"])
        assert body["lexicon"]["name"] == want["lexicon"]["name"]

        def words(doc: dict) -> dict:
            return {w["word"]: (w["points"], w["length"], w["path"], w.get("shown")) for w in doc["words"]}

        assert words(body) == words(want), want["board"]
        shown += sum("shown" in w for w in want["words"])
    assert shown > 10  # Greek and Hebrew words written otherwise than stored were compared
    assert answers[-1]["status"] == 400 and answers[-1]["body"]["code"] == error.value.code == "board.outside_alphabet"
