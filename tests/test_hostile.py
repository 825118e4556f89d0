"""Hostile or odd input on a real system: runaway patterns, Ctrl-C, FIFOs, huge lines, tabs, BOMs, closed pipes,
faces outside the alphabet. Each is handled the same way by every command that meets it."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES

from boggle_i18n import Lexicon, build_lexicon, parse_board, solve
from boggle_i18n.cli import app
from boggle_i18n.cli.testing import CliRunner
from boggle_i18n.errors import BoardError
from boggle_i18n.pipeline import runner as stage_runner
from boggle_i18n.solver.batch import Block, read_blocks

runner = CliRunner()
MINI_EN = FIXTURES / "mini-en.txt"
CLI = [sys.executable, "-m", "boggle_i18n"]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    build_lexicon("en-enable2k", source=MINI_EN, store=root)
    return root


def _evil_recipe(tmp_path: Path) -> Path:
    """A recipe whose pattern backtracks for ever on a line of 40 a's and a '!'."""
    words = tmp_path / "words.txt"
    words.write_text("cat\ndog\n" + "a" * 40 + "!\nbird\n", encoding="utf-8")
    recipe = tmp_path / "evil.toml"
    recipe.write_text(
        'name = "evil"\nlanguage = "en"\nlicence = "test"\n\n'
        f'[source]\nname = "evil"\nsystem = ["{words}"]\n\n'
        "[[stages]]\nstage = \"regex-keep\"\npattern = '^(a+)+$'\n",
        encoding="utf-8",
    )
    return recipe


def test_a_runaway_pattern_stops_the_build_with_one_line(
    tmp_path: Path, store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stage_runner, "PATTERN_CPU_SECONDS", 0.3)
    started = time.monotonic()
    result = runner.invoke(app, ["build-lexicon", str(_evil_recipe(tmp_path)), "--store", str(store)])
    assert time.monotonic() - started < 30
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: stage 1 (regex-keep): pattern '^(a+)+$' took over"), lines
    assert not (store / "evil.json").exists()


def test_a_fast_pattern_is_untouched_by_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is per chunk of CPU time: an ordinary recipe builds as before, with the same words."""
    monkeypatch.setattr(stage_runner, "PATTERN_CPU_SECONDS", 0.5)
    lexicon = build_lexicon("en", source=MINI_EN, store=tmp_path / "s")
    assert len(lexicon) > 0 and signal.getsignal(signal.SIGVTALRM) in (signal.SIG_DFL, None, signal.SIG_IGN)


# --- Ctrl-C: `Error: interrupted`, exit 130, in every command that can run long --------------------


def _fifo(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


def _interrupt(args: list[str], wait_for: str | None, delay: float, env: dict[str, str]) -> tuple[int, str, str]:
    """Start the command, wait for `wait_for` on stderr (or `delay` s), send SIGINT, and collect what it said."""
    # Ctrl-C as at a terminal: a shell without job control starts background jobs with SIGINT ignored, and
    # Python then keeps ignoring it (as it should); the command under test must start with the default.
    proc = subprocess.Popen(
        [*CLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen = []
    try:
        if wait_for is not None:
            assert proc.stderr is not None
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                line = proc.stderr.readline()
                seen.append(line)
                if wait_for in line or not line:
                    break
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, out, "".join(seen) + err


@pytest.mark.parametrize(
    "command",
    ["build-lexicon", "score", "solve", "optimize", "compare", "paths"],
)
def test_ctrl_c_is_one_line_and_exit_130_everywhere(command: str, tmp_path: Path, store: Path) -> None:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    s = ["--store", str(store)]
    fifo = _fifo(tmp_path, "never-written")
    holder = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # keeps the FIFO open: readers wait, never see its end
    try:
        cases: dict[str, tuple[list[str], str | None, float]] = {
            "build-lexicon": (["build-lexicon", str(_evil_recipe(tmp_path)), *s], None, 1.5),
            "score": (["score", str(fifo), "--lexicon", "en-enable2k", *s], None, 1.5),
            "solve": (["solve", "--file", str(fifo), "--lexicon", "en-enable2k", *s], None, 1.5),
            "optimize": (
                ["optimize", "--lexicon", "en-enable2k", "--time-limit", "60", "--seed", "1", *s],
                "best",
                0.3,
            ),
            "compare": (["compare", "en", "--boards", "10", "--optimize-time", "60", *s], None, 3.0),
            "paths": (["paths", "--size", "7x7"], None, 1.5),
        }
        if command == "compare":  # compare plays each language's own lexicon: give `en` one
            build_lexicon("en", source=MINI_EN, store=store)
        args, wait_for, delay = cases[command]
        code, out, err = _interrupt(args, wait_for, delay, env)
    finally:
        os.close(holder)
    assert code == 130, (command, code, err)
    assert err.splitlines()[-1] == "Error: interrupted", err
    assert "Traceback" not in err
    if command == "optimize":  # the best board so far is still reported
        assert "stopped by interrupt" in out


# --- score's input: FIFOs, /dev/stdin, process substitution, long lines, tabs, BOMs, closed pipes ----------


def test_score_reads_fifos_dev_stdin_and_process_substitution(tmp_path: Path, store: Path) -> None:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    expected = "perslatgsineters\t"
    fifo = _fifo(tmp_path, "boards")
    writer = subprocess.Popen(["sh", "-c", f"echo perslatgsineters > '{fifo}'"])
    via_fifo = subprocess.run(
        [*CLI, "score", str(fifo), "--lexicon", "en-enable2k"], capture_output=True, text=True, env=env
    )
    writer.wait(timeout=30)
    via_stdin = subprocess.run(
        [*CLI, "score", "/dev/stdin", "--lexicon", "en-enable2k"],
        input="perslatgsineters\n",
        capture_output=True,
        text=True,
        env=env,
    )
    command = " ".join([*CLI, "score", "<(echo perslatgsineters)", "--lexicon", "en-enable2k"])
    via_substitution = subprocess.run(["bash", "-c", command], capture_output=True, text=True, env=env)
    for proc in (via_fifo, via_stdin, via_substitution):
        assert proc.returncode == 0 and proc.stdout.startswith(expected), proc.stderr


class _Endless(io.RawIOBase):
    """A stream of `n` bytes of 'a' then a newline and a board, made as it is read (never held whole)."""

    def __init__(self, n: int) -> None:
        self.left = n
        self.tail = b"\nstreaedlp\n"

    def readable(self) -> bool:
        return True

    def read1(self, size: int = -1) -> bytes:
        if self.left > 0:
            take = min(size, self.left)
            self.left -= take
            return b"a" * take
        out, self.tail = self.tail, b""
        return out

    read = read1  # type: ignore[assignment]


def test_a_huge_line_is_skipped_with_flat_memory() -> None:
    """A 20 MB line: never held (peak allocation far below its size), reported as that line with its length."""
    tracemalloc.start()
    try:
        blocks: list[Block] = list(read_blocks(_Endless(20_000_000)))  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, peak
    assert blocks[0] == (1, b"\n", ((1, 20_000_000),))  # told out of band: no input byte can pass for it
    assert b"".join(b.data for b in blocks[1:]) == b"streaedlp\n"


def test_score_long_lines_tabs_and_a_bom_mid_file(store: Path) -> None:
    text = "perslatgsineters\n" + "b" * 70_000 + "\n\ufeffstreaedlp\npers\tlatg\tsine\tters\n"
    result = runner.invoke(app, ["score", "--lexicon", "en-enable2k", "--store", str(store)], input=text)
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert all(len(r) == 3 for r in rows), rows  # board, score, words: a tab in the input never adds a column
    assert rows[0][0] == "perslatgsineters"
    assert rows[1] == [
        "<line of 70,000 bytes>",
        "error",
        "line is 70,000 bytes, over the maximum 65,536 (a 64x64 board is far shorter)",
    ]
    assert rows[2][0] == "streaedlp" and rows[2][1] != "error"  # the BOM of a second file joined with cat is dropped
    assert rows[3][0] == "pers latg sine ters" and rows[3][1] == rows[0][1]
    assert max(len(line) for line in result.stderr.splitlines()) < 200


def test_a_closed_pipe_ends_quietly(store: Path) -> None:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store)}
    boards = "perslatgsineters\n" * 200_000
    command = f"{' '.join(CLI)} score --lexicon en-enable2k | head -1"
    proc = subprocess.run(["bash", "-c", command], input=boards, capture_output=True, text=True, env=env)
    assert proc.stdout.startswith("perslatgsineters\t") and proc.stdout.count("\n") == 1
    assert "Error" not in proc.stderr and "Broken pipe" not in proc.stderr, proc.stderr


def test_long_names_are_cut_in_messages(store: Path) -> None:
    name = "x" * 10_000
    for args in (
        ["build-lexicon", "en", "--as", name + "/", "--store", str(store)],
        ["solve", "abcd", "--lang", name],
        ["solve", name * 3, "--lexicon", "en-enable2k", "--store", str(store)],
        ["score", name, "--store", str(store)],
    ):
        result = runner.invoke(app, args)
        lines = result.stderr.splitlines()
        assert result.exit_code != 0 and len(lines) == 1 and len(lines[0]) < 300, (args[0], lines[0][:400])


# --- faces outside the language's alphabet: one rule everywhere --------------------------------------


@pytest.mark.parametrize(
    ("board", "lang", "face"),
    [("pers/latg/sine/terñ", "en", "ñ"), ("trap/kaas/oven/bliλ", "nl", "λ"), ("pers/latg/sine/terı", "en", "ı")],
)
def test_faces_outside_the_alphabet_are_refused_everywhere(
    board: str, lang: str, face: str, tmp_path: Path, store: Path
) -> None:
    build_lexicon("en", source=MINI_EN, store=store, save_as="nl-mini")
    lexicon = "en-enable2k" if lang == "en" else "nl-mini"
    message = f"face {face!r} has a letter outside the {lang} alphabet"
    solved = runner.invoke(app, ["solve", board, "--lang", lang, "--lexicon", lexicon, "--store", str(store)])
    assert solved.exit_code == 1 and message in solved.stderr, solved.stderr
    scored = runner.invoke(app, ["score", "--lang", lang, "--lexicon", lexicon, "--store", str(store)], input=board)
    assert scored.exit_code == 1 and message in scored.stdout, scored.output
    with pytest.raises(BoardError, match=message):
        solve(parse_board(board), Lexicon.load(lexicon, store), lang=lang)


# --- Round 3: odd encodings, broken recipes, closed and narrow streams, unbounded sources, edited files ------------


def _one_error(result: subprocess.CompletedProcess[bytes] | Any, text: str = "") -> str:
    """The single `Error:` line of a failed run (a CliRunner result or a subprocess), checked to be alone."""
    err = result.stderr if isinstance(result.stderr, str) else result.stderr.decode("utf-8", "replace")
    code = result.exit_code if hasattr(result, "exit_code") else result.returncode
    lines = err.strip().splitlines()
    assert code not in (0, None) and "Traceback" not in err, err[-500:]
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert text in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        ("rot13", "not a text encoding"),
        ("hex", "not a text encoding"),
        ("base64", "not a text encoding"),
        ("utf-7", "not ASCII-compatible"),
        ("utf-16", "not ASCII-compatible"),
        ("cp037", "not ASCII-compatible"),
        ("no-such-codec", "unknown encoding"),
    ],
)
def test_an_encoding_that_cannot_split_lines_is_one_error(encoding: str, text: str, tmp_path: Path) -> None:
    """--encoding rot13|hex|utf-7 were tracebacks; every codec that is not a text encoding reading ASCII as
    itself (EBCDIC, UTF-16, base64) is refused before a byte is read."""
    result = runner.invoke(
        app,
        [
            "build-lexicon",
            "en",
            "--as",
            "x",
            "--source",
            str(MINI_EN),
            "--store",
            str(tmp_path / "s"),
            "--encoding",
            encoding,
        ],
    )
    _one_error(result, text)
    assert not (tmp_path / "s" / "x.json").exists()


def _recipe(tmp_path: Path, extra: str, name: str = "odd") -> Path:
    base = (Path(__file__).resolve().parent.parent / "pipelines" / "en.toml").read_text(encoding="utf-8")
    path = tmp_path / f"{name}.toml"
    path.write_text(base.replace('name = "en"', f'name = "{name}"', 1) + extra, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("replacement", "text"), [("\\\\9", "invalid group reference 9"), ("\\\\g<nope>", "unknown group name")]
)
def test_a_bad_regex_replace_group_is_a_recipe_error(tmp_path: Path, replacement: str, text: str) -> None:
    recipe = _recipe(
        tmp_path, f'\n[[stages]]\nstage = "regex-replace"\npattern = "(a)"\nreplacement = "{replacement}"\n'
    )
    result = runner.invoke(
        app, ["build-lexicon", str(recipe), "--source", str(MINI_EN), "--store", str(tmp_path / "s")]
    )
    _one_error(result, text)


@pytest.mark.parametrize("where", ["recipe", "blocklist"])
def test_a_recipe_or_its_list_that_is_not_utf8_is_one_error(tmp_path: Path, where: str) -> None:
    if where == "recipe":
        recipe = _recipe(tmp_path, "")
        recipe.write_bytes(recipe.read_bytes().replace(b"ENABLE (enable1) for", b"ENABLE caf\xe9 for"))
    else:
        (tmp_path / "block.txt").write_bytes(b"caf\xe9\n")
        recipe = _recipe(tmp_path, '\n[[stages]]\nstage = "blocklist"\nfile = "block.txt"\n')
    result = runner.invoke(
        app, ["build-lexicon", str(recipe), "--source", str(MINI_EN), "--store", str(tmp_path / "s")]
    )
    _one_error(result, "not UTF-8")


def test_a_recipe_that_empties_every_entry_builds_nothing(tmp_path: Path) -> None:
    """Stages that turn every entry into "" kept "3 words" in a lexicon holding one empty key: now none are kept,
    and nothing is written."""
    recipe = _recipe(tmp_path, '\n[[stages]]\nstage = "regex-replace"\npattern = ".*"\nreplacement = ""\n')
    result = runner.invoke(
        app, ["build-lexicon", str(recipe), "--source", str(MINI_EN), "--store", str(tmp_path / "s")]
    )
    _one_error(result, "kept no words")
    assert not (tmp_path / "s" / "odd.json").exists()


def _run(args: list[str], store: Path, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "BOGGLE_I18N_HOME": str(store), **kwargs.pop("env", {})}
    return subprocess.run([*CLI, *args], env=env, capture_output=kwargs.pop("capture", True), timeout=120, **kwargs)


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "perslatgsineters", "--lexicon", "en-enable2k"],
        ["languages"],
        ["lexicons"],
        ["random", "--lang", "de", "--seed", "1"],
        ["score", "--lexicon", "en-enable2k"],
    ],
    ids=lambda a: a[0],
)
def test_closed_or_full_or_narrow_standard_streams_are_one_error(args: list[str], store: Path) -> None:
    """stdout closed (`>&-`), stdin closed (`<&-`), stdout on /dev/full, PYTHONIOENCODING=ascii: one `Error:` line
    and a non-zero exit, or the full answer, never a traceback (they were AttributeErrors and UnicodeEncodeErrors)."""
    closed_out = _run(
        args,
        store,
        stdout=subprocess.DEVNULL,
        capture=False,
        stderr=subprocess.PIPE,
        input=b"perslatgsineters\n",
        preexec_fn=lambda: os.close(1),
    )
    _one_error(closed_out, "standard output is closed")
    with open("/dev/full", "wb") as full:
        on_full = _run(args, store, stdout=full, stderr=subprocess.PIPE, capture=False, input=b"perslatgsineters\n")
    _one_error(on_full, "No space left on device")
    narrow = _run(args, store, input=b"perslatgsineters\n", env={"PYTHONIOENCODING": "ascii"})
    if narrow.returncode:
        _one_error(narrow, "encoding (ascii) cannot write")
    else:
        assert b"Traceback" not in narrow.stderr and narrow.stdout
    if args[0] == "score":
        closed_in = _run(args, store, stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0))
        _one_error(closed_in, "standard input is closed")


@pytest.mark.parametrize("kind", ["fifo-no-writer", "dev-zero", "long-line", "too-many"])
def test_build_sources_are_bounded_and_never_hang(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A named pipe with no writer hung for ever, /dev/zero read for ever, a 200 MB line took 72 s and 1.24 GB and
    became a word: now one `Error:` line each, in linear time and flat memory."""
    from boggle_i18n.pipeline import sources

    store = tmp_path / "s"
    if kind == "fifo-no-writer":
        source = tmp_path / "fifo"
        os.mkfifo(source)
        text = "is empty"
    elif kind == "dev-zero":
        source, text = Path("/dev/zero"), "is a device"
    elif kind == "long-line":
        source = tmp_path / "long.txt"
        with source.open("wb") as handle:  # 40 MiB with no newline after "cat"
            handle.write(b"cat\n")
            for _ in range(40):
                handle.write(b"a" * (1 << 20))
        text = "entry longer than 16,384 bytes"
    else:
        monkeypatch.setattr(sources, "MAX_SOURCE_ENTRIES", 5)
        source, text = MINI_EN, "more than 5 entries"
    tracemalloc.start()
    started = time.perf_counter()
    result = runner.invoke(app, ["build-lexicon", "en", "--as", "x", "--source", str(source), "--store", str(store)])
    took = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    _one_error(result, text)
    assert took < 30 and peak < 64 << 20, (took, peak)
    assert not (store / "x.json").exists()


def _build_from_fifo(tmp_path: Path, wait: str) -> int:
    """`mkfifo f; (sleep ...; cat list > f) & build-lexicon --source f`: the build's word count."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"{wait}cat {MINI_EN} > {fifo}"])
    try:
        result = runner.invoke(
            app, ["build-lexicon", "en", "--as", "x", "--source", str(fifo), "--store", str(tmp_path / "s")]
        )
    finally:
        writer.wait(timeout=30)
    assert result.exit_code == 0, result.output
    return len(Lexicon.load("x", tmp_path / "s"))


def test_a_named_pipe_with_a_writer_is_streamed_once(tmp_path: Path) -> None:
    """`mkfifo f; cat list > f & build-lexicon --source f`: built from what the writer sends."""
    assert _build_from_fifo(tmp_path, "") > 0


def test_a_named_pipe_whose_writer_comes_late_is_read_in_full(tmp_path: Path) -> None:
    """The writer opens the pipe a second after the build did (a loaded machine, a slow shell): it used to
    read as empty at once, one error, and the writer then hung with no reader (a CI run met it)."""
    assert _build_from_fifo(tmp_path, "sleep 1; ") == _build_from_fifo(tmp_path / "again", "")


@pytest.mark.parametrize(
    "content",
    [b"{not json", b"[1, 2]", b'{"id": 7}', b"\xff\xfe", b'{"id": "x", "name": "x", "language": "en", "size": [4, 4]}'],
    ids=["broken", "list", "id-int", "not-utf8", "no-dice"],
)
def test_a_malformed_dice_file_is_one_error(content: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A malformed file in lexicons/dice/ was a traceback in every command that rolls or lists dice."""
    from boggle_i18n import resources
    from boggle_i18n.board import dice

    shipped = resources.data_dir("lexicons")
    data = tmp_path / "lexicons"
    (data / "dice").mkdir(parents=True)
    (data / "languages").symlink_to(shipped / "languages")
    (data / "dice" / "zz-bad.json").write_bytes(content)
    monkeypatch.setattr(resources, "data_dir", lambda name: data if name == "lexicons" else shipped.parent / name)
    monkeypatch.setattr(dice, "data_folder", lambda name: str(resources.data_dir(name)))
    dice.dice_sets.cache_clear()
    try:
        _one_error(runner.invoke(app, ["dice"]), "dice file")
    finally:
        dice.dice_sets.cache_clear()


@pytest.mark.parametrize(
    "content",
    [b"code = ", b'code = "zz"\nname = "Z"\nvowels = "a"\nmin_length = 3\nscoring = "x"\ndice = [1]\n', b"\xff\xfe"],
    ids=["broken", "dice-not-names", "not-utf8"],
)
def test_a_malformed_language_record_is_one_error(
    content: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boggle_i18n import resources
    from boggle_i18n.language import records

    shipped = resources.data_dir("lexicons")
    data = tmp_path / "lexicons"
    (data / "languages").mkdir(parents=True)
    (data / "dice").symlink_to(shipped / "dice")
    (data / "languages" / "zz.toml").write_bytes(content)
    monkeypatch.setattr(records, "data_folder", lambda name: str(data if name == "lexicons" else shipped.parent / name))
    records.languages.cache_clear()
    try:
        _one_error(runner.invoke(app, ["languages"]), "language record")
    finally:
        records.languages.cache_clear()


def _mutations(value: Any, path: tuple[Any, ...] = ()) -> Any:
    """Every (path, replacement) that breaks one field of a result file: removed, a string, NaN, a list."""
    if isinstance(value, dict):
        for key, sub in value.items():
            yield (*path, key), "DELETE"
            yield from _mutations(sub, (*path, key))
    elif isinstance(value, list) and value:
        yield from _mutations(value[0], (*path, 0))
    if path:
        for bad in ("x", float("nan"), [], None):
            if bad != value:
                yield path, bad


def _apply(data: Any, path: tuple[Any, ...], bad: Any) -> Any:
    import copy

    out = copy.deepcopy(data)
    holder = out
    for step in path[:-1]:
        holder = holder[step]
    if bad == "DELETE":
        del holder[path[-1]]
    else:
        holder[path[-1]] = bad
    return out


@pytest.mark.parametrize("kind", ["optimize", "proof", "estimate"])
def test_hand_edited_result_files_are_one_error_or_rendered(kind: str, tmp_path: Path) -> None:
    """Every field of a real result file broken in turn (removed, a string, NaN, a list, null): `results` renders
    the page or gives one `Error:` line naming the file; the web's records (the same loaders) raise a clean error."""
    import json
    import random

    from boggle_i18n.errors import BoggleI18nError
    from boggle_i18n.optimize.results import load_results
    from boggle_i18n.prove.records import load_estimates, load_proofs

    results = Path(__file__).resolve().parent.parent / "results"
    wanted = {"optimize": None, "proof": "proof", "estimate": "proof-estimate"}[kind]
    source = next(
        p
        for p in sorted(results.rglob("*.json"))
        if p.name != "known.json" and json.loads(p.read_text()).get("kind") == wanted
    )
    original = json.loads(source.read_text())
    cases = list(_mutations(original))
    random.Random(len(cases)).shuffle(cases)
    folder = tmp_path / "r"
    folder.mkdir()
    target = folder / "edited.json"
    for path, bad in cases[:60]:
        target.write_text(json.dumps(_apply(original, path, bad)), encoding="utf-8")
        result = runner.invoke(app, ["results", str(folder)])
        if result.exit_code:
            _one_error(result, "edited.json")
        else:
            assert "Traceback" not in result.output
        try:
            load_results(folder), load_proofs(folder), load_estimates(folder)
        except BoggleI18nError:
            pass


def test_prove_output_to_a_folder_is_refused_before_the_proof(store: Path, tmp_path: Path) -> None:
    """`prove --output DIR` was found out only after the whole proof."""
    folder = tmp_path / "out"
    folder.mkdir()
    started = time.perf_counter()
    result = runner.invoke(
        app, ["prove", "--lexicon", "en-enable2k", "--size", "3x3", "--store", str(store), "--output", str(folder)]
    )
    _one_error(result, "it is a folder")
    assert time.perf_counter() - started < 20


def test_a_tampered_checkpoint_through_the_command_is_corrected(store: Path, tmp_path: Path) -> None:
    """The issue's case: a line claiming `zzz/zzz` = 99999 is not reported as "proven: best board"."""
    import json

    ckpt = tmp_path / "proof.ckpt"
    base = ["prove", "--lexicon", "en-enable2k", "--size", "2x2", "--store", str(store), "--checkpoint", str(ckpt)]
    first = runner.invoke(app, [*base, "--threshold", "1", "--json"])
    assert first.exit_code == 0, first.output
    lines = ckpt.read_text().splitlines()
    record = json.loads(lines[1])
    record["boards"].insert(0, ["zzz/zzz", 99999, 9])
    lines[1] = json.dumps(record)
    ckpt.write_text("\n".join(lines) + "\n")
    resumed = runner.invoke(app, [*base, "--resume", "--json"])
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["boards"] == json.loads(first.stdout)["boards"]
    assert "99999" not in resumed.stdout and "failed their check" in resumed.stderr


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_stopping_a_two_worker_proof_is_one_line(store: Path, tmp_path: Path, signame: str) -> None:
    """Ctrl-C or SIGTERM to the process group of a `prove --workers 2` (2 of 5 runs printed a traceback from the
    pool's threads): one `Error: interrupted`, exit 130, the checkpoint kept."""
    from conftest import shared_file

    big = tmp_path / "big"
    build_lexicon("en-enable2k", source=shared_file("lexicons", "en-enable2k.txt"), store=big)
    ckpt = tmp_path / "proof.ckpt"
    args = [
        "prove",
        "--lexicon",
        "en-enable2k",
        "--size",
        "3x3",
        "--threshold",
        "400",
        "--workers",
        "2",
        "--checkpoint",
        str(ckpt),
    ]
    env = {**os.environ, "BOGGLE_I18N_HOME": str(big)}

    def own_group() -> None:
        os.setsid()
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(
        [*CLI, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=own_group
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not ckpt.exists() or ckpt.read_text().count("\n") < 3):
        time.sleep(0.2)
    os.killpg(proc.pid, getattr(signal, signame))
    _out, err = proc.communicate(timeout=60)
    text = err.decode()
    assert proc.returncode == 130 and "Traceback" not in text, text[-800:]
    assert text.strip().splitlines()[-1] == "Error: interrupted"
    assert ckpt.read_text().count("\n") >= 2


def test_solve_board_files_are_bounded_and_utf8_checked(built_store: Path, tmp_path: Path) -> None:
    """`solve --file` and `solve -`: a 50 MB line is refused as it is read (flat memory), bad UTF-8 is one line."""
    from boggle_i18n.cli.solve_cmd import read_board_stream

    tracemalloc.start()
    try:
        with pytest.raises(BoardError, match="line 1 is over the maximum 65,536 bytes"):
            read_board_stream(_Endless(50_000_000), "board input")  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000, peak
    with pytest.raises(BoardError, match="line 3 is over"):
        read_board_stream(io.BytesIO(b"pers\nlatg\n" + b"s" * 70_000 + b"\n"), "board input")
    with pytest.raises(BoardError, match="is over 4,194,304 bytes"):
        read_board_stream(io.BytesIO(b"# comment\n" * 500_000), "board input")
    base = ["solve", "--lexicon", "en-enable2k", "--store", str(built_store)]
    result = runner.invoke(app, [*base, "-"], input=b"pers\nlat\xe9\n")
    assert result.exit_code == 1
    assert result.stderr == "Error: board input is not UTF-8 text (line 2: byte 0xe9)\n"
    long = tmp_path / "long.txt"
    long.write_bytes(b"a" * 100_000 + b"\n")
    result = runner.invoke(app, [*base, "--file", str(long)])
    assert result.exit_code == 1 and result.stderr.count("\n") == 1 and "over the maximum" in result.stderr
    result = runner.invoke(app, [*base, "--file", "-", "--json"], input="pers\nlatg\nsine\nters\n")
    assert result.exit_code == 0 and '"score": 3625' in result.stdout
